// The `github` format, read back line by line as the Actions runner reads workflow commands.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "corocrawl/report.hpp"

namespace corocrawl {
namespace {

std::vector<std::string> lines_of(const crawl_result& result, const page_locator& locate) {
  std::ostringstream out;
  write_github_annotations(out, result, locate);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

std::string as_url(std::string_view page) {
  return std::string(page);
}

broken_link missing_image() {
  return {.url = "http://a.test/logo.png",
          .status = 404,
          .referrers = {"http://a.test/", "http://a.test/about"},
          .sources = {{"http://a.test/", "img", "src", 12, 5},
                      {"http://a.test/about", "img", "srcset", 3, 9}}};
}

TEST(GithubAnnotations, OneErrorPerPlaceABrokenLinkIsWritten) {
  crawl_result result;
  result.broken = {missing_image()};
  EXPECT_EQ(lines_of(result, as_url),
            (std::vector<std::string>{
                "::error file=http%3A//a.test/,line=12,col=5,title=broken link::"
                "http://a.test/logo.png 404 (img src)",
                "::error file=http%3A//a.test/about,line=3,col=9,title=broken link::"
                "http://a.test/logo.png 404 (img srcset)"}));
}

TEST(GithubAnnotations, FolderModeNamesTheFile) {
  crawl_result result;
  result.broken = {missing_image()};
  const auto lines = lines_of(result, [](std::string_view page) {
    return page == "http://a.test/" ? std::string("site/index.html")
                                    : std::string("site/about.html");
  });
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(lines[0].starts_with("::error file=site/index.html,line=12,col=5,")) << lines[0];
  EXPECT_TRUE(lines[1].starts_with("::error file=site/about.html,line=3,col=9,")) << lines[1];
}

TEST(GithubAnnotations, WarningsAndRateLimitedAreWarnings) {
  crawl_result result;
  result.warnings = {{.url = "http://a.test/moved",
                      .status = 301,
                      .sources = {{"http://a.test/", "a", "href", 1, 1}}}};
  result.rate_limited = {{.url = "http://b.test/", .status = 429, .external = true}};
  const auto lines = lines_of(result, as_url);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(lines[0].starts_with("::warning file=")) << lines[0];
  EXPECT_EQ(lines[1], "::warning title=link warning::http://b.test/ 429 (external)");
}

TEST(GithubAnnotations, AProblemNoMarkupReferencesIsAnnotatedOnceWithoutAPlace) {
  crawl_result result;
  result.broken = {{.url = "http://a.test/gone",
                    .error = "connection refused",
                    .referrers = {"http://a.test/old"}}};
  EXPECT_EQ(lines_of(result, as_url),
            (std::vector<std::string>{
                "::error title=broken link::http://a.test/gone error connection refused"}));
}

// A hostile page or server cannot end the command and start one of its own.
TEST(GithubAnnotations, NewlinesPercentsAndSeparatorsAreEscaped) {
  crawl_result result;
  result.broken = {{.url = "http://a.test/x%41\n::add-mask::secret",
                    .status = 500,
                    .error = "bad\r\nthing, really",
                    .sources = {{"http://a.test/a,b:c\n", "a", "href", 2, 3}}}};
  const auto lines = lines_of(result, as_url);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "::error file=http%3A//a.test/a%2Cb%3Ac%0A,line=2,col=3,title=broken link::"
            "http://a.test/x%2541%0A::add-mask::secret 500 bad%0D%0Athing, really (a href)");
}

TEST(GithubAnnotations, NothingBrokenWritesNothing) {
  EXPECT_TRUE(lines_of(crawl_result{}, as_url).empty());
}

}  // namespace
}  // namespace corocrawl
