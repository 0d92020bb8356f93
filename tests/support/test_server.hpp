#pragma once
// An HTTP/1.1 server on 127.0.0.1 for the crawler's tests: the twin of add_page and
// add_redirect in the chapter's test.py. It runs on a thread of its own; handlers run there.
// Given a TLS identity (test_ca.hpp) it serves HTTPS instead.

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "request_log.hpp"
#include "test_ca.hpp"

namespace corocrawl::testing {

// A handler is given the request as read (testing::request, request_log.hpp) and returns a
// reply: a response, or a way to misbehave.

struct response {
  unsigned status = 200;
  std::string content_type = "text/html; charset=utf-8";  ///< empty: no Content-Type
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

/// Ways a handler can misbehave instead of answering.
enum class misbehaviour {
  reset,  ///< abort the connection (TCP RST) without a response
  close,  ///< close the connection (FIN) without a response
};

/// Bytes written as they are, after which the connection is closed: truncated or malformed
/// responses.
struct raw_bytes {
  std::string bytes;
};

using reply = std::variant<response, misbehaviour, raw_bytes>;
using handler = std::function<boost::asio::awaitable<reply>(const request&)>;

/// Suspends a handler for `duration` (on the server's thread, without blocking it).
boost::asio::awaitable<void> sleep_for(std::chrono::milliseconds duration);

/// A handler that never answers within any test: it keeps the request waiting a minute (the
/// connection open, silent), then answers an empty 200. For time limits and stops to cut.
handler never_answers();

class test_server {
 public:
  /// Binds 127.0.0.1 at an ephemeral port and starts serving: HTTPS with `tls` (a TLS
  /// handshake per connection; a failed handshake just closes it), plain HTTP without.
  explicit test_server(std::optional<tls_identity> tls = std::nullopt);
  ~test_server();
  test_server(const test_server&) = delete;
  test_server& operator=(const test_server&) = delete;

  std::uint16_t port() const;
  /// "http://127.0.0.1:PORT" (https with TLS) followed by `path`.
  std::string url(std::string_view path = "/") const;
  /// "http://HOST:PORT" (https with TLS), for URLs with a made-up host name that the test
  /// maps to 127.0.0.1.
  std::string origin(std::string_view host) const;

  /// Serves `path` with a page linking to `links` (or `body` when given); returns its URL.
  std::string add_page(const std::string& path, const std::vector<std::string>& links = {},
                       std::optional<std::string> body = std::nullopt,
                       std::string content_type = "text/html; charset=utf-8");
  /// Serves `path` as a redirect to `location`; returns its URL.
  std::string add_redirect(const std::string& path, std::string location, unsigned status = 302);
  /// Serves `path` (query ignored) with `h`. Paths without a handler answer 404.
  void add_handler(const std::string& path, handler h);

  /// After each response, close the connection although it said keep-alive, as servers do
  /// when an idle connection times out.
  void close_after_each_response(bool on);
  /// On a keep-alive connection, close it when no next request starts arriving within
  /// `timeout` of the last response (TLS: close_notify, then FIN), as servers with an idle
  /// timeout do. Default: wait forever.
  void set_keep_alive_timeout(std::chrono::milliseconds timeout);

  /// Requests received for `path`, and connections accepted, so far.
  std::size_t requests_for(const std::string& path) const;
  /// Waits until at least `n` requests for `path` (query ignored) have been received, say by
  /// a crawler in a child process; false when `timeout` passed first.
  bool wait_for_requests(const std::string& path, std::size_t n,
                         std::chrono::milliseconds timeout) const;
  std::size_t connections() const;
  /// The most connections open at the same time so far. A connection counts from its accept
  /// until either side starts closing it (its TCP state leaves ESTABLISHED), so a client
  /// that closes one connection and then opens the next is seen with one, not two.
  std::size_t peak_connections() const;
  /// Every request received so far, in order of arrival.
  std::vector<request> requests() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace corocrawl::testing
