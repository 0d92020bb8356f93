#include "http_client.hpp"

#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <variant>

#include "corocrawl/errors.hpp"
#include "decompress.hpp"

namespace corocrawl {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using asio::ip::tcp;
using boost::system::error_code;
using namespace asio::experimental::awaitable_operators;

struct http_client::connection {
  explicit connection(const asio::any_io_executor& executor)
      : stream(std::in_place_index<0>, executor) {}

  beast::tcp_stream& tcp() {
    return std::visit([](auto& s) -> beast::tcp_stream& { return beast::get_lowest_layer(s); },
                      stream);
  }

  std::variant<beast::tcp_stream, beast::ssl_stream<beast::tcp_stream>> stream;
  beast::flat_buffer buffer;  // bytes read past one response belong to the next
};

struct http_client::exchange_result {
  result outcome;
  bool reusable = false;     // keep-alive: the connection may serve another request
  bool closed_idle = false;  // nothing came back: the server had closed the connection
};

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
constexpr std::size_t header_limit = 64 * 1024;  // big CSP and cookie headers are common

// boost::system::error_category's destructor is protected and non-virtual by design.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnon-virtual-dtor"
class fetch_category_impl final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "corocrawl.fetch"; }
  std::string message(int ev) const override {
    switch (static_cast<fetch_errc>(ev)) {
      case fetch_errc::body_too_large:
        return "body too large";
      case fetch_errc::bad_address:
        return "bad --resolve address";
      case fetch_errc::tls:
        return "TLS handshake failed";
      case fetch_errc::bad_encoding:
        return "body does not decode";
      case fetch_errc::proxy_refused:
        return "the proxy refused the connection";
    }
    return "unknown fetch error";
  }
};
#pragma GCC diagnostic pop

bool is_ip_literal(const std::string& host) {
  error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

std::string bracketed(const std::string& host) {
  return host.find(':') == std::string::npos ? host : "[" + host + "]";
}

std::string host_header(const http_target& t) {
  const bool default_port = t.port == (t.https ? 443 : 80);
  return default_port ? bracketed(t.host) : bracketed(t.host) + ":" + std::to_string(t.port);
}

// What a reused connection reports when the server closed it while it sat in the pool.
bool is_closed_connection(const error_code& ec) {
  return ec == http::error::end_of_stream || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
         ec == ssl::error::stream_truncated;
}

std::string describe(const error_code& ec) {
  const auto kind = failure_kind(ec);
  if (kind == "refused") return "connection refused";
  if (kind == "reset") return "connection reset";
  if (kind == "closed") return "connection closed without a response";
  if (kind == "truncated") return "truncated response";
  if (kind == "timeout") return "timed out";
  if (kind == "dns") return "host not found";
  if (kind == "body_too_large") return "body too large";
  if (kind == "protocol") return "bad HTTP response: " + ec.message();
  return ec.message();
}

http_client::result failure(const error_code& ec) {
  return {ec, describe(ec), {}};
}

}  // namespace

const boost::system::error_category& fetch_category() noexcept {
  static const fetch_category_impl category;
  return category;
}

error_code make_error_code(fetch_errc e) noexcept {
  return {static_cast<int>(e), fetch_category()};
}

std::string_view failure_kind(const error_code& ec) {
  if (ec == asio::error::connection_refused) return "refused";
  if (ec == asio::error::connection_reset || ec == asio::error::connection_aborted ||
      ec == asio::error::broken_pipe)
    return "reset";
  if (ec == http::error::end_of_stream || ec == asio::error::eof ||
      ec == ssl::error::stream_truncated)
    return "closed";
  if (ec == http::error::partial_message) return "truncated";
  if (ec == beast::error::timeout || ec == asio::error::timed_out) return "timeout";
  if (ec == asio::error::host_not_found || ec == asio::error::host_not_found_try_again ||
      ec == asio::error::no_data || ec == asio::error::no_recovery ||
      ec == asio::error::service_not_found)
    return "dns";
  if (ec == fetch_errc::body_too_large || ec == http::error::body_limit) return "body_too_large";
  if (ec == fetch_errc::tls || ec.category() == asio::error::get_ssl_category()) return "tls";
  if (ec == fetch_errc::proxy_refused) return "proxy";
  if (ec.category() == http::make_error_code(http::error::end_of_stream).category() ||
      ec == fetch_errc::bad_address || ec == fetch_errc::bad_encoding)
    return "protocol";
  return "network";
}

