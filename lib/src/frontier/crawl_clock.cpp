#include "frontier/crawl_clock.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace corocrawl {

namespace asio = boost::asio;

asio::awaitable<bool> steady_crawl_clock::wait_until(time_point when) {
  asio::steady_timer timer(co_await asio::this_coro::executor, when);
  const auto [ec] = co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
  co_return !ec;
}

}  // namespace corocrawl
