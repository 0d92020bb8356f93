// The awaitable frontier's waiting, in virtual time: who gets an item, when, and what close()
// wakes. The bookkeeping under it is tested in frontier_test.cpp.
#include "frontier/awaitable_frontier.hpp"

#include <gtest/gtest.h>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <vector>

#include "manual_clock.hpp"

namespace corocrawl {
namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using testing::manual_clock;

class AwaitableFrontierTest : public ::testing::Test {
 protected:
  /// Runs the io_context, moving virtual time on whenever it has nothing else to run.
  void run() {
    for (;;) {
      io_.restart();
      if (io_.poll() > 0) continue;
      if (!clock_.advance()) return;
    }
  }

  /// Pops one item into `got` (the url; -1 for nullopt), in the background.
  void pop_into(std::vector<int>& got) { pop_into(frontier_, got, asio::detached); }

  /// Pops one item of `frontier` into `got`; `done` is the coroutine's completion token.
  template <typename Token>
  void pop_into(awaitable_frontier& frontier, std::vector<int>& got, Token done) {
    asio::co_spawn(
        io_,
        [](awaitable_frontier& f, std::vector<int>& out) -> asio::awaitable<void> {
          const auto it = co_await f.pop();
          out.push_back(it ? static_cast<int>(it->url) : -1);
        }(frontier, got),
        std::move(done));
  }

  void poll() {
    io_.restart();
    io_.poll();
  }

  awaitable_frontier::item item_for(std::uint32_t url) {
    return {.url = url, .redirects_left = 0, .tries = 0, .origin = frontier_.origin("http://a:80")};
  }

  asio::io_context io_{1};
  manual_clock clock_;
  awaitable_frontier frontier_{clock_, 1, 0};
};

TEST_F(AwaitableFrontierTest, WaitingPopsAreServedInTheOrderTheyCame) {
  std::vector<int> first;
  std::vector<int> second;
  pop_into(first);
  pop_into(second);
  run();
  EXPECT_TRUE(first.empty() && second.empty());
  frontier_.push(item_for(7));
  frontier_.push(item_for(8));
  run();
  EXPECT_EQ(first, std::vector{7});
  EXPECT_TRUE(second.empty());  // max_per_host 1: the second waits for the slot
  frontier_.task_done(item_for(7));
  run();
  EXPECT_EQ(second, std::vector{8});
}

TEST_F(AwaitableFrontierTest, AnItemPushedForLaterComesAtItsTime) {
  std::vector<int> got;
  pop_into(got);
  frontier_.push_at(item_for(1), clock_.start + 5s);
  run();
  EXPECT_EQ(got, std::vector{1});
  EXPECT_EQ(clock_.now(), clock_.start + 5s);
}

// The crawl pauses the frontier while it holds too many bodies: no pop gets an item, not even
// one that comes due meanwhile, and none watches the clock, until resume() serves them.
TEST_F(AwaitableFrontierTest, APausedFrontierHandsOutNothingUntilResumed) {
  awaitable_frontier frontier{clock_, 4, 0};
  const auto origin = frontier.origin("http://a:80");
  const auto item = [&](std::uint32_t url) {
    return awaitable_frontier::item{.url = url, .redirects_left = 0, .tries = 0, .origin = origin};
  };
  std::vector<int> got;
  frontier.pause();
  frontier.push(item(1));
  frontier.push_at(item(2), clock_.start + 5s);
  pop_into(frontier, got, asio::detached);  // the queue is not empty, and no pop waits
  pop_into(frontier, got, asio::detached);
  run();
  EXPECT_TRUE(got.empty());
  EXPECT_EQ(clock_.now(), clock_.start);  // nothing waited for item 2's time
  EXPECT_TRUE(frontier.paused());
  frontier.resume();
  run();
  EXPECT_EQ(got, (std::vector{1, 2}));
  EXPECT_EQ(clock_.now(), clock_.start + 5s);
}

TEST_F(AwaitableFrontierTest, CloseWakesPopsAndJoin) {
  std::vector<int> got;
  bool joined = false;
  frontier_.push(item_for(1));
  pop_into(got);
  pop_into(got);
  asio::co_spawn(
      io_,
      [](awaitable_frontier& f, bool& done) -> asio::awaitable<void> {
        co_await f.join();
        done = true;
      }(frontier_, joined),
      asio::detached);
  run();
  EXPECT_EQ(got, std::vector{1});
  EXPECT_FALSE(joined);  // item 1 is not done
  frontier_.close();
  run();
  EXPECT_EQ(got, (std::vector{1, -1}));
  EXPECT_TRUE(joined);
}

// A pop cancelled while it waits leaves the frontier (it threw or returned nullopt): what is
// pushed afterwards goes to the pops still waiting, and close() wakes only those.
TEST_F(AwaitableFrontierTest, ACancelledPopLeavesTheQueueOfPops) {
  for (const bool timed : {false, true}) {
    SCOPED_TRACE(timed ? "watching the clock" : "waiting to be woken");
    awaitable_frontier frontier{clock_, 1, 0};
    ASSERT_EQ(frontier.origin("http://a:80"), item_for(0).origin);
    std::vector<int> cancelled;
    std::vector<int> waiting;
    asio::cancellation_signal cancel;
    bool ended = false;
    // The first pop is the one that watches the clock when an item waits for its time.
    if (timed) frontier.push_at(item_for(9), clock_.now() + 1h);
    pop_into(frontier, cancelled,
             asio::bind_cancellation_slot(cancel.slot(),
                                          [&ended](std::exception_ptr) { ended = true; }));
    pop_into(frontier, waiting, asio::detached);
    poll();
    cancel.emit(asio::cancellation_type::terminal);
    poll();
    ASSERT_TRUE(ended);
    EXPECT_TRUE(cancelled.empty() || cancelled == std::vector{-1});
    frontier.push(item_for(3));
    poll();
    EXPECT_EQ(waiting, std::vector{3});  // not handed to the pop that left
    frontier.close();
    poll();
    EXPECT_TRUE(cancelled.empty() || cancelled == std::vector{-1});
  }
}

}  // namespace
}  // namespace corocrawl
