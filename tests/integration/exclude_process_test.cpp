// --exclude patterns that are hostile, or that meet hostile links, through the binary: a
// config error or a crawl that ends with a warning, never a crash or a hang.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <string>
#include <vector>

#include "binary_test.hpp"
#include "process.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;
using testing::process_result;

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++count;
  return count;
}

class ExcludeProcessTest : public ::testing::Test {
 protected:
  process_result run(std::vector<std::string> args) const {
    // Before Boost.Regex these crashed (SIGSEGV) or ran for minutes, deaf to SIGTERM.
    return testing::run_corocrawl(std::move(args), temp_.path(), 30s);
  }

  void write_file(const std::string& name, const std::string& text) const {
    temp_.write(name, text);
  }

  // The crawl's URLs, without the folder server's origin.
  static std::vector<std::string> paths_of(const json::value& summary) {
    const auto root = json::value_to<std::string>(summary.at("roots").at(0));
    std::vector<std::string> paths;
    for (const auto& record : summary.at("urls").as_array())
      paths.push_back(json::value_to<std::string>(record.at("url")).substr(root.size() - 1));
    return paths;
  }

  testing::temp_dir temp_;
};

// What the patterns below are searched in: a link whose query is 8,000 letters "a".
const std::string long_query = std::string(8000, 'a');

TEST_F(ExcludeProcessTest, DeeplyNestedPatternIsAConfigError) {
  // 50,000 "(": std::regex's compiler recursed once per "(" and overflowed the stack.
  const std::string pattern(50'000, '(');
  write_file("site/index.html", "<p>home</p>");
  for (const bool in_config : {false, true}) {
    SCOPED_TRACE(in_config ? "config file" : "flag");
    std::vector<std::string> args{"site"};
    if (in_config) {
      write_file("corocrawl.toml", "exclude = [\"" + pattern + "\"]\n");
    } else {
      args.insert(args.begin(), {"--exclude", pattern});
    }
    const auto result = run(args);
    // The pattern is shortened, not repeated whole: under 400 bytes.
    testing::expect_config_error(result, in_config ? "exclude" : "--exclude", 400);
    EXPECT_NE(result.err.find("invalid regular expression \"((((("), std::string::npos);
  }
}

TEST_F(ExcludeProcessTest, PatternThatRecursedPerCharacterCrawlsTheLongLink) {
  // std::regex's matcher recursed once per character for this pattern and overflowed the
  // stack on the 8 KB link.
  write_file("site/index.html", "<a href=\"ok.html?" + long_query + "\">long</a>");
  write_file("site/ok.html", "<p>ok</p>");
  const auto result = run({"--json", "-", "--exclude", "((a|b)|(a|c))*z", "site"});
  ASSERT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 0) << result.err.substr(0, 300);
  // The pattern gave up, so the link counts as not excluded: it is checked.
  EXPECT_EQ(paths_of(json::parse(result.out)),
            (std::vector<std::string>{"/", "/ok.html?" + long_query}));
  EXPECT_EQ(count_of(result.err, "exclude pattern \"((a|b)|(a|c))*z\" gave up on http://"), 1u)
      << result.err.substr(0, 1000);
}

TEST_F(ExcludeProcessTest, CatastrophicBacktrackingEndsAndWarnsOncePerPattern) {
  // "(a*)*z" takes exponential time on a run of "a" without "z": with std::regex the crawl
  // ran for minutes on the event loop, and SIGTERM was not handled.
  write_file("site/index.html", "<a href=\"ok.html?" + long_query + "\">long</a>" +
                                    "<a href=\"ok.html?b" + long_query + "\">longer</a>" +
                                    "<a href=\"other.html\">other</a><img src=\"logo.png\">");
  write_file("site/other.html", "<a href=\"ok.html?" + long_query + "\">long again</a>");
  write_file("site/ok.html", "<p>ok</p>");
  const auto result = run({"--json", "-", "--exclude", "(a*)*z", "--exclude", "\\.png$", "site"});
  ASSERT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 0) << result.err.substr(0, 300);
  // The long links are checked; logo.png is excluded by the other pattern all the same.
  EXPECT_EQ(paths_of(json::parse(result.out)),
            (std::vector<std::string>{"/", "/ok.html?" + long_query, "/ok.html?b" + long_query,
                                      "/other.html"}));
  // One warning for the pattern (two URLs, one of them linked twice), naming the first URL it
  // gave up on, shortened.
  EXPECT_EQ(count_of(result.err, "gave up on"), 1u) << result.err.substr(0, 1000);
  const auto warning = result.err.find("exclude pattern \"(a*)*z\" gave up on http://");
  ASSERT_NE(warning, std::string::npos) << result.err.substr(0, 1000);
  const auto line = result.err.substr(warning, result.err.find('\n', warning) - warning);
  EXPECT_NE(line.find("/ok.html?aaaa"), std::string::npos) << line;
  EXPECT_NE(line.find(" bytes)"), std::string::npos) << line;
  EXPECT_LT(line.size(), 600u) << line;
}

}  // namespace
}  // namespace corocrawl
