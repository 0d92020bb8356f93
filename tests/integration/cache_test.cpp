// --cache through the real crawler: a site on 127.0.0.1 links to another site ("ext.test", a
// second server reached through --resolve) whose requests are counted, run after run.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>

#include "cache/cache_file.hpp"
#include "corocrawl/crawl.hpp"
#include "corocrawl/report.hpp"
#include "crawl_helpers.hpp"
#include "temp_dir.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::record;
using testing::test_server;

class CacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    other_.add_page("/ok");
    other_.add_redirect("/moved", ext("/ok"), 301);
    server_.add_page("/", {ext("/ok"), ext("/missing"), ext("/moved"), "/inner"});
    server_.add_page("/inner");
  }

  /// The URL of `path` on the other site.
  std::string ext(std::string_view path) const {
    return other_.origin("ext.test") + std::string(path);
  }

  crawl_result crawl(std::chrono::milliseconds max_age = crawl_options{}.cache_max_age) const {
    auto options = testing::checking_options_for({server_.url("/")}, other_.port());
    options.robots = false;
    options.cache = cache_file_.string();
    options.cache_max_age = max_age;
    return run_crawl(options);
  }

  /// The cache file's entries; fails the test when it is not a valid cache.
  cache_entries cached() const {
    cache_contents read = read_cache_file(cache_file_);
    EXPECT_FALSE(read.problem) << *read.problem;
    return read.entries;
  }

  test_server server_;
  test_server other_;
  testing::temp_dir temp_;
  const fs::path cache_file_ = temp_.path() / "links.json";
};

TEST_F(CacheTest, TheNextRunTakesAnExternalSuccessFromTheCache) {
  const crawl_result first = crawl();
  EXPECT_EQ(other_.requests_for("/ok"), 1u);  // a HEAD
  EXPECT_FALSE(record(first, ext("/ok")).cached);
  EXPECT_EQ(result_stats(first).at("cached"), 0u);
  // Only the external success: not the site's pages, a broken link or a redirect.
  const cache_entries saved = cached();
  EXPECT_EQ(saved.size(), 1u);
  ASSERT_TRUE(saved.contains(ext("/ok")));
  EXPECT_EQ(saved.at(ext("/ok")).status, 200u);
  EXPECT_TRUE(saved.at(ext("/ok")).head);

  const crawl_result second = crawl();
  EXPECT_EQ(other_.requests_for("/ok"), 1u);  // none more
  const fetch_record reused = record(second, ext("/ok"));
  EXPECT_TRUE(reused.cached);
  EXPECT_EQ(reused.status, 200u);
  EXPECT_EQ(reused.tries, 0);
  EXPECT_EQ(reused.method, "HEAD");
  EXPECT_EQ(reused.content_type, "text/html");
  EXPECT_EQ(reused.encoding, "utf-8");
  EXPECT_TRUE(reused.external);
  EXPECT_EQ(result_stats(second).at("cached"), 1u);
  EXPECT_EQ(result_stats(second).at("external"), result_stats(first).at("external"));
  // The site's own pages are fetched on every run, and its verdict is the same.
  EXPECT_EQ(server_.requests_for("/inner"), 2u);
  EXPECT_FALSE(record(second, server_.url("/inner")).cached);
  EXPECT_EQ(first.broken.size(), 1u);
  EXPECT_EQ(second.broken.size(), 1u);
}

TEST_F(CacheTest, ABrokenExternalUrlAndARedirectAreFetchedOnEveryRun) {
  const crawl_result first = crawl();
  const auto missing_requests = other_.requests_for("/missing");  // HEAD, then GET
  ASSERT_GT(missing_requests, 0u);
  EXPECT_EQ(other_.requests_for("/moved"), 1u);

  const crawl_result second = crawl();
  EXPECT_EQ(other_.requests_for("/missing"), 2 * missing_requests);
  EXPECT_EQ(other_.requests_for("/moved"), 2u);
  EXPECT_EQ(other_.requests_for("/ok"), 1u);  // where the redirect ends: from the cache
  EXPECT_FALSE(record(second, ext("/missing")).cached);
  EXPECT_EQ(record(second, ext("/missing")).status, 404u);
  EXPECT_FALSE(record(second, ext("/moved")).cached);
  EXPECT_EQ(record(second, ext("/moved")).next_url, ext("/ok"));
  ASSERT_EQ(second.broken.size(), 1u);
  EXPECT_EQ(second.broken[0].url, ext("/missing"));
}

TEST_F(CacheTest, AMaximumAgeOfZeroFetchesAgainAndRefreshesTheEntry) {
  crawl();
  const auto checked = cached().at(ext("/ok")).checked;
  const crawl_result again = crawl(0ms);
  EXPECT_EQ(other_.requests_for("/ok"), 2u);
  EXPECT_FALSE(record(again, ext("/ok")).cached);
  EXPECT_EQ(result_stats(again).at("cached"), 0u);
  EXPECT_GE(cached().at(ext("/ok")).checked, checked);
}

TEST_F(CacheTest, AnEntryOlderThanTheMaximumAgeIsFetchedAgain) {
  const auto two_days_ago =
      std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now() - 48h);
  temp_.write(
      cache_file_.filename(),
      cache_text({{ext("/ok"), {.status = 200, .checked = two_days_ago}},
                  {"https://elsewhere.example/", {.status = 200, .checked = two_days_ago}}}));
  const crawl_result result = crawl();
  EXPECT_EQ(other_.requests_for("/ok"), 1u);
  EXPECT_FALSE(record(result, ext("/ok")).cached);
  const cache_entries saved = cached();
  EXPECT_GT(saved.at(ext("/ok")).checked, two_days_ago);
  EXPECT_FALSE(saved.contains("https://elsewhere.example/"));  // older than a day: dropped
}

TEST_F(CacheTest, AFileThatIsNotACacheIsIgnoredAndReplaced) {
  temp_.write(cache_file_.filename(), "<html>not a cache</html>");
  const crawl_result result = crawl();
  EXPECT_EQ(other_.requests_for("/ok"), 1u);
  EXPECT_FALSE(record(result, ext("/ok")).cached);
  EXPECT_TRUE(cached().contains(ext("/ok")));
}

}  // namespace
}  // namespace corocrawl
