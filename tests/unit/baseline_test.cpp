// --baseline's logic: reading an earlier summary's broken URLs, comparing a crawl with them,
// and what that does to the verdict.
#include "report/baseline.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/baseline_file.hpp"
#include "corocrawl/crawl.hpp"
#include "corocrawl/errors.hpp"
#include "report/verdict.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

crawl_result broken_at(std::vector<std::string> urls) {
  std::vector<broken_link> broken;
  for (auto& url : urls)
    broken.push_back({.url = std::move(url), .status = 404});
  crawl_result result;
  result.broken = std::move(broken);
  return result;
}

TEST(Baseline, ReadsTheBrokenUrlsOrTheirFilesSortedAndDistinct) {
  testing::temp_dir dir;
  dir.write("summary.json", R"({"schema": "corocrawl-summary/1", "broken": [
      {"url": "http://b.test/"}, {"url": "http://127.0.0.1:4242/x.html", "file": "site/x.html"},
      {"url": "http://a.test/"}, {"url": "http://b.test/"}]})");
  EXPECT_EQ(read_baseline("baseline", dir.path() / "summary.json"),
            (std::vector<std::string>{"http://a.test/", "http://b.test/", "site/x.html"}));
}

TEST(Baseline, AnythingButASummaryIsAConfigErrorNamingTheFile) {
  testing::temp_dir dir;
  const auto error_for = [&](const std::string& text) {
    dir.write("b.json", text);
    try {
      read_baseline("baseline", dir.path() / "b.json");
    } catch (const config_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_for("[1, 2").find("is not JSON"), std::string::npos);
  EXPECT_NE(error_for("[]").find("is not a corocrawl JSON summary"), std::string::npos);
  EXPECT_NE(error_for(R"({"schema": "corocrawl-summary/1"})").find("has no \"broken\" list"),
            std::string::npos);
  EXPECT_NE(error_for(R"({"schema": "corocrawl-summary/1", "broken": [{"status": 404}]})")
                .find("a broken entry without a \"url\""),
            std::string::npos);
  EXPECT_TRUE(error_for("[]").starts_with("baseline: \"" + (dir.path() / "b.json").string()));
}

TEST(Baseline, SplitsBrokenIntoKnownAndNewAndListsTheFixed) {
  auto result = broken_at({"http://a.test/1", "http://a.test/2"});
  const std::vector<std::string> baseline = {"http://a.test/0", "http://a.test/2"};
  result.baseline = compare_with_baseline(result, baseline, "/");
  EXPECT_EQ(result.baseline->known, std::vector<std::string>{"http://a.test/2"});
  EXPECT_EQ(result.baseline->fixed, std::vector<std::string>{"http://a.test/0"});
  EXPECT_TRUE(is_known(result, "http://a.test/2"));
  EXPECT_FALSE(is_known(result, "http://a.test/1"));
  EXPECT_EQ(new_broken_count(result), 1u);
  EXPECT_FALSE(passed(result));
  EXPECT_EQ(verdict_line(result, false), "FAILED: 1 new broken URL (1 known) of 0 checked");
}

TEST(Baseline, FolderModeComparesFilesSoAnotherPortIsTheSameUrl) {
  auto result = broken_at({"http://127.0.0.1:5555/gone.html"});
  result.folders.push_back({"http://127.0.0.1:5555/", "/srv/site"});
  const std::vector<std::string> baseline = {"site/gone.html"};
  result.baseline = compare_with_baseline(result, baseline, "/srv");
  EXPECT_EQ(result.baseline->known, std::vector<std::string>{"http://127.0.0.1:5555/gone.html"});
  EXPECT_TRUE(result.baseline->fixed.empty());
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(verdict_line(result, false), "PASSED: 0 URLs checked, nothing new broken (1 known)");
}

}  // namespace
}  // namespace corocrawl
