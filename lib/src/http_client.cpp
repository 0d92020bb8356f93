#include "http_client.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

namespace corocrawl {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;
using boost::system::error_code;
using namespace asio::experimental::awaitable_operators;

struct http_client::connection {
  explicit connection(const asio::any_io_executor& executor) : stream(executor) {}
  beast::tcp_stream stream;
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
      case fetch_errc::https_unsupported:
        return "https is not supported yet";
      case fetch_errc::bad_address:
        return "bad --resolve address";
    }
    return "unknown fetch error";
  }
};
#pragma GCC diagnostic pop

bool is_default_port(const http_target& t) {
  return t.port == (t.https ? 443 : 80);
}

std::string host_header(const http_target& t) {
  std::string host = t.host.find(':') == std::string::npos ? t.host : "[" + t.host + "]";
  if (!is_default_port(t)) host += ":" + std::to_string(t.port);
  return host;
}

std::string origin_key(const http_target& t) {
  return (t.https ? "https://" : "http://") + t.host + ":" + std::to_string(t.port);
}

// What a reused connection reports when the server closed it while it sat in the pool.
bool is_closed_connection(const error_code& ec) {
  return ec == http::error::end_of_stream || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::broken_pipe;
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
  if (ec == http::error::end_of_stream || ec == asio::error::eof) return "closed";
  if (ec == http::error::partial_message) return "truncated";
  if (ec == beast::error::timeout || ec == asio::error::timed_out) return "timeout";
  if (ec == asio::error::host_not_found || ec == asio::error::host_not_found_try_again ||
      ec == asio::error::no_data || ec == asio::error::no_recovery ||
      ec == asio::error::service_not_found)
    return "dns";
  if (ec == fetch_errc::body_too_large || ec == http::error::body_limit) return "body_too_large";
  if (ec == fetch_errc::https_unsupported) return "unsupported";
  if (ec.category() == http::make_error_code(http::error::end_of_stream).category() ||
      ec == fetch_errc::bad_address)
    return "protocol";
  return "network";
}

std::string failure_message(const error_code& ec) {
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

bool is_retryable(const error_code& ec) {
  const auto kind = failure_kind(ec);
  return kind == "refused" || kind == "reset" || kind == "closed" || kind == "truncated" ||
         kind == "timeout" || kind == "network";
}

http_client::http_client(asio::any_io_executor executor, http_client_options options)
    : executor_(std::move(executor)), options_(std::move(options)) {}

http_client::~http_client() = default;

asio::awaitable<http_client::result> http_client::get(const http_target& target) {
  if (target.https) co_return result{fetch_errc::https_unsupported, {}};
  const auto until = std::chrono::steady_clock::now() + options_.timeout;
  const auto key = origin_key(target);

  // Reuse an idle keep-alive connection; if the server closed it meanwhile, go on below.
  if (auto& pool = idle_[key]; !pool.empty()) {
    auto conn = std::move(pool.back());
    pool.pop_back();
    conn->stream.expires_at(until);
    auto exchanged = co_await exchange(*conn, target);
    if (!exchanged.closed_idle) {
      if (exchanged.reusable) idle_[key].push_back(std::move(conn));
      co_return std::move(exchanged.outcome);
    }
    spdlog::debug("{}: idle connection was closed by the server; reconnecting", key);
  }

  endpoints addresses;
  if (auto ec = co_await resolve(target, until, addresses)) co_return result{ec, {}};
  auto conn = std::make_unique<connection>(executor_);
  conn->stream.expires_at(until);
  if (auto [ec, endpoint] = co_await conn->stream.async_connect(addresses, use_tuple); ec)
    co_return result{ec, {}};
  auto exchanged = co_await exchange(*conn, target);
  if (exchanged.reusable) idle_[key].push_back(std::move(conn));
  co_return std::move(exchanged.outcome);
}

asio::awaitable<http_client::exchange_result> http_client::exchange(connection& conn,
                                                                    const http_target& target) {
  http::request<http::empty_body> request{http::verb::get, target.target, 11};
  request.set(http::field::host, host_header(target));
  request.set(http::field::user_agent, options_.user_agent);
  request.set(http::field::accept,
              "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
  if (auto [ec, written] = co_await http::async_write(conn.stream, request, use_tuple); ec)
    co_return exchange_result{{ec, {}}, false, is_closed_connection(ec)};

  http::response_parser<http::string_body> parser;
  parser.header_limit(header_limit);
  parser.body_limit(options_.max_body);
  if (auto [ec, read] = co_await http::async_read(conn.stream, conn.buffer, parser, use_tuple);
      ec) {
    const bool closed_idle = !parser.got_some() && is_closed_connection(ec);
    if (ec == http::error::body_limit) ec = fetch_errc::body_too_large;
    co_return exchange_result{{ec, {}}, false, closed_idle};
  }

  auto& message = parser.get();
  exchange_result exchanged;
  exchanged.reusable = parser.keep_alive();
  auto& response = exchanged.outcome.response;
  response.status = message.result_int();
  response.location = message[http::field::location];
  response.content_type = message[http::field::content_type];
  response.body = std::move(message.body());
  conn.stream.expires_never();
  co_return exchanged;
}

asio::awaitable<error_code> http_client::resolve(const http_target& target, deadline until,
                                                 endpoints& out) {
  for (const auto& fixed : options_.resolve) {
    if (fixed.host != target.host || fixed.port != target.port) continue;
    error_code ec;
    const auto address = asio::ip::make_address(fixed.address, ec);
    if (ec) co_return make_error_code(fetch_errc::bad_address);
    out = {tcp::endpoint{address, target.port}};
    co_return error_code{};
  }
  if (error_code ec; true) {
    const auto literal = asio::ip::make_address(target.host, ec);
    if (!ec) {
      out = {tcp::endpoint{literal, target.port}};
      co_return error_code{};
    }
  }

  // One lookup per host:port and crawl; requests that arrive meanwhile wait for its answer.
  const auto key = target.host + ":" + std::to_string(target.port);
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
    auto answer =
        co_await (resolver.async_resolve(target.host, std::to_string(target.port), use_tuple) ||
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
