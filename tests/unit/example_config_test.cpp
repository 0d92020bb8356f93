// examples/corocrawl.toml, the example config file installed with the documentation: it is
// read by the program's own config reader, settings commented out included, and it shows
// every key the program reads, so that it cannot fall behind the option table.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "corocrawl/errors.hpp"
#include "settings.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

const fs::path example = fs::path(COROCRAWL_SOURCE_DIR) / "examples" / "corocrawl.toml";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// `text` with every setting commented out taken in: lines "# key = ...", "# [table]" and
/// "# \"Header\" = ...". Prose comments never start that way.
std::string uncommented(const std::string& text) {
  static const std::regex setting(R"(^# ([a-z_]+ = |\[|"))", std::regex::multiline);
  return std::regex_replace(text, setting, "$1");
}

TEST(ExampleConfig, IsReadAsItIs) {
  cli::settings s;
  try {
    cli::apply_config_file(example, s);
  } catch (const config_error& e) {
    FAIL() << e.what();
  }
  // Its roots name the example site next to it.
  ASSERT_EQ(s.crawl.roots.size(), 1u);
  EXPECT_TRUE(fs::equivalent(s.crawl.roots.front(), example.parent_path() / "site"))
      << s.crawl.roots.front();
  EXPECT_FALSE(s.crawl.exclude.empty());
  EXPECT_EQ(s.crawl.rules.size(), 2u);
}

TEST(ExampleConfig, SettingsCommentedOutAreReadToo) {
  const std::string text = uncommented(read_text(example));
  ASSERT_NE(text, read_text(example));
  const testing::temp_dir dir;
  dir.write("certs/internal-ca.pem", "");   // ca_file names a file that must exist
  dir.write("ci/links-baseline.json", "");  // as does baseline
  const fs::path file = dir.write("corocrawl.toml", text);
  cli::settings s;
  try {
    cli::apply_config_file(file, s);
  } catch (const config_error& e) {
    FAIL() << e.what() << "\n" << text;
  }
  EXPECT_FALSE(s.crawl.headers.empty());
  EXPECT_FALSE(s.crawl.host_headers.empty());
  EXPECT_TRUE(s.json_path.has_value());
}

TEST(ExampleConfig, ShowsEveryKey) {
  const std::string text = uncommented(read_text(example));
  for (const auto& o : cli::option_table()) {
    const std::string key(o.spec.key);
    if (key.empty()) continue;
    const std::regex shown("^(" + key + " = |\\[" + key + "[.\\]]|\\[\\[" + key + "\\]\\])",
                           std::regex::multiline);
    EXPECT_TRUE(std::regex_search(text, shown)) << key << " is not in " << example;
  }
}

}  // namespace
}  // namespace corocrawl
