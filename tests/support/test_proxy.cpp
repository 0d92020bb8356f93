#include "test_proxy.hpp"

#include <strings.h>

#include <array>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>

#include "loopback_listener.hpp"
#include "sys/use_tuple.hpp"

namespace corocrawl::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

namespace {

constexpr std::uint32_t response_header_limit = 64 * 1024;

using client_request = http::request<http::string_body>;

/// A port number in 1..65535, or nullopt.
std::optional<std::uint16_t> parse_port(std::string_view text) {
  unsigned value = 0;
  const auto* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || stop != end || value == 0 || value > 65535)
    return std::nullopt;
  return static_cast<std::uint16_t>(value);
}

/// The port of an authority "host:port" ("[v6]:port" too); nullopt without a valid one.
std::optional<std::uint16_t> port_of(std::string_view authority) {
  const auto colon = authority.rfind(':');
  const auto bracket = authority.rfind(']');
  if (colon == std::string_view::npos || colon == 0 ||
      (bracket != std::string_view::npos && bracket > colon))
    return std::nullopt;
  return parse_port(authority.substr(colon + 1));
}

struct absolute_target {
  std::uint16_t port;
  std::string origin_form;  ///< "/path?query"
};

/// "http://host[:port]/path?query" -> port (80 by default) and "/path?query"; nullopt for
/// any other form.
std::optional<absolute_target> parse_absolute(std::string_view target) {
  constexpr std::string_view scheme = "http://";
  if (target.size() < scheme.size() ||
      strncasecmp(target.data(), scheme.data(), scheme.size()) != 0)
    return std::nullopt;
  target.remove_prefix(scheme.size());
  const auto authority_end = std::min(target.find_first_of("/?#"), target.size());
  const std::string_view authority = target.substr(0, authority_end);
  std::string rest{target.substr(authority_end)};
  if (authority.empty() || authority.front() == ':') return std::nullopt;
  if (const auto fragment = rest.find('#'); fragment != std::string::npos) rest.resize(fragment);
  if (rest.empty() || rest.front() != '/') rest.insert(0, "/");

  std::uint16_t port = 80;
  const auto colon = authority.rfind(':');
  const auto bracket = authority.rfind(']');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    const auto parsed = parse_port(authority.substr(colon + 1));
    if (!parsed) return std::nullopt;
    port = *parsed;
  }
  return absolute_target{port, std::move(rest)};
}

std::string request_line(const client_request& message) {
  const unsigned version = message.version();
  return std::string(message.method_string()) + " " + std::string(message.target()) + " HTTP/" +
         std::to_string(version / 10) + "." + std::to_string(version % 10);
}

void drop_proxy_headers(client_request& message) {
  std::vector<std::string> names;
  for (const auto& field : message) {
    const auto name = field.name_string();
    if (name.size() >= 6 && strncasecmp(name.data(), "proxy-", 6) == 0) names.emplace_back(name);
  }
  for (const auto& name : names)
    message.erase(name);
}

void close(tcp::socket& socket) {
  boost::system::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}

/// A short error response, after which the client connection is closed.
asio::awaitable<void> answer_error(beast::tcp_stream& client, http::status status) {
  http::response<http::string_body> message{status, 11};
  message.set(http::field::content_type, "text/plain");
  message.body() = std::string(http::obsolete_reason(status)) + "\n";
  message.keep_alive(false);
  message.prepare_payload();
  co_await http::async_write(client, message, use_tuple);
  close(client.socket());
}

/// Copies bytes from `from` to `to` until either fails or ends, then closes both: a tunnel
/// ends as a whole.
asio::awaitable<void> pump(tcp::socket& from, tcp::socket& to) {
  std::array<char, 16 * 1024> data;
  for (;;) {
    auto [read_error, n] = co_await from.async_read_some(asio::buffer(data), use_tuple);
    if (n > 0) {
      auto [write_error, written] =
          co_await asio::async_write(to, asio::buffer(data.data(), n), use_tuple);
      if (write_error) break;
    }
    if (read_error) break;
  }
  close(from);
  close(to);
}

/// A kept-alive connection to 127.0.0.1:port for forwarded requests.
struct upstream {
  beast::tcp_stream stream;
  beast::flat_buffer buffer;
};

}  // namespace

struct test_proxy::impl {
  mutable std::mutex mutex;  // guards what tests read from their own thread
  std::vector<std::string> request_lines;
  std::vector<std::optional<std::string>> authorizations;
  // Last, as loopback_listener.hpp asks: its io_context destroys pending sessions when it goes.
  loopback_listener listener;

  void record(const client_request& message) {
    std::optional<std::string> authorization;
    if (const auto it = message.find(http::field::proxy_authorization); it != message.end())
      authorization = std::string(it->value());
    std::lock_guard lock{mutex};
    request_lines.push_back(request_line(message));
    authorizations.push_back(std::move(authorization));
  }

