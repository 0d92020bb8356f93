#pragma once
// Virtual time for tests: now() stands still until advance() moves it to the earliest wait.
// A test's loop calls advance() whenever its io_context has nothing else to run, so a crawl
// that waits minutes runs in microseconds, and every wait is exact.

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <map>

#include "frontier/crawl_clock.hpp"

namespace corocrawl::testing {

// Virtual time: waits complete when advance() moves time to them.
class manual_clock final : public crawl_clock {
 public:
  time_point now() const override { return now_; }

  boost::asio::awaitable<bool> wait_until(time_point when) override {
    if (when <= now_) co_return true;
    boost::asio::experimental::channel<void(boost::system::error_code)> wake(
        co_await boost::asio::this_coro::executor, 1);
    const auto place = waits_.emplace(when, &wake);
    const auto [ec] =
        co_await wake.async_receive(boost::asio::as_tuple(boost::asio::use_awaitable));
    if (ec) waits_.erase(place);  // cancelled: still registered
    co_return !ec;
  }

  /// Moves time to the earliest wait and wakes every wait due then; false when none waits.
  bool advance() {
    if (waits_.empty()) return false;
    now_ = waits_.begin()->first;
    while (!waits_.empty() && waits_.begin()->first <= now_) {
      waits_.begin()->second->try_send(boost::system::error_code{});
      waits_.erase(waits_.begin());
    }
    return true;
  }

  const time_point start{std::chrono::hours(1)};

 private:
  time_point now_ = start;
  std::multimap<time_point, boost::asio::experimental::channel<void(boost::system::error_code)>*>
      waits_;
};

}  // namespace corocrawl::testing
