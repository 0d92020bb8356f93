// When failed tries are tried again, without clocks or sockets.
#include "crawl/retry_policy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace corocrawl {
namespace {

using namespace std::chrono_literals;

const auto now = std::chrono::system_clock::time_point{} + std::chrono::hours(24 * 365 * 50);
const failed_try refused{.network = true, .retryable = true};

TEST(RetryPolicy, NetworkFailuresBackOffDoublingWithJitterUpToTheCap) {
  for (std::uint32_t seed = 1; seed <= 200; ++seed) {
    retry_policy policy(100, 60s, seed);
    for (int tries = 1; tries < 10; ++tries) {
      const auto plan = policy.after(tries, refused, now);
      ASSERT_TRUE(plan);
      EXPECT_FALSE(plan->whole_origin);
      const auto nominal = std::min(250ms * (1 << (tries - 1)), std::chrono::milliseconds(8s));
      EXPECT_GE(plan->delay, nominal / 2) << "try " << tries;
      EXPECT_LE(plan->delay, nominal) << "try " << tries;
    }
  }
}

TEST(RetryPolicy, JitterSpreadsTheDelays) {
  retry_policy policy(100, 60s, 7);
  std::set<std::chrono::milliseconds::rep> delays;
  for (int i = 0; i < 50; ++i)
    delays.insert(policy.after(3, refused, now)->delay.count());
  EXPECT_GT(delays.size(), 10u);
}

TEST(RetryPolicy, TheLastTryIsFinal) {
  retry_policy policy(4, 60s, 1);
  EXPECT_TRUE(policy.after(3, refused, now));
  EXPECT_FALSE(policy.after(4, refused, now));
  EXPECT_FALSE(retry_policy(1, 60s, 1).after(1, refused, now));
}

TEST(RetryPolicy, FailuresNotWorthAnotherTryAreFinal) {
  retry_policy policy(4, 60s, 1);
  EXPECT_FALSE(policy.after(1, {.network = true, .retryable = false}, now));  // dns, tls...
  EXPECT_FALSE(policy.after(1, {.status = 404}, now));
  EXPECT_FALSE(policy.after(1, {.status = 500}, now));
  EXPECT_FALSE(policy.after(1, {.status = 503}, now));  // without Retry-After
}

TEST(RetryPolicy, RateLimitsWaitForRetryAfterAndHoldTheOrigin) {
  retry_policy policy(4, 60s, 1);
  const auto asked = policy.after(1, {.status = 503, .retry_after = "7"}, now);
  ASSERT_TRUE(asked);
  EXPECT_EQ(asked->delay, 7s);
  EXPECT_TRUE(asked->whole_origin);
  EXPECT_EQ(policy.after(1, {.status = 429}, now)->delay, 1s);  // no Retry-After: 1, 2, 4...
  EXPECT_EQ(policy.after(3, {.status = 429}, now)->delay, 4s);
  EXPECT_EQ(policy.after(1, {.status = 429, .retry_after = "3600"}, now)->delay, 60s);  // capped
  EXPECT_FALSE(retry_policy(4, 0s, 1).after(1, {.status = 429}, now));  // max_retry_wait 0
}

}  // namespace
}  // namespace corocrawl
