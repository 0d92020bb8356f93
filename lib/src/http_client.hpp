#pragma once
// An HTTP/1.1 client for the crawler: http and https (OpenSSL, verified against the system's
// CA store), keep-alive connections pooled per origin, a DNS cache, one time limit per request,
// gzip/deflate bodies, HTTP proxies (CONNECT for https). It never follows redirects: the
// crawler does.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "corocrawl/options.hpp"
#include "corocrawl/url.hpp"
#include "proxy.hpp"

namespace corocrawl {

/// Failures of a fetch that are not system or Beast errors.
enum class fetch_errc {
  body_too_large = 1,  ///< the decoded body exceeded max_body
  bad_address,         ///< a --resolve address that is not an IP literal
  tls,                 ///< the TLS handshake failed: certificate, host name, protocol
  bad_encoding,        ///< a compressed body that does not decode, or an unknown coding
  proxy_refused,       ///< the proxy answered CONNECT with an error status
};
const boost::system::error_category& fetch_category() noexcept;
boost::system::error_code make_error_code(fetch_errc e) noexcept;

/// A short name for the kind of failure, used in "fail_<kind>" statistics: "refused",
/// "reset", "closed", "truncated", "timeout", "dns", "tls", "protocol", "proxy",
/// "body_too_large" or "network".
std::string_view failure_kind(const boost::system::error_code& ec);

/// True for failures worth another try: the network misbehaved (refused, reset, closed,
/// truncated, timed out). HTTP statuses are never failures, so never retried here.
bool is_retryable(const boost::system::error_code& ec);

struct http_response {
  unsigned status = 0;
  std::string location;      ///< Location header; empty when absent
  std::string content_type;  ///< Content-Type header; empty when absent
  std::string retry_after;   ///< Retry-After header; empty when absent
  std::string body;          ///< decoded (gzip and deflate undone)
};

struct http_client_options {
  std::chrono::milliseconds timeout{30'000};  ///< connect + request + response
  std::uint64_t max_body = 10 * 1024 * 1024;  ///< decoded bytes
  std::vector<resolve_override> resolve;
  std::string user_agent;
  bool insecure = false;
  std::string ca_file;
  proxy_options proxy;
};

class http_client {
 public:
  struct result {
    boost::system::error_code ec;  ///< set when there is no (complete) response
    std::string error;             ///< what went wrong, for humans, when `ec` is set
    /// With body_too_large, the response's status and headers (its body is empty).
    http_response response;
  };

  /// Throws config_error for a CA file that cannot be loaded or a malformed proxy URL.
  http_client(boost::asio::any_io_executor executor, http_client_options options);
  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  /// GETs `target` once with `headers` added, on a pooled keep-alive connection when one is
  /// idle. A pooled connection that the server closed while idle is replaced by a fresh one
  /// at once, without a failure. Cancellation (the caller's cancellation slot) aborts it.
  boost::asio::awaitable<result> get(const http_target& target,
                                     std::span<const http_header> headers);

  /// Requests sent and connections opened (to servers or proxies) so far.
  std::uint64_t requests() const { return requests_; }
  std::uint64_t connections() const { return connections_; }

 private:
  struct connection;
  struct exchange_result;
  using endpoints = std::vector<boost::asio::ip::tcp::endpoint>;
  using deadline = std::chrono::steady_clock::time_point;
  /// One host:port's DNS answer, shared by every request to it; `ready` wakes the requests
  /// that arrived while the lookup was under way.
  struct resolution {
    bool done = false;
    boost::system::error_code ec;
    endpoints addresses;
    std::unique_ptr<boost::asio::steady_timer> ready;
  };

  boost::asio::ssl::context& tls();
  const proxy_endpoint* proxy_for(const http_target& target) const;
  boost::asio::awaitable<result> open(const http_target& target, const proxy_endpoint* proxy,
                                      deadline until, std::unique_ptr<connection>& out);
  boost::asio::awaitable<boost::system::error_code> connect(const std::string& host,
                                                            std::uint16_t port, deadline until,
                                                            connection& conn);
  boost::asio::awaitable<result> tunnel(connection& conn, const http_target& target,
                                        const proxy_endpoint& proxy);
  boost::asio::awaitable<result> handshake(connection& conn, const http_target& target);
  boost::asio::awaitable<exchange_result> exchange(connection& conn, const http_target& target,
                                                   const proxy_endpoint* proxy,
                                                   std::span<const http_header> headers);
  boost::asio::awaitable<boost::system::error_code> resolve(const std::string& host,
                                                            std::uint16_t port, deadline until,
                                                            endpoints& out);

  boost::asio::any_io_executor executor_;
  http_client_options options_;
  std::optional<boost::asio::ssl::context> tls_;  // made by tls() when first needed
  std::optional<proxy_endpoint> http_proxy_;
  std::optional<proxy_endpoint> https_proxy_;
  std::unordered_map<std::string, std::vector<std::unique_ptr<connection>>> idle_;  // by route
  std::unordered_map<std::string, std::shared_ptr<resolution>> resolutions_;        // by host:port
  std::uint64_t requests_ = 0;
  std::uint64_t connections_ = 0;
};

}  // namespace corocrawl

template <>
struct boost::system::is_error_code_enum<corocrawl::fetch_errc> : std::true_type {};
