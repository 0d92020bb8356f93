// The crawl loop, with the scripted site and virtual time of scripted_crawl.hpp: links,
// retries, redirects, the limits of a crawl and politeness.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scripted_crawl.hpp"

namespace corocrawl {
namespace {

namespace asio = boost::asio;
using testing::answer;
using testing::CrawlerTest;
using testing::site;
using testing::time_point;
using namespace std::chrono_literals;

TEST_F(CrawlerTest, LinksAreFollowedAndTheJoinEndsTheCrawl) {
  fetcher_.add("/", {{.links = {"/a", "/b"}}});
  fetcher_.add("/a", {{.links = {"/b", "/c", "/"}}});
  fetcher_.add("/b", {{}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 4u);
  ASSERT_EQ(result.broken.size(), 1u);
  EXPECT_EQ(result.broken[0].url, site + "/c");
  EXPECT_EQ(result.broken[0].referrers, std::vector{site + "/a"});
  for (const auto* path : {"/", "/a", "/b", "/c"})
    EXPECT_EQ(fetcher_.requests_for(path).size(), 1u) << path;
  EXPECT_EQ(result.elapsed.count(), 0);  // nothing waited
  EXPECT_FALSE(result.interrupted || result.timed_out || result.failure);
  EXPECT_TRUE(result.unchecked.empty());
}

// A server nearby sends pages faster than they are parsed. Once the bodies announced by the
// fetches under way pass 2 MiB, no request starts until they are down to 1 MiB (two pages of
// 400 KiB here): requests come in bursts, each begun when at most two pages are under way.
TEST_F(CrawlerTest, NoRequestStartsWhileTheBodiesUnderWayAreTooMany) {
  options_.max_tasks = 16;
  options_.max_per_host = 16;
  std::vector<std::string> pages;
  for (int i = 0; i < 48; ++i) {
    pages.push_back("/p" + std::to_string(i));
    fetcher_.add(pages.back(),
                 {{.takes = std::chrono::milliseconds(1 + i % 7), .announced = 400 * 1024}});
  }
  fetcher_.add("/", {{.links = pages}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 49u);
  EXPECT_TRUE(result.broken.empty());
  const auto& arrivals = fetcher_.arrivals();  // /robots.txt, /, then the pages
  ASSERT_EQ(arrivals.size(), 50u);
  EXPECT_EQ(fetcher_.peak_in_flight(), 16);  // the first burst: its bodies were not announced
  int bursts = 0;
  for (std::size_t i = 3; i < arrivals.size(); ++i) {
    if (arrivals[i].when == arrivals[i - 1].when) continue;  // the same burst
    ++bursts;
    EXPECT_LE(arrivals[i].under_way, 2) << "request " << i;
  }
  EXPECT_GE(bursts, 2);
}

TEST_F(CrawlerTest, NetworkErrorsAreRetriedAfterGrowingBackOffs) {
  const answer refused{.network_error = asio::error::connection_refused};
  fetcher_.add("/", {{.links = {"/flaky"}}});
  fetcher_.add("/flaky", {refused, refused, {}});
  const auto result = crawl();
  ASSERT_TRUE(find(result, "/flaky"));
  EXPECT_EQ(find(result, "/flaky")->status, 200u);
  EXPECT_EQ(find(result, "/flaky")->tries, 3);
  const auto times = fetcher_.requests_for("/flaky");
  ASSERT_EQ(times.size(), 3u);
  // Each wait is between half the nominal delay (250 ms, then 500 ms) and all of it.
  EXPECT_GE(times[1] - times[0], 125ms);
  EXPECT_LE(times[1] - times[0], 250ms);
  EXPECT_GE(times[2] - times[1], 250ms);
  EXPECT_LE(times[2] - times[1], 500ms);
}

TEST_F(CrawlerTest, NetworkErrorsEndAfterMaxTries) {
  options_.max_tries = 2;
  fetcher_.add("/", {{.network_error = asio::error::connection_reset}});
  const auto result = crawl();
  ASSERT_TRUE(find(result, "/"));
  EXPECT_EQ(find(result, "/")->tries, 2);
  EXPECT_FALSE(find(result, "/")->status);
  EXPECT_EQ(fetcher_.requests_for("/").size(), 2u);
}

TEST_F(CrawlerTest, A503WithRetryAfterBacksOffTheWholeOrigin) {
  options_.max_per_host = 1;  // "/busy" is asked before "/other"
  fetcher_.add("/", {{.links = {"/busy", "/other"}}});
  fetcher_.add("/busy", {{.status = 503, .retry_after = "3"}, {}});
  fetcher_.add("/other", {{}});
  const auto result = crawl();
  EXPECT_EQ(find(result, "/busy")->status, 200u);
  EXPECT_EQ(find(result, "/busy")->tries, 2);
  const auto busy = fetcher_.requests_for("/busy");
  ASSERT_EQ(busy.size(), 2u);
  EXPECT_EQ(busy[1] - busy[0], 3s);
  // The origin was left alone for those 3 s: "/other" waited too.
  ASSERT_EQ(fetcher_.requests_for("/other").size(), 1u);
  EXPECT_GE(fetcher_.requests_for("/other")[0] - busy[0], 3s);
}

TEST_F(CrawlerTest, A429ToTheLastTryIsLeftRateLimited) {
  fetcher_.add("/", {{.links = {"/limited"}}});
  fetcher_.add("/limited", {{.status = 429, .retry_after = "2"}});
  const auto result = crawl();
  EXPECT_EQ(find(result, "/limited")->status, 429u);
  EXPECT_EQ(find(result, "/limited")->tries, options_.max_tries);
  ASSERT_EQ(result.rate_limited.size(), 1u);
  EXPECT_EQ(result.rate_limited[0].url, site + "/limited");
  EXPECT_EQ(result.rate_limited[0].referrers, std::vector{site + "/"});
  EXPECT_TRUE(result.broken.empty());
  EXPECT_EQ(result.elapsed, 2s * (options_.max_tries - 1));
}

TEST_F(CrawlerTest, RedirectsAreRecordedAndTheirTargetsFetched) {
  fetcher_.add("/", {{.links = {"/old", "/older"}}});
  fetcher_.add("/older", {{.status = 301, .location = "/old"}});
  fetcher_.add("/old", {{.status = 302, .location = "/new"}});
  fetcher_.add("/new", {{}});
  const auto result = crawl();
  EXPECT_EQ(find(result, "/old")->next_url, site + "/new");
  EXPECT_EQ(find(result, "/older")->next_url, site + "/old");
  EXPECT_EQ(find(result, "/new")->status, 200u);
  for (const auto* path : {"/old", "/older", "/new"})  // chains that meet: fetched once
    EXPECT_EQ(fetcher_.requests_for(path).size(), 1u) << path;
  EXPECT_TRUE(result.broken.empty());
}

TEST_F(CrawlerTest, RedirectLoopsAndTheRedirectLimitAreBroken) {
  options_.max_redirect = 1;
  fetcher_.add("/", {{.links = {"/x", "/r1"}}});
  fetcher_.add("/x", {{.status = 302, .location = "/y"}});
  fetcher_.add("/y", {{.status = 302, .location = "/x"}});
  fetcher_.add("/r1", {{.status = 302, .location = "/r2"}});
  fetcher_.add("/r2", {{.status = 302, .location = "/r3"}});
  const auto result = crawl();
  EXPECT_EQ(find(result, "/y")->error, "redirect loop");
  EXPECT_EQ(fetcher_.requests_for("/x").size(), 1u);
  EXPECT_EQ(find(result, "/r2")->error, "redirect limit reached");
  EXPECT_TRUE(fetcher_.requests_for("/r3").empty());
}

TEST_F(CrawlerTest, MaxDepthBoundsTheLinksFollowed) {
  options_.max_depth = 1;
  fetcher_.add("/", {{.links = {"/1"}}});
  fetcher_.add("/1", {{.links = {"/2"}}});
  fetcher_.add("/2", {{}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 2u);
  EXPECT_EQ(find(result, "/1")->num_urls, 1u);
  EXPECT_EQ(find(result, "/1")->num_new_urls, 0u);
  EXPECT_TRUE(fetcher_.requests_for("/2").empty());
}

TEST_F(CrawlerTest, MaxUrlsLeavesTheRestUnchecked) {
  options_.max_urls = 2;
  fetcher_.add("/", {{.links = {"/a", "/b", "/c"}}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 2u);
  ASSERT_EQ(result.unchecked.size(), 2u);
  EXPECT_EQ(result.unchecked[0].url, site + "/b");
  EXPECT_EQ(result.unchecked[1].url, site + "/c");
  EXPECT_EQ(result.unchecked[0].referrer, site + "/");
}

TEST_F(CrawlerTest, RateLimitSpacesTheRequestsToAnOrigin) {
  options_.rate_limit = 2;
  fetcher_.add("/", {{.links = {"/1", "/2", "/3", "/4"}}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 5u);
  std::vector<time_point> times;
  for (const auto* path : {"/", "/1", "/2", "/3", "/4"})
    times.push_back(fetcher_.requests_for(path).at(0));
  std::sort(times.begin(), times.end());
  for (std::size_t i = 1; i < times.size(); ++i)
    EXPECT_EQ(times[i] - times[i - 1], 500ms) << i;
}

TEST_F(CrawlerTest, MaxPerHostBoundsTheRequestsUnderWay) {
  options_.max_tasks = 8;
  options_.max_per_host = 2;
  std::vector<std::string> links;
  for (int i = 0; i < 6; ++i)
    links.push_back("/" + std::to_string(i));
  fetcher_.add("/", {{.links = links}});
  for (const auto& link : links)
    fetcher_.add(link, {{.takes = 1s}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 7u);
  EXPECT_EQ(fetcher_.peak_in_flight(), 2);
  EXPECT_EQ(result.elapsed, 3s);  // six pages, two at a time
}

}  // namespace
}  // namespace corocrawl
