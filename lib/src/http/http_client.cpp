#include "http/http_client.hpp"

#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <spdlog/spdlog.h>

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "corocrawl/errors.hpp"
#include "http/content_type.hpp"
#include "http/decompress.hpp"
#include "http/openssl_loader.hpp"
#include "http/request_head.hpp"
#include "http/response_reading.hpp"
#include "sys/use_tuple.hpp"
#include "url/host.hpp"

namespace corocrawl {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using asio::ip::tcp;
using boost::system::error_code;
using namespace asio::experimental::awaitable_operators;
using namespace std::chrono_literals;

struct http_client::exchange_result {
  result outcome;
  bool reusable = false;     // keep-alive: the connection may serve another request
  bool closed_idle = false;  // nothing came back: the server had closed the connection
};

namespace {

// An IPv4 or IPv6 address as the resolver reads it (host_resolver.cpp connects to such a
// host without a lookup): TLS then sends no SNI and checks the certificate for the address.
bool is_ip_address(const std::string& host) {
  error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

std::string host_header(const http_target& t) {
  const bool default_port = t.port == (t.https ? 443 : 80);
  return default_port ? bracketed(t.host) : host_and_port(t.host, t.port);
}

// What a reused connection reports when the server closed it while it sat in the pool.
bool is_closed_connection(const error_code& ec) {
  return ec == http::error::end_of_stream || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
         ec == ssl::error::stream_truncated;
}

// An exchange's error as its result; memory that ran out (where Beast calls back, see
// response_body) is the environment's failure, not the URL's, and is thrown in the request's
// coroutine.
http_client::result failure(const error_code& ec) {
  if (ec == boost::system::errc::not_enough_memory) throw std::bad_alloc();
  return {ec, describe(ec), {}};
}

// A body not read for its content (get_if_parsed) is still read, and dropped, when it is
// announced this small: cheaper than a new connection.
constexpr std::uint64_t small_body = 64 * 1024;

// Whether a get_if_parsed request reads the body of the response whose header `parser` holds.
bool wants_body(const response_parser& parser) {
  const auto media = parse_content_type(parser.get()[http::field::content_type]);
  return media && is_parsed_type(media->type);
}

http_client::result bad_status(unsigned status) {
  return {fetch_errc::bad_status,
          fmt::format("bad HTTP response: status {:03} is not 100-599", status),
          {}};
}

}  // namespace

http_client::http_client(asio::any_io_executor executor, http_client_options options)
    : executor_(std::move(executor)),
      options_(std::move(options)),
      resolver_(executor_, options_.resolve),
      pool_(executor_, options_.max_connections) {
  // A bad CA file is a config error before the crawl; otherwise OpenSSL is loaded and set up
  // only when the first https URL comes (openssl_loader.hpp).
  if (!options_.ca_file.empty()) tls();
  if (options_.gather_requests) batch_.write_through(&sender_, &pool_);
}

http_client::~http_client() = default;

ssl::context& http_client::tls() {
  if (tls_) return *tls_;
  if (auto missing = load_openssl()) throw std::runtime_error(*missing);
  auto& tls = tls_.emplace(ssl::context::tls_client);
  SSL_CTX_set_min_proto_version(tls.native_handle(), TLS1_2_VERSION);
  tls.set_default_verify_paths();
  if (!options_.ca_file.empty()) {
    error_code ec;
    tls.load_verify_file(options_.ca_file, ec);
    if (ec) {
      tls_.reset();
      throw config_error("ca_file: cannot load CA certificates from \"" + options_.ca_file +
                         "\": " + ec.message());
    }
  }
  tls.set_verify_mode(options_.insecure ? ssl::verify_none : ssl::verify_peer);
  return tls;
}

const proxy_endpoint* http_client::proxy_for(const http_target& target) const {
  const auto& proxy = target.https ? options_.https_proxy : options_.http_proxy;
  if (!proxy || bypasses_proxy(target.host, options_.no_proxy)) return nullptr;
  return &*proxy;
}

std::string_view method_name(fetch_mode mode) {
  return mode == fetch_mode::head ? "HEAD" : "GET";
}

asio::awaitable<http_client::result> http_client::get(const http_target& target,
                                                      std::span<const http_header> headers,
                                                      fetch_mode mode, body_sink* sink) {
  const auto* proxy = proxy_for(target);
  // Plain http through a proxy shares the connections to the proxy; anything else has its own.
  const auto route = proxy && !target.https ? "proxy " + host_and_port(proxy->host, proxy->port)
                                            : origin_key(target) + (proxy ? " via proxy" : "");

  // Reuse an idle keep-alive connection; if the server closed it meanwhile, go on below.
  if (auto conn = pool_.take_idle(route)) {
    conn->tcp().expires_after(options_.timeout);
    ++requests_;
    auto exchanged = co_await exchange(*conn, target, proxy, headers, mode, sink);
    if (!exchanged.closed_idle) {
      if (exchanged.reusable) pool_.put_idle(route, std::move(conn));
      co_return std::move(exchanged.outcome);
    }
    spdlog::debug("{}: idle connection was closed by the server; reconnecting", route);
  }

  std::unique_ptr<connection> conn;
  if (auto opened = co_await open(target, proxy, conn); opened.ec) co_return opened;
  ++requests_;
  auto exchanged = co_await exchange(*conn, target, proxy, headers, mode, sink);
  if (exchanged.reusable) pool_.put_idle(route, std::move(conn));
  co_return std::move(exchanged.outcome);
}

asio::awaitable<http_client::result> http_client::open(const http_target& target,
                                                       const proxy_endpoint* proxy,
                                                       std::unique_ptr<connection>& out) {
  const auto& host = proxy ? proxy->host : target.host;
  const auto port = proxy ? proxy->port : target.port;
  std::unique_ptr<connection> conn;
  std::optional<deadline> give_up;  // set when descriptors first run short
  for (auto pause = 10ms;; pause = std::min(2 * pause, std::chrono::milliseconds(1s))) {
    auto slot = co_await pool_.reserve();
    conn = std::make_unique<connection>(executor_, std::move(slot));
    // The time limit starts now: waiting under the cap or for a descriptor is no fault of
    // the server's.
    const auto ec =
        co_await connect(host, port, std::chrono::steady_clock::now() + options_.timeout, *conn);
    if (!ec) break;
    if (!is_out_of_descriptors(ec)) co_return failure(ec);
    conn.reset();
    if (!give_up) give_up = std::chrono::steady_clock::now() + options_.timeout;
    co_await wait_for_descriptor(pause, *give_up);
  }
  ++connections_;
  if (target.https) {
    if (proxy) {
      if (auto tunnelled = co_await tunnel(*conn, target, *proxy); tunnelled.ec)
        co_return tunnelled;
    }
    if (auto secured = co_await handshake(*conn, target); secured.ec) co_return secured;
  }
  out = std::move(conn);
  co_return result{};
}

// The process is out of file descriptors: local back-pressure, never a failure of the URL.
// Closes the least recently used idle connection, or else waits until a connection closes or
// becomes idle (at most `pause`). Past `give_up` with no connection of ours open, something
// else holds the descriptors and no wait would end: that is the environment's failure.
asio::awaitable<void> http_client::wait_for_descriptor(std::chrono::milliseconds pause,
                                                       deadline give_up) {
  if (!told_of_shortage_) {
    told_of_shortage_ = true;
    spdlog::warn("out of file descriptors with {} connections open: waiting for some to close",
                 pool_.open());
  }
  if (pool_.close_oldest_idle()) co_return;
  if (pool_.open() == 0 && std::chrono::steady_clock::now() >= give_up)
    throw std::runtime_error("no file descriptor is left for a connection (see ulimit -n)");
  co_await pool_.wait_for_change(pause);
}

asio::awaitable<error_code> http_client::connect(const std::string& host, std::uint16_t port,
                                                 deadline until, connection& conn) {
  host_resolver::endpoints addresses;
  if (auto ec = co_await resolver_.resolve(host, port, until, addresses)) co_return ec;
  // Every address (IPv6 and IPv4) gets a share of the time left, so that one which drops
  // packets cannot use it all.
  error_code last = asio::error::host_not_found;
  auto& stream = conn.tcp();
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) co_return beast::error::timeout;
    stream.expires_at(now + (until - now) / static_cast<int>(addresses.size() - i));
    auto [ec] = co_await stream.async_connect(addresses[i], use_tuple);
    if (!ec) {
      stream.expires_at(until);
      co_return error_code{};
    }
    if (is_out_of_descriptors(ec)) co_return ec;  // no socket at all: no address would do
    spdlog::debug("connecting to {} ({}) failed: {}", host, addresses[i].address().to_string(),
                  ec.message());
    last = ec;
    stream.close();
  }
  co_return last;
}

