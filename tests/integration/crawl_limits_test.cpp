// What a crawl leaves out, and says it left out: --max-urls, --max-time and a stop leave URLs
// unchecked (listed with the page that first linked to them); network failures are retried
// after a back-off.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <vector>

#include "corocrawl/crawl.hpp"
#include "crawl/retry_policy.hpp"
#include "crawl_helpers.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

using namespace std::chrono_literals;
using testing::misbehaviour;
using testing::options_for;
using testing::record;
using testing::reply;
using testing::request;
using testing::response;
using testing::test_server;

// "/" links to /p0 ... /p{n-1}.
std::vector<std::string> fan_out(test_server& server, int n) {
  std::vector<std::string> pages;
  for (int i = 0; i < n; ++i)
    pages.push_back("/p" + std::to_string(i));
  server.add_page("/", pages);
  for (const auto& page : pages)
    server.add_page(page);
  return pages;
}

TEST(CrawlLimits, MaxUrlsChecksThatManyAndListsTheRestUnchecked) {
  test_server server;
  fan_out(server, 10);
  auto options = options_for({server.url("/")});
  options.max_urls = 4;
  const auto result = run_crawl(options);
  EXPECT_EQ(result.records.size(), 4u);
  ASSERT_EQ(result.unchecked.size(), 7u);
  for (const auto& unchecked : result.unchecked) {
    EXPECT_EQ(unchecked.referrer, server.url("/"));
    EXPECT_EQ(server.requests_for(unchecked.url.substr(server.url("").size())), 0u);
  }
  EXPECT_TRUE(std::ranges::is_sorted(result.unchecked, {}, &unchecked_url::url));
  EXPECT_FALSE(passed(result));
  EXPECT_FALSE(result.timed_out);
  EXPECT_FALSE(result.interrupted);
}

TEST(CrawlLimits, MaxUrlsAboveWhatTheSiteHasChangesNothing) {
  test_server server;
  fan_out(server, 10);
  auto options = options_for({server.url("/")});
  options.max_urls = 11;
  const auto result = run_crawl(options);
  EXPECT_EQ(result.records.size(), 11u);
  EXPECT_TRUE(result.unchecked.empty());
  EXPECT_TRUE(passed(result));
}

TEST(CrawlLimits, MaxTimeListsTheUrlsItDidNotCheck) {
  test_server server;
  const auto pages = fan_out(server, 30);
  for (const auto& page : pages)
    server.add_handler(page, testing::never_answers());
  auto options = options_for({server.url("/")});
  options.max_tasks = 4;
  options.max_time = 500ms;
  const auto result = run_crawl(options);
  EXPECT_TRUE(result.timed_out);
  EXPECT_FALSE(passed(result));
  EXPECT_EQ(result.records.size(), 1u);     // only "/" answered
  ASSERT_EQ(result.unchecked.size(), 30u);  // 4 in flight, 26 queued
  EXPECT_EQ(result.unchecked[0].referrer, server.url("/"));
  EXPECT_GE(result.frontier_peak, 26u);
}

TEST(CrawlLimits, ARootInFlightWhenTheTimeRunsOutIsUnchecked) {
  test_server server;
  server.add_handler("/", testing::never_answers());
  auto options = options_for({server.url("/")});
  options.max_time = 300ms;
  const auto result = run_crawl(options);
  EXPECT_TRUE(result.records.empty());
  ASSERT_EQ(result.unchecked.size(), 1u);
  EXPECT_EQ(result.unchecked[0].url, server.url("/"));
  EXPECT_EQ(result.unchecked[0].referrer, std::nullopt);
  EXPECT_FALSE(passed(result));
}

TEST(CrawlLimits, NetworkFailuresAreRetriedAfterABackOff) {
  test_server server;
  std::atomic<int> tries = 0;
  server.add_handler("/", [&](const request&) -> boost::asio::awaitable<reply> {
    if (++tries <= 3) co_return misbehaviour::reset;
    co_return response{200, "text/html", ""};
  });
  auto options = options_for({server.url("/")});
  options.max_tries = 4;
  const auto result = run_crawl(options);
  EXPECT_EQ(record(result, server.url("/")).status, 200u);
  EXPECT_EQ(record(result, server.url("/")).tries, 4);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 4u);
  // Each wait is at least half its nominal delay: 250 ms, then 500 ms, then 1 s.
  for (std::size_t i = 1; i < requests.size(); ++i) {
    const auto nominal = retry_policy::network_base * (1 << (i - 1));
    EXPECT_GE(requests[i].received_at - requests[i - 1].received_at, nominal / 2) << "retry " << i;
  }
}

TEST(CrawlLimits, TheWaitOfOneUrlDoesNotHoldUpItsOrigin) {
  test_server server;
  std::atomic<int> tries = 0;
  server.add_page("/", {"/flaky", "/a", "/b"});
  server.add_handler("/flaky", [&](const request&) -> boost::asio::awaitable<reply> {
    if (++tries <= 2) co_return misbehaviour::reset;
    co_return response{200, "text/html", ""};
  });
  server.add_page("/a");
  server.add_page("/b");
  auto options = options_for({server.url("/")});
  options.max_tasks = 1;
  const auto result = run_crawl(options);
  EXPECT_TRUE(passed(result));
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 6u);
  EXPECT_EQ(requests.back().target, "/flaky");  // /a and /b went while it waited
}

}  // namespace
}  // namespace corocrawl
