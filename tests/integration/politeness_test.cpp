// Politeness observed at real servers: per-host concurrency, rate limits, Retry-After.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <ctime>

#include "corocrawl/crawl.hpp"
#include "crawl_helpers.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

using namespace std::chrono_literals;
using testing::find_record;
using testing::options_for;
using testing::reply;
using testing::request;
using testing::response;
using testing::test_server;

/// Arrival times of the requests for `path`.
std::vector<std::chrono::steady_clock::time_point> arrivals(const test_server& server,
                                                            const std::string& path) {
  std::vector<std::chrono::steady_clock::time_point> times;
  for (const auto& r : server.requests())
    if (r.target == path) times.push_back(r.received_at);
  return times;
}

/// Serves `count` pages "/0".."/N" that each take `delay`, and "/" linking to them.
void add_slow_pages(test_server& server, int count, std::chrono::milliseconds delay) {
  std::vector<std::string> links;
  for (int i = 0; i < count; ++i) {
    links.push_back("/" + std::to_string(i));
    server.add_handler(links.back(), [delay](const request&) -> boost::asio::awaitable<reply> {
      co_await testing::sleep_for(delay);
      co_return response{200, "text/plain", "ok"};
    });
  }
  server.add_page("/", links);
}

TEST(Politeness, ConnectionsToOneHostNeverExceedMaxPerHost) {
  test_server server;
  add_slow_pages(server, 10, 100ms);
  auto options = options_for({server.url("/")});
  options.max_tasks = 10;
  options.max_per_host = 2;
  const auto result = run_crawl(options);
  EXPECT_EQ(result.records.size(), 11u);
  EXPECT_EQ(server.peak_connections(), 2u);
}

TEST(Politeness, OtherHostsKeepGoingWhileOneIsAtItsCap) {
  test_server slow;
  test_server fast;
  add_slow_pages(slow, 4, 300ms);
  std::vector<std::string> fast_links;
  for (int i = 0; i < 6; ++i)
    fast_links.push_back(fast.add_page("/" + std::to_string(i)));
  fast.add_page("/", fast_links);
  auto options = options_for({slow.url("/"), fast.url("/")});
  options.max_tasks = 4;
  options.max_per_host = 1;
  const auto result = run_crawl(options);
  EXPECT_EQ(result.records.size(), 12u);
  EXPECT_EQ(slow.peak_connections(), 1u);
  // The slow host's four pages take 1.2 s one at a time; the fast host is done long before.
  EXPECT_LT(arrivals(fast, "/5").at(0), arrivals(slow, "/2").at(0));
}

TEST(Politeness, RateLimitSpacesRequestsAtTheServer) {
  test_server server;
  std::vector<std::string> links;
  for (int i = 0; i < 5; ++i)
    links.push_back(server.add_page("/" + std::to_string(i)));
  server.add_page("/", links);
  auto options = options_for({server.url("/")});
  options.rate_limit = 10;  // one request every 100 ms
  const auto result = run_crawl(options);
  EXPECT_EQ(result.records.size(), 6u);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 6u);
  for (std::size_t i = 1; i < requests.size(); ++i) {
    EXPECT_GE(requests[i].received_at - requests[i - 1].received_at, 90ms) << i;
  }
}

TEST(Politeness, RetryAfterSecondsIsHonoured) {
  test_server server;
  std::atomic<int> calls = 0;
  server.add_handler("/", [&](const request&) -> boost::asio::awaitable<reply> {
    if (++calls == 1) co_return response{429, "text/plain", "slow down", {{"Retry-After", "1"}}};
    co_return response{200, "text/html", "<a href=/next>next</a>"};
  });
  server.add_page("/next");
  const auto result = run_crawl(options_for({server.url("/")}));
  const auto root = find_record(result, server.url("/"));
  ASSERT_TRUE(root);
  EXPECT_EQ(root->status, 200u);
  EXPECT_EQ(root->tries, 2);
  EXPECT_TRUE(passed(result));
  EXPECT_TRUE(result.rate_limited.empty());
  const auto times = arrivals(server, "/");
  ASSERT_EQ(times.size(), 2u);
  EXPECT_GE(times[1] - times[0], 1s);
  EXPECT_GE(result.elapsed, 1s);
}

std::string http_date(std::chrono::system_clock::time_point when) {
  const std::time_t t = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[64];
  std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &utc);
  return text;
}

