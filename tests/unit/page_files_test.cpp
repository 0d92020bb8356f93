// Folder mode's URLs as the files reports name: below the working directory relative to it,
// elsewhere absolute; a directory's URL names its index.html; query and fragment are kept.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>

#include "corocrawl/report.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

crawl_result served(std::string url, fs::path directory) {
  crawl_result result;
  result.folders.push_back({std::move(url), std::move(directory)});
  return result;
}

TEST(FileOf, AFolderBelowTheWorkingDirectoryIsNamedRelativeToIt) {
  const auto result = served("http://127.0.0.1:4000/", "/work/site/public");
  const fs::path cwd = "/work/site";
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000/", cwd), "public/index.html");
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000", cwd), "public/index.html");
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000/a/b.html", cwd), "public/a/b.html");
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000/docs/", cwd), "public/docs/index.html");
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000/a.html?x=1#top", cwd), "public/a.html?x=1#top");
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000/?q#f", cwd), "public/index.html?q#f");
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000/caf%C3%A9%20x.html", cwd),
            "public/caf\xC3\xA9 x.html");
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000/a/../b.html", cwd), "public/b.html");
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000//a//b.html", cwd), "public/a/b.html");
}

TEST(FileOf, TheWorkingDirectoryItselfAndOneOutsideIt) {
  const auto here = served("http://127.0.0.1:4000/", "/work/site");
  EXPECT_EQ(file_of(here, "http://127.0.0.1:4000/", "/work/site"), "index.html");
  EXPECT_EQ(file_of(here, "http://127.0.0.1:4000/a/b.html", "/work/site"), "a/b.html");
  EXPECT_EQ(file_of(here, "http://127.0.0.1:4000/a/", "/work/site"), "a/index.html");
  EXPECT_EQ(file_of(here, "http://127.0.0.1:4000/a/b.html", "/elsewhere"), "/work/site/a/b.html");
  const auto root = served("http://127.0.0.1:4000/", "/");
  EXPECT_EQ(file_of(root, "http://127.0.0.1:4000/a.html", "/work"), "/a.html");
  EXPECT_EQ(file_of(root, "http://127.0.0.1:4000/", "/work"), "/index.html");
}

TEST(FileOf, OtherUrlsNameNoFile) {
  const auto result = served("http://127.0.0.1:4000/base/", "/work/site");
  const fs::path cwd = "/work";
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000/base/a.html", cwd), "site/a.html");
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000/based.html", cwd), std::nullopt);
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4001/base/a.html", cwd), std::nullopt);
  EXPECT_EQ(file_of(result, "https://example.com/", cwd), std::nullopt);
  EXPECT_EQ(file_of(result, "http://127.0.0.1:4000/base/a%00.html", cwd), std::nullopt);
  EXPECT_EQ(file_of(crawl_result{}, "http://127.0.0.1:4000/base/a.html", cwd), std::nullopt);
}

TEST(FileOf, TheLocatorNamesFilesAndLeavesOtherUrlsAsTheyAre) {
  const auto result = served("http://127.0.0.1:4000/", "/work/site");
  const page_locator locate = report_locator(result, "/work");
  EXPECT_EQ(locate("http://127.0.0.1:4000/a.html"), "site/a.html");
  EXPECT_EQ(locate("https://example.com/x"), "https://example.com/x");
}

}  // namespace
}  // namespace corocrawl
