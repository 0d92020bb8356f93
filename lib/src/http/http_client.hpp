#pragma once
// An HTTP/1.1 client for the crawler: http and https (OpenSSL, verified against the system's
// CA store), keep-alive connections pooled per origin under a cap on open connections, a DNS
// cache, one time limit per request, gzip/deflate bodies, HTTP proxies (CONNECT for https). It
// never follows redirects: the crawler does. Interim (1xx) responses are skipped, and a
// connection carries another request only when nothing unasked-for waits on it.

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
#include "http/body_sink.hpp"
#include "http/client_options.hpp"
#include "http/connection_pool.hpp"
#include "http/fetch_error.hpp"
#include "http/host_resolver.hpp"
#include "http/proxy.hpp"
#include "http/request_batch.hpp"
#include "http/request_sender.hpp"
#include "url/url.hpp"

namespace corocrawl {

/// What a request asks for.
enum class fetch_mode : std::uint8_t {
  /// GET, and the whole body up to max_body; a larger body is cut there (body_too_large, with
  /// the part read).
  get,
  /// GET, reading the body only when its media type is one the crawler parses
  /// (is_parsed_type), as `get` does; of any other response only the header is read: a body
  /// announced small is read and dropped so the connection serves again, a larger or
  /// unannounced one closes the connection.
  get_if_parsed,
  /// GET, reading only the header, as get_if_parsed does with a type not parsed.
  get_header,
  /// HEAD: the header alone.
  head,
};

std::string_view method_name(fetch_mode mode);  ///< "GET" or "HEAD"

struct http_response {
  unsigned status = 0;       ///< the final response's, 200-599: interim (1xx) ones are skipped
  std::string location;      ///< Location header; empty when absent
  std::string content_type;  ///< Content-Type header; empty when absent
  std::string retry_after;   ///< Retry-After header; empty when absent
  /// Decoded (gzip and deflate undone); with body_too_large, the part read when it could be
  /// decoded (else empty); empty when the mode did not ask for it.
  std::string body;
  /// Body bytes received as sent (before decoding); with body_too_large, those read before
  /// reading stopped (0 when the Content-Length alone was too large).
  std::uint64_t body_received = 0;
  /// The body went to the request's body_sink (as it came, or whole once it had come:
  /// body_sink::read_waiting), and `body` is empty.
  bool body_taken = false;
};

class http_client {
 public:
  struct result {
    boost::system::error_code ec;  ///< set when there is no (complete) response
    std::string error;             ///< what went wrong, for humans, when `ec` is set
    /// With body_too_large, the response's status and headers, and the part of the body read.
    http_response response;
  };

  /// Throws config_error for a CA file that cannot be loaded.
  http_client(boost::asio::any_io_executor executor, http_client_options options);
  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  /// Requests `target` once as `mode` says, with `headers` added, on a pooled keep-alive connection
  /// when one is idle. A pooled connection that the server closed while idle is replaced by a fresh
  /// one at once, without a failure. Waiting for a connection under the cap, or for a file
  /// descriptor when the process has run out, is not counted against the time limit.
  /// Cancellation (the caller's cancellation slot) aborts it. Throws std::runtime_error when
  /// no descriptor frees up for a whole time limit while no connection is open.
  /// With `sink`, a body the sink takes (see body_sink) goes to it instead of the response.
  boost::asio::awaitable<result> get(const http_target& target,
                                     std::span<const http_header> headers,
                                     fetch_mode mode = fetch_mode::get, body_sink* sink = nullptr);

  /// With options.gather_requests, the event loop writes the requests gathered (see
  /// request_batch): all of them when no handler is ready to run, and after each handler all
  /// of them if the first has waited its longest.
  void send_gathered_requests() { batch_.send_all(); }
  void send_overdue_requests() { batch_.send_overdue(); }
  /// With options.gather_requests, the sender whose writers (threads that call its awake(),
  /// away() and write_waiting()) may write the gathered requests; else nullptr.
  request_sender* request_writer() { return options_.gather_requests ? &sender_ : nullptr; }

  /// Requests sent and connections opened (to servers or proxies) so far.
  std::uint64_t requests() const { return requests_; }
  std::uint64_t connections() const { return connections_; }

 private:
  using connection = http_connection;
  struct exchange_result;
  using deadline = std::chrono::steady_clock::time_point;

  boost::asio::ssl::context& tls();
  const proxy_endpoint* proxy_for(const http_target& target) const;
  boost::asio::awaitable<result> open(const http_target& target, const proxy_endpoint* proxy,
                                      std::unique_ptr<connection>& out);
  boost::asio::awaitable<void> wait_for_descriptor(std::chrono::milliseconds pause,
                                                   deadline give_up);
  boost::asio::awaitable<boost::system::error_code> connect(const std::string& host,
                                                            std::uint16_t port, deadline until,
                                                            connection& conn);
  boost::asio::awaitable<result> tunnel(connection& conn, const http_target& target,
                                        const proxy_endpoint& proxy);
  boost::asio::awaitable<result> handshake(connection& conn, const http_target& target);
  boost::asio::awaitable<exchange_result> exchange(connection& conn, const http_target& target,
                                                   const proxy_endpoint* proxy,
                                                   std::span<const http_header> headers,
                                                   fetch_mode mode, body_sink* sink);

  boost::asio::any_io_executor executor_;
  http_client_options options_;
  std::optional<boost::asio::ssl::context> tls_;  // made by tls() when first needed
  host_resolver resolver_;
  request_sender sender_;  // before batch_, which settles what it handed over as it goes
  request_batch batch_;    // before pool_: the pool's connections leave it as they go
  connection_pool pool_;
  std::uint64_t requests_ = 0;
  std::uint64_t connections_ = 0;
  bool told_of_shortage_ = false;  // out of descriptors was logged once
};

}  // namespace corocrawl
