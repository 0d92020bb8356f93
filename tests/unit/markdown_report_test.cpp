// The `markdown` format: a verdict heading and tables of problems whose cells hold text from
// pages and servers only as literal text.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "corocrawl/report.hpp"

namespace corocrawl {
namespace {

std::string markdown(const crawl_result& result, bool fail_on_rate_limit = false) {
  std::ostringstream out;
  write_markdown_report(out, result, fail_on_rate_limit,
                        [](std::string_view page) { return std::string(page); });
  return out.str();
}

TEST(MarkdownReport, APassingCrawlIsOneHeading) {
  EXPECT_EQ(markdown(crawl_result{}), "## corocrawl: PASSED: 0 URLs checked, nothing broken\n");
}

TEST(MarkdownReport, BrokenLinksAreATableWithEachPlace) {
  crawl_result result;
  result.broken = {{.url = "http://a.test/logo.png",
                    .status = 404,
                    .referrers = {"http://a.test/"},
                    .sources = {{"http://a.test/", "img", "src", 12, 5},
                                {"http://a.test/", "img", "srcset", 14, 1}}}};
  EXPECT_EQ(markdown(result),
            "## corocrawl: FAILED: 1 broken URL of 0 checked\n"
            "\n### Broken links (1)\n\n"
            "| URL | Status | Where |\n|---|---|---|\n"
            "| http\\:\\/\\/a\\.test\\/logo\\.png | 404 | "
            "http\\:\\/\\/a\\.test\\/\\:12\\:5 img src<br>http\\:\\/\\/a\\.test\\/\\:14\\:1 img "
            "srcset |\n");
}

TEST(MarkdownReport, AProblemWithoutSourcesNamesItsReferrers) {
  crawl_result result;
  result.warnings = {{.url = "http://a.test/r", .status = 301, .referrers = {"http://a.test/"}}};
  EXPECT_NE(markdown(result).find("| 301 | linked from http\\:\\/\\/a\\.test\\/ |"),
            std::string::npos);
}

// A hostile page cannot break out of its cell, add a link or inject HTML.
TEST(MarkdownReport, TextFromOutsideIsLiteral) {
  crawl_result result;
  result.broken = {{.url = "http://a.test/|x](javascript:alert(1))<script>\n# owned",
                    .error = "**bold** `code`"}};
  const auto text = markdown(result);
  EXPECT_NE(text.find("http\\:\\/\\/a\\.test\\/\\|x\\]\\(javascript\\:alert\\(1\\)\\)\\<script\\>"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("<script>"), std::string::npos);
  EXPECT_EQ(text.find("\n# owned"), std::string::npos);
  EXPECT_NE(text.find("error \\*\\*bold\\*\\* \\`code\\`"), std::string::npos) << text;
}

TEST(MarkdownReport, LongListsAreCut) {
  crawl_result result;
  std::vector<broken_link> broken;
  for (std::size_t i = 0; i < markdown_rows_at_most + 5; ++i)
    broken.push_back({.url = "http://a.test/" + std::to_string(i), .status = 404});
  result.broken = std::move(broken);
  const auto text = markdown(result);
  EXPECT_NE(text.find("… and 5 more (see the JSON summary)"), std::string::npos);
  EXPECT_EQ(text.find("http\\:\\/\\/a\\.test\\/" + std::to_string(markdown_rows_at_most) + " "),
            std::string::npos);
}

}  // namespace
}  // namespace corocrawl
