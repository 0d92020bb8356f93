#pragma once
// The crawl's time: what time it is, and waiting until a moment. The crawler, its frontier
// (rate limits, back-offs, retries) and its time limit read time only through this, so that a
// test can run a crawl in virtual time (see tests/unit/crawler_test.cpp).

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <chrono>

namespace corocrawl {

class crawl_clock {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  using duration = std::chrono::steady_clock::duration;

  virtual ~crawl_clock() = default;

  virtual time_point now() const = 0;

  /// Waits until `when` (at once when it has passed). Returns true when the time came, false
  /// when the wait was cancelled through the awaiting coroutine's cancellation slot.
  virtual boost::asio::awaitable<bool> wait_until(time_point when) = 0;
};

/// std::chrono::steady_clock, waited on with Asio timers.
class steady_crawl_clock final : public crawl_clock {
 public:
  time_point now() const override { return std::chrono::steady_clock::now(); }
  boost::asio::awaitable<bool> wait_until(time_point when) override;
};

}  // namespace corocrawl