  asio::awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, socket] = co_await listener.acceptor().async_accept(use_tuple);
      if (ec) co_return;
      asio::co_spawn(listener.context(), session(beast::tcp_stream{std::move(socket)}),
                     asio::detached);
    }
  }

  asio::awaitable<void> session(beast::tcp_stream client) {
    beast::flat_buffer buffer;
    std::map<std::uint16_t, upstream> upstreams;
    for (;;) {
      http::request_parser<http::string_body> parser;
      if (auto [ec, n] = co_await http::async_read(client, buffer, parser, use_tuple); ec)
        co_return;
      client_request message = parser.release();
      record(message);
      if (message.method() == http::verb::connect) {
        co_await tunnel(client, buffer, message.target());
        co_return;
      }
      const auto target = parse_absolute(message.target());
      if (!target) {
        co_await answer_error(client, http::status::bad_request);
        co_return;
      }
      const bool keep_alive = co_await forward(client, upstreams, std::move(message), *target);
      if (!keep_alive) {
        close(client.socket());
        co_return;
      }
    }
  }

  asio::awaitable<void> tunnel(beast::tcp_stream& client, beast::flat_buffer& buffer,
                               std::string_view authority) {
    const auto port = port_of(authority);
    if (!port) {
      co_await answer_error(client, http::status::bad_request);
      co_return;
    }
    tcp::socket server{listener.context()};
    if (auto [ec] =
            co_await server.async_connect({asio::ip::make_address("127.0.0.1"), *port}, use_tuple);
        ec) {
      co_await answer_error(client, http::status::bad_gateway);
      co_return;
    }
    constexpr std::string_view established = "HTTP/1.1 200 Connection established\r\n\r\n";
    if (auto [ec, n] =
            co_await asio::async_write(client.socket(), asio::buffer(established), use_tuple);
        ec)
      co_return;
    // Bytes the client sent right after the CONNECT request (a TLS ClientHello, say).
    if (buffer.size() > 0) {
      if (auto [ec, n] = co_await asio::async_write(server, buffer.data(), use_tuple); ec)
        co_return;
      buffer.consume(buffer.size());
    }
    using namespace asio::experimental::awaitable_operators;
    co_await (pump(client.socket(), server) && pump(server, client.socket()));
  }

  /// Sends `message` to 127.0.0.1:target.port and its response back to the client; returns
  /// whether the client connection stays open.
  asio::awaitable<bool> forward(beast::tcp_stream& client,
                                std::map<std::uint16_t, upstream>& upstreams,
                                client_request message, const absolute_target& target) {
    const bool client_keep_alive = message.keep_alive();
    const bool head = message.method() == http::verb::head;
    message.target(target.origin_form);
    drop_proxy_headers(message);

    // A kept-alive upstream connection may have been closed by the server meanwhile: then
    // try once more on a new one.
    for (int attempt = 0; attempt < 2; ++attempt) {
      auto it = upstreams.find(target.port);
      const bool reused = it != upstreams.end();
      if (!reused) {
        tcp::socket socket{listener.context()};
        if (auto [ec] = co_await socket.async_connect(
                {asio::ip::make_address("127.0.0.1"), target.port}, use_tuple);
            ec)
          break;
        it = upstreams.emplace(target.port, upstream{beast::tcp_stream{std::move(socket)}, {}})
                 .first;
      }
      auto& server = it->second;
      if (auto [ec, n] = co_await http::async_write(server.stream, message, use_tuple); ec) {
        upstreams.erase(it);
        if (reused) continue;
        break;
      }
      http::response_parser<http::string_body> parser;
      parser.body_limit(boost::none);
      parser.header_limit(response_header_limit);
      if (head) parser.skip(true);
      if (auto [ec, n] = co_await http::async_read(server.stream, server.buffer, parser, use_tuple);
          ec) {
        const bool nothing_received = !parser.got_some();
        upstreams.erase(it);
        if (reused && nothing_received) continue;
        break;
      }
      auto response = parser.release();
      if (!response.keep_alive()) upstreams.erase(it);
      if (head) {
        // The serializer would add a body (a last chunk) that a HEAD response must not have.
        http::response_serializer<http::string_body> serializer{response};
        if (auto [ec, n] = co_await http::async_write_header(client, serializer, use_tuple); ec)
          co_return false;
      } else if (auto [ec, n] = co_await http::async_write(client, response, use_tuple); ec) {
        co_return false;
      }
      co_return client_keep_alive&& response.keep_alive();
    }
    co_await answer_error(client, http::status::bad_gateway);
    co_return false;
  }
};

test_proxy::test_proxy() : impl_(std::make_unique<impl>()) {
  impl_->listener.start(impl_->accept_loop());
}

test_proxy::~test_proxy() = default;

std::uint16_t test_proxy::port() const {
  return impl_->listener.port();
}

std::string test_proxy::url() const {
  return impl_->listener.origin("http", "127.0.0.1");
}

std::vector<std::string> test_proxy::requests() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->request_lines;
}

std::vector<std::optional<std::string>> test_proxy::proxy_authorizations() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->authorizations;
}

}  // namespace corocrawl::testing
