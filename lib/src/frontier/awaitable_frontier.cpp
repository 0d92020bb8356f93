#include "frontier/awaitable_frontier.hpp"

#include <algorithm>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/this_coro.hpp>
#include <utility>

#include "sys/use_tuple.hpp"

namespace corocrawl {

namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;
using boost::system::error_code;

namespace {

// Whether the awaiting coroutine was cancelled.
asio::awaitable<bool> cancelled() {
  const auto state = co_await asio::this_coro::cancellation_state;
  co_return state.cancelled() != asio::cancellation_type::none;
}

}  // namespace

// A pop() or join() waiting. `wake` holds at most one wake-up, so one sent while the waiter is
// not yet suspended is kept rather than lost; a waiter that wakes with nothing to do looks
// again and waits again. It is listed in its frontier for exactly as long as it lives, so that
// however its wait ends (an item, close(), cancellation, or the exception Asio throws when a
// cancelled coroutine awaits again), no wake-up and no item is ever sent to a dead waiter.
struct awaitable_frontier::waiter {
  enum class kind { pop, join };

  waiter(awaitable_frontier& frontier, kind k, const asio::any_io_executor& executor)
      : owner(frontier), role(k), wake(executor, 1) {
    if (role == kind::pop) {
      owner.poppers_.push_back(this);
    } else {
      owner.joiners_.push_back(this);
    }
  }
  waiter(const waiter&) = delete;
  waiter& operator=(const waiter&) = delete;
  ~waiter() {
    if (role == kind::join) {
      std::erase(owner.joiners_, this);
    } else if (got) {
      owner.give_back(*got);  // handed an item, but its pop() never returned it
    } else {
      owner.leave(*this);
    }
  }

  void notify() { wake.try_send(error_code{}); }  // false when one is already held: enough

  awaitable_frontier& owner;
  kind role;
  asio::experimental::channel<void(error_code)> wake;
  std::optional<item> got;  // the item handed to this pop
};

awaitable_frontier::awaitable_frontier(crawl_clock& clock, int max_per_host, double rate_limit)
    : clock_(clock), book_(max_per_host, rate_limit) {}

void awaitable_frontier::push(item it) {
  book_.push(it);
  counted(book_.size());
  dispatch(nullptr);
}

void awaitable_frontier::push_at(item it, time_point when) {
  book_.push_at(it, when);
  counted(book_.size());
  dispatch(nullptr);
}

void awaitable_frontier::counted(std::size_t queued) {
  ++unfinished_;
  peak_ = std::max(peak_, queued);
}

void awaitable_frontier::back_off(origin_id origin, time_point until) {
  book_.back_off(origin, until);
  dispatch(nullptr);
}

void awaitable_frontier::task_done(const item& it) {
  book_.release(it.origin);
  end_work();
}

void awaitable_frontier::end_work() {
  if (--unfinished_ == 0)
    for (auto* joiner : joiners_)
      joiner->notify();
  dispatch(nullptr);
}

void awaitable_frontier::resume() {
  paused_ = false;
  dispatch(nullptr);
}

void awaitable_frontier::close() {
  closed_ = true;
  for (auto* popper : poppers_)
    popper->notify();
  for (auto* joiner : joiners_)
    joiner->notify();
}

// Hands the items that politeness allows to the waiting pops in turn; then, when time alone
// would make another item ready sooner than the front pop watches for, wakes that pop (unless
// it is `caller`, which looks for itself) to watch for it.
void awaitable_frontier::dispatch(const waiter* caller) {
  if (poppers_.empty() || closed_ || paused_) return;
  const auto now = clock_.now();
  while (!poppers_.empty()) {
    auto it = book_.pop(now);
    if (!it) break;
    auto* next = poppers_.front();
    poppers_.pop_front();
    timed_until_.reset();
    next->got = *it;
    next->notify();
  }
  if (poppers_.empty() || poppers_.front() == caller) return;
  const auto ready = book_.next_ready();
  if (ready && (!timed_until_ || *ready < *timed_until_)) poppers_.front()->notify();
}

void awaitable_frontier::give_back(const item& it) {
  book_.release(it.origin);
  book_.push(it);
  dispatch(nullptr);
}

void awaitable_frontier::leave(waiter& w) {
  const auto place = std::find(poppers_.begin(), poppers_.end(), &w);
  if (place == poppers_.end()) return;
  const bool front = place == poppers_.begin();
  poppers_.erase(place);
  if (front) {
    timed_until_.reset();
    dispatch(nullptr);  // the next pop watches the clock
  }
}

asio::awaitable<std::optional<awaitable_frontier::item>> awaitable_frontier::pop(
    std::optional<origin_id> preferred) {
  if (closed_) co_return std::nullopt;
  if (poppers_.empty() && !paused_)
    if (auto it = book_.pop(clock_.now(), preferred)) co_return it;

  waiter self(*this, waiter::kind::pop, co_await asio::this_coro::executor);
  while (!self.got && !closed_) {
    // The front pop also wakes when time alone makes an item ready.
    const bool front = poppers_.front() == &self;
    const auto until = front && !paused_ ? book_.next_ready() : std::nullopt;
    if (front) timed_until_ = until;
    if (until) {
      co_await (self.wake.async_receive(use_tuple) || clock_.wait_until(*until));
    } else {
      co_await self.wake.async_receive(use_tuple);
    }
    if (self.got) break;
    const bool gave_up = co_await cancelled();
    if (gave_up) break;
    if (poppers_.front() == &self) {
      timed_until_.reset();
      dispatch(&self);
    }
  }
  co_return std::exchange(self.got, std::nullopt);  // self leaves the queue of pops as it goes
}

asio::awaitable<void> awaitable_frontier::join() {
  if (closed_ || unfinished_ == 0) co_return;
  waiter self(*this, waiter::kind::join, co_await asio::this_coro::executor);
  while (!closed_ && unfinished_ > 0) {
    co_await self.wake.async_receive(use_tuple);
    const bool gave_up = co_await cancelled();
    if (gave_up) break;
  }
}

}  // namespace corocrawl
