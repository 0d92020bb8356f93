#pragma once
// The frontier as the crawl's work queue, in the shape of Python's asyncio.Queue: workers
// `co_await pop()` the next URL, `push()` the URLs they find, call `task_done()` when one is
// processed, and the crawl `co_await join()`s until every URL pushed is done.
//
// Politeness is inside: pop() waits until an item's origin may be asked (max_per_host,
// rate_limit, back-offs) and until an item pushed for later comes due, reading time from a
// crawl_clock. push() never waits (workers are producers too). Waiting pops are served in
// turn: an item that becomes ready goes straight to the longest-waiting pop, so no wake-up is
// lost and none is wasted. One thread (the executor's) uses it; it needs no locks.

#include <boost/asio/awaitable.hpp>
#include <cstddef>
#include <deque>
#include <optional>
#include <string_view>
#include <vector>

#include "frontier/crawl_clock.hpp"
#include "frontier/frontier.hpp"

namespace corocrawl {

class awaitable_frontier {
 public:
  using item = frontier::item;
  using origin_id = frontier::origin_id;
  using time_point = crawl_clock::time_point;

  /// `rate_limit` is in requests per second to one origin; 0 means unlimited.
  awaitable_frontier(crawl_clock& clock, int max_per_host, double rate_limit);
  awaitable_frontier(const awaitable_frontier&) = delete;
  awaitable_frontier& operator=(const awaitable_frontier&) = delete;

  /// The id of an origin such as "https://example.com:443", made on first use.
  origin_id origin(std::string_view key) { return book_.origin(key); }

  /// Queues `it` behind its origin's items; it counts as unfinished until its task_done().
  void push(item it);

  /// As push(), but `it` is not handed out before `when`.
  void push_at(item it, time_point when);

  /// No request goes to `origin` before `until` (an earlier `until` changes nothing).
  void back_off(origin_id origin, time_point until);

  /// The next item that politeness allows, waiting as long as that takes; its origin's slot
  /// is held until task_done(). nullopt once the frontier is closed. Cancelling the awaiting
  /// coroutine ends the wait: pop() returns nullopt, or throws system_error(operation_aborted)
  /// where Asio's throw_if_cancelled (on by default) has its next co_await throw; either way
  /// no item is lost (one handed to it as it was cancelled is queued again). An item of
  /// `preferred`, when one may be asked at once, comes first (see frontier::pop).
  boost::asio::awaitable<std::optional<item>> pop(std::optional<origin_id> preferred = {});

  /// `it`, from pop(), is processed (items it led to are pushed first): its origin's slot is
  /// free again and one item fewer is unfinished.
  void task_done(const item& it);

  /// Work other than items (reading sitemaps, which push items) counts as one unfinished
  /// item from begin_work() to its end_work(), so that join() waits for it too.
  void begin_work() { ++unfinished_; }
  void end_work();

  /// Waits until no item pushed is unfinished, or the frontier is closed; when cancelled,
  /// returns (or throws operation_aborted, as pop()) at once.
  boost::asio::awaitable<void> join();

  /// Ends the work: pop() and join() return, at once and from now on. Items still queued
  /// stay where they are.
  void close();

  /// While paused, pop() hands out no item: pops wait (and do not watch the clock) until
  /// resume(). Whoever pauses must resume, or join() may never return.
  void pause() { paused_ = true; }
  void resume();
  bool paused() const { return paused_; }

  /// Items queued or waiting for their time, now and at most so far.
  std::size_t size() const { return book_.size(); }
  std::size_t peak() const { return peak_; }

 private:
  struct waiter;

  void counted(std::size_t queued);
  void dispatch(const waiter* caller);
  void leave(waiter& w);
  void give_back(const item& it);

  crawl_clock& clock_;
  frontier book_;
  std::deque<waiter*> poppers_;  // in the order they came
  std::vector<waiter*> joiners_;
  // When poppers_.front() waits for the frontier to become ready by time alone; nullopt while
  // it waits to be woken instead. Only the front pop watches the clock.
  std::optional<time_point> timed_until_;
  std::size_t unfinished_ = 0;  // the join counter
  std::size_t peak_ = 0;
  bool closed_ = false;
  bool paused_ = false;
};

}  // namespace corocrawl