bool is_retryable(const error_code& ec) {
  const auto kind = failure_kind(ec);
  return kind == "refused" || kind == "reset" || kind == "closed" || kind == "truncated" ||
         kind == "timeout" || kind == "network";
}

http_client::http_client(asio::any_io_executor executor, http_client_options options)
    : executor_(std::move(executor)), options_(std::move(options)) {
  // A bad CA file is a config error before the crawl; otherwise OpenSSL is set up (4 MB of
  // it paged in) only when the first https URL comes.
  if (!options_.ca_file.empty()) tls();
  if (!options_.proxy.http_proxy.empty())
    http_proxy_ = parse_proxy("http proxy", options_.proxy.http_proxy);
  if (!options_.proxy.https_proxy.empty())
    https_proxy_ = parse_proxy("https proxy", options_.proxy.https_proxy);
}

http_client::~http_client() = default;

ssl::context& http_client::tls() {
  if (tls_) return *tls_;
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
  const auto& proxy = target.https ? https_proxy_ : http_proxy_;
  if (!proxy || bypasses_proxy(target.host, options_.proxy.no_proxy)) return nullptr;
  return &*proxy;
}

asio::awaitable<http_client::result> http_client::get(const http_target& target,
                                                      std::span<const http_header> headers) {
  const auto until = std::chrono::steady_clock::now() + options_.timeout;
  const auto* proxy = proxy_for(target);
  // Plain http through a proxy shares the connections to the proxy; anything else has its own.
  const auto route = proxy && !target.https
                         ? "proxy " + bracketed(proxy->host) + ":" + std::to_string(proxy->port)
                         : origin_key(target) + (proxy ? " via proxy" : "");

  // Reuse an idle keep-alive connection; if the server closed it meanwhile, go on below.
  if (auto& pool = idle_[route]; !pool.empty()) {
    auto conn = std::move(pool.back());
    pool.pop_back();
    conn->tcp().expires_at(until);
    ++requests_;
    auto exchanged = co_await exchange(*conn, target, proxy, headers);
    if (!exchanged.closed_idle) {
      if (exchanged.reusable) idle_[route].push_back(std::move(conn));
      co_return std::move(exchanged.outcome);
    }
    spdlog::debug("{}: idle connection was closed by the server; reconnecting", route);
  }

  std::unique_ptr<connection> conn;
  if (auto opened = co_await open(target, proxy, until, conn); opened.ec) co_return opened;
  ++requests_;
  auto exchanged = co_await exchange(*conn, target, proxy, headers);
  if (exchanged.reusable) idle_[route].push_back(std::move(conn));
  co_return std::move(exchanged.outcome);
}

