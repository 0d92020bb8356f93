// The option table: docs/options.md is rendered from it, and every option in it is reachable
// where its descriptor says (command line, corocrawl.toml, --help).

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include "cli.hpp"
#include "options_doc.hpp"

namespace corocrawl {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(OptionsTable, DocsOptionsMdIsRenderedFromTheTable) {
  const std::string path = std::string(COROCRAWL_SOURCE_DIR) + "/docs/options.md";
  EXPECT_EQ(read_text(path), cli::options_document())
      << "docs/options.md is out of date: build corocrawl_gen_docs and run "
         "scripts/options-doc from the repository's root";
}

TEST(OptionsTable, FlagsAndKeysAreUnique) {
  std::set<std::string_view> flags;
  std::set<std::string_view> keys;
  for (const auto& o : cli::option_table()) {
    EXPECT_FALSE(o.spec.flag.empty() && o.spec.key.empty()) << o.spec.meaning;
    if (!o.spec.flag.empty()) {
      EXPECT_TRUE(flags.insert(o.spec.flag).second) << o.spec.flag;
    }
    if (!o.spec.key.empty()) {
      EXPECT_TRUE(keys.insert(o.spec.key).second) << o.spec.key;
    }
    EXPECT_FALSE(o.spec.meaning.empty()) << o.spec.flag << o.spec.key;
    EXPECT_FALSE(o.spec.default_text.empty()) << o.spec.flag << o.spec.key;
  }
}

TEST(OptionsTable, HelpNamesEveryFlagAndEveryKey) {
  const auto parsed = cli::parse_command_line({"--help"}, ".", {});
  const std::string help = std::get<cli::early_exit>(parsed).text;
  for (const auto& o : cli::option_table()) {
    const std::string_view flag = o.spec.flag;
    if (!flag.empty()) {
      const std::string_view long_name = flag.substr(flag.rfind(',') + 1);
      EXPECT_NE(help.find(long_name), std::string::npos) << long_name;
    }
    if (!o.spec.key.empty()) {
      EXPECT_NE(help.find(o.spec.key), std::string::npos) << o.spec.key;
    }
  }
}

TEST(OptionsTable, ReadGivesBackWhatStoreStored) {
  for (const auto& o : crawl_option_table()) {
    crawl_options options;
    const option_value value = o.read(options);
    if (std::holds_alternative<std::monostate>(value)) continue;
    crawl_options copy;
    o.store(copy, option_value(value));
    EXPECT_EQ(o.read(copy), value) << o.spec.key;
  }
}

}  // namespace
}  // namespace corocrawl