TEST(Politeness, RetryAfterHttpDateIsHonoured) {
  test_server server;
  std::atomic<int> calls = 0;
  server.add_handler("/", [&](const request&) -> boost::asio::awaitable<reply> {
    if (++calls == 1) {
      const auto later = http_date(std::chrono::system_clock::now() + 2s);
      co_return response{503, "text/plain", "", {{"Retry-After", later}}};
    }
    co_return response{200, "text/html", ""};
  });
  const auto result = run_crawl(options_for({server.url("/")}));
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].status, 200u);
  const auto times = arrivals(server, "/");
  ASSERT_EQ(times.size(), 2u);
  EXPECT_GE(times[1] - times[0], 1s);  // HTTP dates have whole seconds
}

TEST(Politeness, OtherHostsContinueWhileOneBacksOff) {
  test_server limited;
  test_server other;
  std::atomic<int> calls = 0;
  limited.add_handler("/", [&](const request&) -> boost::asio::awaitable<reply> {
    if (++calls == 1) co_return response{429, "text/plain", "", {{"Retry-After", "2"}}};
    co_return response{200, "text/html", ""};
  });
  std::vector<std::string> links;
  for (int i = 0; i < 4; ++i)
    links.push_back(other.add_page("/" + std::to_string(i)));
  other.add_page("/", links);
  const auto result = run_crawl(options_for({limited.url("/"), other.url("/")}));
  EXPECT_TRUE(passed(result));
  const auto retried = arrivals(limited, "/").at(1);
  for (const auto& r : other.requests())
    EXPECT_LT(r.received_at, retried) << r.target;
}

TEST(Politeness, StillRateLimitedAtTheEndIsReportedApart) {
  test_server server;
  server.add_page("/", {"/busy", "/ok"});
  server.add_page("/ok");
  server.add_handler("/busy", [](const request&) -> boost::asio::awaitable<reply> {
    co_return response{429, "text/plain", "", {{"Retry-After", "0"}}};
  });
  auto options = options_for({server.url("/")});
  options.max_tries = 3;
  const auto result = run_crawl(options);
  EXPECT_EQ(server.requests_for("/busy"), 3u);
  const auto busy = find_record(result, server.url("/busy"));
  ASSERT_TRUE(busy);
  EXPECT_EQ(busy->status, 429u);
  EXPECT_EQ(busy->tries, 3);
  EXPECT_TRUE(result.broken.empty());
  ASSERT_EQ(result.rate_limited.size(), 1u);
  EXPECT_EQ(result.rate_limited[0].url, server.url("/busy"));
  EXPECT_EQ(result.rate_limited[0].referrers, std::vector{server.url("/")});
  EXPECT_TRUE(passed(result));
  EXPECT_FALSE(passed(result, /*fail_on_rate_limit=*/true));
}

TEST(Politeness, RetryAfterIsCappedByMaxRetryWait) {
  test_server server;
  std::atomic<int> calls = 0;
  server.add_handler("/", [&](const request&) -> boost::asio::awaitable<reply> {
    if (++calls == 1) co_return response{429, "text/plain", "", {{"Retry-After", "3600"}}};
    co_return response{200, "text/html", ""};
  });
  auto options = options_for({server.url("/")});
  options.max_retry_wait = 200ms;
  const auto result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].status, 200u);
  const auto times = arrivals(server, "/");
  ASSERT_EQ(times.size(), 2u);
  EXPECT_GE(times[1] - times[0], 200ms);
  EXPECT_LT(result.elapsed, 30s);  // not an hour
}

TEST(Politeness, A503WithoutRetryAfterIsNotRetried) {
  test_server server;
  server.add_handler("/", [](const request&) -> boost::asio::awaitable<reply> {
    co_return response{503, "text/plain", "down"};
  });
  const auto result = run_crawl(options_for({server.url("/")}));
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].status, 503u);
  EXPECT_EQ(result.records[0].tries, 1);
  EXPECT_EQ(result.broken.size(), 1u);
}

TEST(Politeness, NetworkRetriesAlsoKeepTheRateLimit) {
  test_server server;
  std::atomic<int> calls = 0;
  server.add_handler("/", [&](const request&) -> boost::asio::awaitable<reply> {
    if (++calls <= 2) co_return testing::misbehaviour::reset;
    co_return response{200, "text/html", ""};
  });
  auto options = options_for({server.url("/")});
  options.rate_limit = 5;  // one request every 200 ms
  const auto result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].tries, 3);
  const auto times = arrivals(server, "/");
  ASSERT_EQ(times.size(), 3u);
  EXPECT_GE(times[1] - times[0], 180ms);
  EXPECT_GE(times[2] - times[1], 180ms);
}

}  // namespace
}  // namespace corocrawl
