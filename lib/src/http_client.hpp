#pragma once
// An HTTP/1.1 client for the crawler: keep-alive connections pooled per host:port, a DNS
// cache, a time limit per request. It never follows redirects: the crawler does.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "corocrawl/options.hpp"
#include "corocrawl/url.hpp"

namespace corocrawl {

/// Failures of a fetch that are not system or Beast errors.
enum class fetch_errc {
  body_too_large = 1,  ///< the body exceeded max_body
  https_unsupported,   ///< https URLs need TLS, which this build does not do yet
  bad_address,         ///< a --resolve address that is not an IP literal
};
const boost::system::error_category& fetch_category() noexcept;
boost::system::error_code make_error_code(fetch_errc e) noexcept;

/// A short name for the kind of failure, used in "fail_<kind>" statistics: "refused",
/// "reset", "closed", "truncated", "timeout", "dns", "protocol", "body_too_large",
/// "unsupported" or "network".
std::string_view failure_kind(const boost::system::error_code& ec);

/// A human description of a fetch failure, e.g. "connection refused".
std::string failure_message(const boost::system::error_code& ec);

/// True for failures worth another try: the network misbehaved (refused, reset, closed,
/// truncated, timed out). HTTP statuses are never failures, so never retried here.
bool is_retryable(const boost::system::error_code& ec);

struct http_response {
  unsigned status = 0;
  std::string location;      ///< Location header; empty when absent
  std::string content_type;  ///< Content-Type header; empty when absent
  std::string body;
};

struct http_client_options {
  std::chrono::milliseconds timeout{30'000};  ///< connect + request + response
  std::uint64_t max_body = 10 * 1024 * 1024;
  std::vector<resolve_override> resolve;
  std::string user_agent;
};

class http_client {
 public:
  struct result {
    boost::system::error_code ec;  ///< set when there is no response
    http_response response;
  };

  http_client(boost::asio::any_io_executor executor, http_client_options options);
  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  /// GETs `target` once, on a pooled keep-alive connection when one is idle. A pooled
  /// connection that the server closed while idle is replaced by a fresh one at once, without
  /// a failure. Cancellation (the caller's cancellation slot) aborts the request.
  boost::asio::awaitable<result> get(const http_target& target);

 private:
  struct connection;
  using endpoints = std::vector<boost::asio::ip::tcp::endpoint>;
  /// One host:port's DNS answer, shared by every request to it; `ready` wakes the requests
  /// that arrived while the lookup was under way.
  struct resolution {
    bool done = false;
    boost::system::error_code ec;
    endpoints addresses;
    std::unique_ptr<boost::asio::steady_timer> ready;
  };

  struct exchange_result;
  using deadline = std::chrono::steady_clock::time_point;

  boost::asio::awaitable<boost::system::error_code> resolve(const http_target& target,
                                                            deadline until, endpoints& out);
  boost::asio::awaitable<exchange_result> exchange(connection& conn, const http_target& target);

  boost::asio::any_io_executor executor_;
  http_client_options options_;
  std::unordered_map<std::string, std::vector<std::unique_ptr<connection>>> idle_;  // by origin
  std::unordered_map<std::string, std::shared_ptr<resolution>> resolutions_;        // by host:port
};

}  // namespace corocrawl

template <>
struct boost::system::is_error_code_enum<corocrawl::fetch_errc> : std::true_type {};
