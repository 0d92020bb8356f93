#pragma once
// Host names to addresses for the HTTP client: --resolve overrides first, IP literals as
// they are, else one DNS lookup per host:port and crawl, shared by every request that asks
// while it is under way. Runs on the client's executor.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "corocrawl/options.hpp"

namespace corocrawl {

class host_resolver {
 public:
  using endpoints = std::vector<boost::asio::ip::tcp::endpoint>;
  using deadline = std::chrono::steady_clock::time_point;

  host_resolver(boost::asio::any_io_executor executor, std::vector<resolve_override> fixed);

  /// The addresses of `host`:`port` in `out`, or the error: fetch_errc::bad_address for a
  /// --resolve address that is not an IP literal, a DNS error, or timed_out past `until`.
  /// An answer is kept for the crawl, but a time-out or a shortage of file descriptors (the
  /// process's trouble, not the host's) is asked again next time.
  boost::asio::awaitable<boost::system::error_code> resolve(const std::string& host,
                                                            std::uint16_t port, deadline until,
                                                            endpoints& out);

 private:
  /// One host:port's DNS answer, shared by every request to it; `ready` wakes the requests
  /// that arrived while the lookup was under way.
  struct resolution {
    bool done = false;
    boost::system::error_code ec;
    endpoints addresses;
    std::unique_ptr<boost::asio::steady_timer> ready;
  };

  boost::asio::any_io_executor executor_;
  std::vector<resolve_override> fixed_;
  std::unordered_map<std::string, std::shared_ptr<resolution>> resolutions_;  // by host:port
};

}  // namespace corocrawl
