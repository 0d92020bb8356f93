// The frontier's rules, with a clock the test moves by hand.
#include "frontier/frontier.hpp"

#include <gtest/gtest.h>

namespace corocrawl {
namespace {

using namespace std::chrono_literals;
using clock = frontier::clock;

const clock::time_point t0{std::chrono::hours(1)};

frontier::item item_for(std::uint32_t url, frontier::origin_id origin) {
  return {.url = url, .redirects_left = 10, .tries = 0, .origin = origin};
}

TEST(Frontier, OneOriginIsFirstInFirstOut) {
  frontier f{16, 0};
  const auto a = f.origin("http://a:80");
  for (std::uint32_t url = 0; url < 3; ++url)
    f.push(item_for(url, a));
  EXPECT_EQ(f.size(), 3u);
  for (std::uint32_t url = 0; url < 3; ++url)
    EXPECT_EQ(f.pop(t0)->url, url);
  EXPECT_FALSE(f.pop(t0));
  EXPECT_TRUE(f.empty());
}

TEST(Frontier, OriginsAreInternedByKey) {
  frontier f{1, 0};
  EXPECT_EQ(f.origin("http://a:80"), f.origin("http://a:80"));
  EXPECT_NE(f.origin("http://a:80"), f.origin("https://a:443"));
  EXPECT_NE(f.origin("http://a:80"), f.origin("http://a:8080"));
}

TEST(Frontier, AtMostMaxPerHostRequestsAtOnce) {
  frontier f{2, 0};
  const auto a = f.origin("http://a:80");
  for (std::uint32_t url = 0; url < 4; ++url)
    f.push(item_for(url, a));
  EXPECT_TRUE(f.pop(t0));
  EXPECT_TRUE(f.pop(t0));
  EXPECT_FALSE(f.pop(t0));       // both slots taken
  EXPECT_FALSE(f.next_ready());  // time alone will not help
  f.release(a);
  EXPECT_EQ(f.pop(t0)->url, 2u);
  EXPECT_FALSE(f.pop(t0));
}

// A worker asks for the origin its idle connection is open to: it comes first while it may be
// asked, and the others' turns are kept for when it may not.
TEST(Frontier, APreferredOriginComesFirstWhileItMayBeAsked) {
  frontier f{2, 0};
  const auto a = f.origin("http://a:80");
  const auto b = f.origin("http://b:80");
  const auto c = f.origin("http://c:80");
  for (std::uint32_t url = 0; url < 3; ++url) {
    f.push(item_for(url, a));
    f.push(item_for(10 + url, b));
    f.push(item_for(20 + url, c));
  }
  EXPECT_EQ(f.pop(t0)->url, 0u);      // in turn: a
  EXPECT_EQ(f.pop(t0, c)->url, 20u);  // c preferred, though b's turn
  EXPECT_EQ(f.pop(t0, c)->url, 21u);  // again
  EXPECT_EQ(f.pop(t0, c)->url, 10u);  // c at its cap: b's turn, as before
  EXPECT_EQ(f.pop(t0, 99)->url, 1u);  // no such origin: in turn
  f.release(c);
  EXPECT_EQ(f.pop(t0, c)->url, 22u);
  EXPECT_EQ(f.pop(t0, c)->url, 11u);  // c has no more items
}

TEST(Frontier, ABusyOriginDoesNotHoldUpOthers) {
  frontier f{1, 0};
  const auto a = f.origin("http://a:80");
  const auto b = f.origin("http://b:80");
  f.push(item_for(0, a));
  f.push(item_for(1, a));
  f.push(item_for(2, b));
  EXPECT_EQ(f.pop(t0)->url, 0u);
  EXPECT_EQ(f.pop(t0)->url, 2u);  // a is at its cap; b goes on
  EXPECT_FALSE(f.pop(t0));
}

TEST(Frontier, OriginsTakeTurns) {
  frontier f{16, 0};
  const auto a = f.origin("http://a:80");
  const auto b = f.origin("http://b:80");
  for (std::uint32_t url = 0; url < 3; ++url)
    f.push(item_for(url, a));
  for (std::uint32_t url = 10; url < 13; ++url)
    f.push(item_for(url, b));
  std::vector<std::uint32_t> order;
  while (auto next = f.pop(t0))
    order.push_back(next->url);
  EXPECT_EQ(order, (std::vector<std::uint32_t>{0, 10, 1, 11, 2, 12}));
}

TEST(Frontier, RateLimitSpacesRequestsToAnOrigin) {
  frontier f{16, 4};  // one request every 250 ms
  const auto a = f.origin("http://a:80");
  const auto b = f.origin("http://b:80");
  for (std::uint32_t url = 0; url < 3; ++url)
    f.push(item_for(url, a));
  f.push(item_for(10, b));
  EXPECT_EQ(f.pop(t0)->url, 0u);
  EXPECT_EQ(f.pop(t0)->url, 10u);  // another origin has its own budget
  EXPECT_FALSE(f.pop(t0));
  EXPECT_EQ(f.next_ready(), t0 + 250ms);
  EXPECT_FALSE(f.pop(t0 + 249ms));
  EXPECT_EQ(f.pop(t0 + 250ms)->url, 1u);
  EXPECT_FALSE(f.pop(t0 + 300ms));
  EXPECT_EQ(f.next_ready(), t0 + 500ms);
  EXPECT_EQ(f.pop(t0 + 600ms)->url, 2u);
}

TEST(Frontier, BackOffPausesOnlyThatOrigin) {
  frontier f{16, 0};
  const auto a = f.origin("http://a:80");
  const auto b = f.origin("http://b:80");
  f.back_off(a, t0 + 2s);
  f.back_off(a, t0 + 1s);  // an earlier end changes nothing
  f.push(item_for(0, a));
  f.push(item_for(1, b));
  EXPECT_EQ(f.pop(t0)->url, 1u);
  EXPECT_FALSE(f.pop(t0 + 1s));
  EXPECT_EQ(f.next_ready(), t0 + 2s);
  EXPECT_EQ(f.pop(t0 + 2s)->url, 0u);
}

TEST(Frontier, NextReadyIgnoresOriginsWithoutWorkOrSlots) {
  frontier f{1, 0};
  const auto a = f.origin("http://a:80");
  const auto b = f.origin("http://b:80");
  f.back_off(a, t0 + 5s);  // nothing queued for a
  EXPECT_FALSE(f.next_ready());
  f.push(item_for(0, b));
  f.push(item_for(1, b));
  ASSERT_TRUE(f.pop(t0));
  f.back_off(b, t0 + 3s);
  EXPECT_FALSE(f.next_ready());  // b's only slot is taken
  f.release(b);
  EXPECT_EQ(f.next_ready(), t0 + 3s);
}

TEST(Frontier, ItemsKeepTheirTries) {
  frontier f{1, 0};
  const auto a = f.origin("http://a:80");
  f.push({.url = 7, .redirects_left = 3, .tries = 2, .origin = a});
  const auto next = f.pop(t0);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->tries, 2);
  EXPECT_EQ(next->redirects_left, 3);
}

TEST(Frontier, AnItemPushedForLaterWaitsApartUntilDue) {
  frontier f{16, 0};
  const auto a = f.origin("http://a:80");
  f.push_at(item_for(0, a), t0 + 2s);
  f.push(item_for(1, a));
  EXPECT_EQ(f.size(), 2u);
  EXPECT_EQ(f.pop(t0)->url, 1u);  // the other items of its origin do not wait
  EXPECT_FALSE(f.pop(t0 + 1s));
  EXPECT_EQ(f.next_ready(), t0 + 2s);
  EXPECT_EQ(f.pop(t0 + 2s)->url, 0u);
  EXPECT_TRUE(f.empty());
  EXPECT_FALSE(f.next_ready());
}

TEST(Frontier, ItemsWaitingApartComeDueInTimeOrder) {
  frontier f{16, 0};
  const auto a = f.origin("http://a:80");
  const auto b = f.origin("http://b:80");
  f.push_at(item_for(0, a), t0 + 3s);
  f.push_at(item_for(1, b), t0 + 1s);
  f.push_at(item_for(2, a), t0 + 2s);
  EXPECT_EQ(f.next_ready(), t0 + 1s);
  EXPECT_EQ(f.pop(t0 + 1s)->url, 1u);
  EXPECT_FALSE(f.pop(t0 + 1s));
  EXPECT_EQ(f.next_ready(), t0 + 2s);
  EXPECT_EQ(f.pop(t0 + 5s)->url, 2u);  // both due: queued in the order they came due
  EXPECT_EQ(f.pop(t0 + 5s)->url, 0u);
}

TEST(Frontier, AnItemComingDueStillKeepsItsOriginsRules) {
  frontier f{1, 0};
  const auto a = f.origin("http://a:80");
  f.push(item_for(0, a));
  f.push_at(item_for(1, a), t0 + 1s);
  EXPECT_EQ(f.pop(t0)->url, 0u);
  EXPECT_FALSE(f.pop(t0 + 1s));  // due, but a's one slot is taken
  EXPECT_FALSE(f.next_ready());  // and time alone will not free it
  f.release(a);
  EXPECT_EQ(f.pop(t0 + 1s)->url, 1u);
}

}  // namespace
}  // namespace corocrawl