asio::awaitable<http_client::result> http_client::open(const http_target& target,
                                                       const proxy_endpoint* proxy, deadline until,
                                                       std::unique_ptr<connection>& out) {
  auto conn = std::make_unique<connection>(executor_);
  const auto& host = proxy ? proxy->host : target.host;
  const auto port = proxy ? proxy->port : target.port;
  if (auto ec = co_await connect(host, port, until, *conn)) co_return failure(ec);
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

asio::awaitable<error_code> http_client::connect(const std::string& host, std::uint16_t port,
                                                 deadline until, connection& conn) {
  endpoints addresses;
  if (auto ec = co_await resolve(host, port, until, addresses)) co_return ec;
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
  const auto authority = bracketed(target.host) + ":" + std::to_string(target.port);
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
  beast::tcp_stream plain = std::move(std::get<beast::tcp_stream>(conn.stream));
  auto& stream = conn.stream.emplace<beast::ssl_stream<beast::tcp_stream>>(std::move(plain), tls());
  SSL* session = stream.native_handle();
  const bool ip_literal = is_ip_literal(target.host);
  if (!ip_literal) SSL_set_tlsext_host_name(session, target.host.c_str());  // SNI
  if (!options_.insecure) {
    X509_VERIFY_PARAM* verify = SSL_get0_param(session);
    X509_VERIFY_PARAM_set_hostflags(verify, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    if (ip_literal)
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
    std::span<const http_header> headers) {
  // Through a proxy, plain http asks for the absolute URL; https went through a tunnel.
  const bool absolute_form = proxy && !target.https;
  const auto request_target =
      absolute_form ? "http://" + host_header(target) + target.target : target.target;
  http::request<http::empty_body> request{http::verb::get, request_target, 11};
  request.set(http::field::host, host_header(target));
  request.set(http::field::user_agent, options_.user_agent);
  request.set(http::field::accept,
              "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
  request.set(http::field::accept_encoding, "gzip, deflate");
  if (absolute_form && proxy->authorization)
    request.set(http::field::proxy_authorization, *proxy->authorization);
  for (const auto& header : headers)
    request.set(header.name, header.value);

  auto [write_ec, written] = co_await std::visit(
      [&](auto& s) { return http::async_write(s, request, use_tuple); }, conn.stream);
  if (write_ec) co_return exchange_result{failure(write_ec), false, is_closed_connection(write_ec)};

  http::response_parser<http::string_body> parser;
  parser.header_limit(header_limit);
  parser.body_limit(options_.max_body);
  auto [ec, read] = co_await std::visit(
      [&](auto& s) { return http::async_read(s, conn.buffer, parser, use_tuple); }, conn.stream);
  // TLS servers often end a close-delimited body without a close_notify.
  if (ec == ssl::error::stream_truncated && parser.got_some() && !parser.is_done())
    parser.put_eof(ec);
  if (ec == http::error::body_limit) ec = fetch_errc::body_too_large;
  if (ec && ec != fetch_errc::body_too_large) {
    const bool closed_idle = !parser.got_some() && is_closed_connection(ec);
    co_return exchange_result{failure(ec), false, closed_idle};
  }

  // The header is complete: even a body over the limit leaves a status to report.
  auto& message = parser.get();
  exchange_result exchanged;
  exchanged.reusable = !ec && parser.keep_alive();
  auto& response = exchanged.outcome.response;
  response.status = message.result_int();
  response.location = message[http::field::location];
  response.content_type = message[http::field::content_type];
  response.retry_after = message[http::field::retry_after];
  if (!ec) {
    conn.tcp().expires_never();
    auto decoded = decode_content(message[http::field::content_encoding], std::move(message.body()),
                                  options_.max_body);
    if (decoded.status == decode_status::too_large) {
      ec = fetch_errc::body_too_large;
    } else if (decoded.status != decode_status::ok) {
      co_return exchange_result{{fetch_errc::bad_encoding, decoded.problem, {}}, false, false};
    } else {
      response.body = std::move(decoded.body);
    }
  }
  if (ec) exchanged.outcome = {ec, describe(ec), std::move(response)};
  co_return exchanged;
}

asio::awaitable<error_code> http_client::resolve(const std::string& host, std::uint16_t port,
                                                 deadline until, endpoints& out) {
  for (const auto& fixed : options_.resolve) {
    if (fixed.host != host || fixed.port != port) continue;
    out.clear();
    for (const auto& text : fixed.addresses) {
      error_code ec;
      const auto address = asio::ip::make_address(text, ec);
      if (ec) co_return make_error_code(fetch_errc::bad_address);
      out.emplace_back(address, port);
    }
    co_return error_code{};
  }
  if (error_code ec; true) {
    const auto literal = asio::ip::make_address(host, ec);
    if (!ec) {
      out = {tcp::endpoint{literal, port}};
      co_return error_code{};
    }
  }

  // One lookup per host:port and crawl; requests that arrive meanwhile wait for its answer.
  const auto key = host + ":" + std::to_string(port);
  auto [it, first] = resolutions_.try_emplace(key);
  if (first) {
    it->second = std::make_shared<resolution>();
    it->second->ready =
        std::make_unique<asio::steady_timer>(executor_, asio::steady_timer::time_point::max());
  }
  const auto lookup = it->second;  // keeps it alive should the entry be dropped below
  if (first) {
    tcp::resolver resolver{executor_};
    asio::steady_timer timer{executor_, until};
    auto answer = co_await (resolver.async_resolve(host, std::to_string(port), use_tuple) ||
                            timer.async_wait(use_tuple));
    if (answer.index() == 0) {
      auto& [ec, results] = std::get<0>(answer);
      lookup->ec = ec;
      for (const auto& entry : results)
        lookup->addresses.push_back(entry.endpoint());
      if (!ec && lookup->addresses.empty()) lookup->ec = asio::error::host_not_found;
    } else {
      lookup->ec = asio::error::timed_out;
      resolutions_.erase(key);  // a slow lookup is worth another go later
    }
    lookup->done = true;
    lookup->ready->cancel();
  }
  while (!lookup->done)
    co_await lookup->ready->async_wait(use_tuple);
  if (lookup->ec) co_return lookup->ec;
  out = lookup->addresses;
  co_return error_code{};
}

}  // namespace corocrawl