asio::awaitable<http_client::result> http_client::tunnel(connection& conn,
                                                         const http_target& target,
                                                         const proxy_endpoint& proxy) {
  const auto authority = host_and_port(target.host, target.port);
  http::request<http::empty_body> request{http::verb::connect, authority, 11};
  request.set(http::field::host, authority);
  request.set(http::field::user_agent, options_.user_agent);
  if (proxy.authorization) request.set(http::field::proxy_authorization, *proxy.authorization);
  auto& stream = std::get<beast::tcp_stream>(conn.stream);
  if (auto [ec, n] = co_await http::async_write(stream, request, use_tuple); ec)
    co_return failure(ec);

  http::response_parser<http::empty_body> parser;
  parser.skip(true);  // a response to CONNECT has no body: the tunnel follows
  if (auto [ec, n] = co_await http::async_read(stream, conn.buffer, parser, use_tuple); ec)
    co_return failure(ec);
  const auto& answer = parser.get();
  if (answer.result_int() / 100 != 2) {
    co_return result{fetch_errc::proxy_refused,
                     "the proxy refused CONNECT " + authority + ": " +
                         std::to_string(answer.result_int()) + " " + std::string(answer.reason()),
                     {}};
  }
  co_return result{};
}

asio::awaitable<http_client::result> http_client::handshake(connection& conn,
                                                            const http_target& target) {
  // Without OpenSSL every https URL fails with why, and the rest of the crawl goes on.
  if (auto missing = load_openssl()) co_return result{fetch_errc::tls, *missing, {}};
  beast::tcp_stream plain = std::move(std::get<beast::tcp_stream>(conn.stream));
  auto& stream = conn.stream.emplace<beast::ssl_stream<beast::tcp_stream>>(std::move(plain), tls());
  SSL* session = stream.native_handle();
  const bool ip_address = is_ip_address(target.host);
  if (!ip_address) SSL_set_tlsext_host_name(session, target.host.c_str());  // SNI
  if (!options_.insecure) {
    X509_VERIFY_PARAM* verify = SSL_get0_param(session);
    X509_VERIFY_PARAM_set_hostflags(verify, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    if (ip_address)
      X509_VERIFY_PARAM_set1_ip_asc(verify, target.host.c_str());
    else
      X509_VERIFY_PARAM_set1_host(verify, target.host.c_str(), target.host.size());
  }

  auto [ec] = co_await stream.async_handshake(ssl::stream_base::client, use_tuple);
  if (!ec) co_return result{};
  if (ec.category() != asio::error::get_ssl_category()) co_return failure(ec);
  const long verdict = SSL_get_verify_result(session);
  co_return result{fetch_errc::tls,
                   verdict != X509_V_OK ? std::string("certificate verify failed: ") +
                                              X509_verify_cert_error_string(verdict)
                                        : "TLS handshake failed: " + ec.message(),
                   {}};
}

asio::awaitable<http_client::exchange_result> http_client::exchange(
    connection& conn, const http_target& target, const proxy_endpoint* proxy,
    std::span<const http_header> headers, fetch_mode mode, body_sink* sink) {
  // Through a proxy, plain http asks for the absolute URL; https went through a tunnel.
  const bool absolute_form = proxy && !target.https;
  const std::string host = host_header(target);
  const auto request_target = absolute_form ? "http://" + host + target.target : target.target;
  const bool head = mode == fetch_mode::head;
  std::vector<header_field> fields = {
      {"Host", host},
      {"User-Agent", options_.user_agent},
      {"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"},
      {"Accept-Encoding", "gzip, deflate"}};
  if (absolute_form && proxy->authorization)
    fields.push_back({"Proxy-Authorization", *proxy->authorization});
  for (const auto& header : headers)
    fields.push_back({header.name, header.value});
  std::string request = request_head(head ? "HEAD" : "GET", request_target, fields);

  if (options_.gather_requests && std::holds_alternative<beast::tcp_stream>(conn.stream) &&
      request.size() <= request_batch::kMaxBytes) {
    batch_.add(conn, std::move(request));  // written with others; the response is read now
  } else {
    auto [write_ec, written] = co_await std::visit(
        [&](auto& s) { return asio::async_write(s, asio::buffer(request), use_tuple); },
        conn.stream);
    if (write_ec)
      co_return exchange_result{failure(write_ec), false, is_closed_connection(write_ec)};
  }

  std::optional<response_parser> parser;
  bool got_some = false;
  auto ec = co_await read_final_header(conn, parser, head, got_some);
  if (ec && conn.queued_in != nullptr) conn.queued_in->settle(conn);
  if (ec && conn.unsent_error) ec = conn.unsent_error;  // the batch's write failed first
  if (ec) co_return exchange_result{failure(ec), false, !got_some && is_closed_connection(ec)};
  auto& message = parser->get();
  const unsigned status = message.result_int();
  if (status < 100 || status > 599) co_return exchange_result{bad_status(status), false, false};

  // The header is complete: even a body over the limit leaves a status to report.
  bool body_kept = true;
  if (mode == fetch_mode::get_header ||
      (mode == fetch_mode::get_if_parsed && !wants_body(*parser))) {
    body_kept = false;
    const auto announced = parser->content_length();
    if (!parser->is_done() && !(announced && *announced <= small_body)) {
      exchange_result unread;  // the connection is not read further, so it is not reused
      unread.outcome.response.status = status;
      unread.outcome.response.location = message[http::field::location];
      unread.outcome.response.content_type = message[http::field::content_type];
      unread.outcome.response.retry_after = message[http::field::retry_after];
      co_return unread;
    }
  }
  // A 2xx page's body as sent (no Content-Encoding) may go to the sink: whole, when it has
  // all come already, or as it comes.
  std::uint64_t taken = 0;
  bool to_sink = false;
  if (sink != nullptr && body_kept && !head && status / 100 == 2 &&
      message[http::field::content_encoding].empty()) {
    auto handing = hand_waiting_body(conn, *parser, options_.max_body, *sink, taken);
    if (handing) {
      to_sink = true;
      ec = co_await std::move(*handing);
    } else if (sink->take(message[http::field::content_type],
                          parser->content_length().value_or(0))) {
      to_sink = true;
      ec = co_await read_body_into(conn, *parser, options_.max_body, *sink, taken);
    }
  }
  if (!to_sink) ec = co_await read_body(conn, *parser, options_.max_body);
  if (ec && ec != fetch_errc::body_too_large) co_return exchange_result{failure(ec), false, false};

  exchange_result exchanged;
  // The pool keeps it only if no byte waits past the response: those were not asked for.
  exchanged.reusable = !ec && parser->keep_alive();
  auto& response = exchanged.outcome.response;
  response.status = status;
  response.location = message[http::field::location];
  response.content_type = message[http::field::content_type];
  response.retry_after = message[http::field::retry_after];
  response.body_received = to_sink ? taken : message.body().size();
  response.body_taken = to_sink;
  if (!ec) conn.tcp().expires_never();
  if (body_kept && !to_sink) {
    auto decoded = decode_content(message[http::field::content_encoding], std::move(message.body()),
                                  options_.max_body);
    if (decoded.status == decode_status::too_large) ec = fetch_errc::body_too_large;
    // A body cut at max_body does not decode to its end: the part that does is kept.
    if (decoded.status != decode_status::ok && decoded.status != decode_status::too_large && !ec)
      co_return exchange_result{{fetch_errc::bad_encoding, decoded.problem, {}}, false, false};
    response.body = std::move(decoded.body);
  }
  if (ec) exchanged.outcome = {ec, describe(ec), std::move(response)};
  co_return exchanged;
}

}  // namespace corocrawl
