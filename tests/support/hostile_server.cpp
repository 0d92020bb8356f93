#include "hostile_server.hpp"

#include <array>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <map>
#include <mutex>

#include "loopback_listener.hpp"
#include "sys/use_tuple.hpp"
#include "test_server.hpp"  // sleep_for

namespace corocrawl::testing::hostile {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;
using boost::system::error_code;

namespace {

/// Reads and drops whatever the client sends until it closes the connection.
asio::awaitable<void> drain(tcp::socket& socket) {
  std::array<char, 4096> sink{};
  for (;;) {
    auto [ec, n] = co_await socket.async_read_some(asio::buffer(sink), use_tuple);
    if (ec) co_return;
  }
}

/// Plays `steps` on `socket`; false when the connection is over (closed, reset, held to its
/// end, or the client went away).
asio::awaitable<bool> play(tcp::socket& socket, const script& steps) {
  for (const auto& s : steps) {
    switch (s.what) {
      case step::kind::write: {
        auto [ec, n] = co_await asio::async_write(socket, asio::buffer(s.bytes), use_tuple);
        if (ec) co_return false;
        break;
      }
      case step::kind::trickle:
        for (const char byte : s.bytes) {
          auto [ec, n] = co_await asio::async_write(socket, asio::buffer(&byte, 1), use_tuple);
          if (ec) co_return false;
          co_await sleep_for(s.pause);
        }
        break;
      case step::kind::pause:
        co_await sleep_for(s.pause);
        break;
      case step::kind::reset: {
        error_code ignored;
        socket.set_option(asio::socket_base::linger{true, 0}, ignored);
        socket.close(ignored);
        co_return false;
      }
      case step::kind::close: {
        error_code ignored;
        socket.shutdown(tcp::socket::shutdown_both, ignored);
        socket.close(ignored);
        co_return false;
      }
      case step::kind::hold:
        co_await drain(socket);
        co_return false;
    }
  }
  co_return true;
}

}  // namespace

std::string response(std::string_view status_line, const std::vector<std::string>& headers,
                     std::string_view body) {
  std::string out = "HTTP/1.1 " + std::string(status_line) + "\r\n";
  for (const auto& line : headers)
    out += line + "\r\n";
  out += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out += body;
  return out;
}

std::string page(const std::vector<std::string>& links) {
  std::string body = "<!doctype html><title>page</title>";
  for (const auto& link : links)
    body += "<a href=\"" + link + "\">x</a>";
  return response("200 OK", {"Content-Type: text/html; charset=utf-8"}, body);
}

struct hostile_server::impl {
  mutable std::mutex mutex;  // guards what tests read and write from their own thread
  std::map<std::string, script_maker, std::less<>> scripts;
  script_maker fallback = [](const recorded_request&) { return script{step::write(page())}; };
  request_log<recorded_request> received;
  std::size_t accepted = 0;
  // Last, as loopback_listener.hpp asks, although pending sessions own all they touch.
  loopback_listener listener;

  script script_for(const recorded_request& request) const {
    std::lock_guard lock{mutex};
    const auto it = scripts.find(request.path());
    return it == scripts.end() ? fallback(request) : it->second(request);
  }

  asio::awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, socket] = co_await listener.acceptor().async_accept(use_tuple);
      if (ec == asio::error::operation_aborted || ec == asio::error::bad_descriptor) co_return;
      if (ec) {  // out of descriptors, say: the connection waits in the backlog meanwhile
        co_await sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      std::size_t number = 0;
      {
        std::lock_guard lock{mutex};
        number = ++accepted;
      }
      asio::co_spawn(listener.context(), session(std::move(socket), number), asio::detached);
    }
  }

  asio::awaitable<void> session(tcp::socket socket, std::size_t number) {
    beast::flat_buffer buffer;
    for (std::size_t index = 1;; ++index) {
      http::request_parser<http::string_body> parser;
      parser.header_limit(1024 * 1024);
      if (auto [ec, n] = co_await http::async_read(socket, buffer, parser, use_tuple); ec)
        co_return;
      const auto& message = parser.get();
      recorded_request request{{std::string(message.method_string()),
                                std::string(message.target()),
                                {},
                                std::chrono::steady_clock::now()},
                               number,
                               index};
      for (const auto& field : message)
        request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
      received.add(request);
      if (!co_await play(socket, script_for(request))) co_return;
    }
  }
};

hostile_server::hostile_server() : impl_(std::make_unique<impl>()) {
  impl_->listener.start(impl_->accept_loop());
}

hostile_server::~hostile_server() = default;

std::uint16_t hostile_server::port() const {
  return impl_->listener.port();
}

std::string hostile_server::url(std::string_view path) const {
  return origin("127.0.0.1") + std::string(path);
}

std::string hostile_server::origin(std::string_view host) const {
  return impl_->listener.origin("http", host);
}

void hostile_server::add(const std::string& path, script steps) {
  add(path, [steps = std::move(steps)](const recorded_request&) { return steps; });
}

void hostile_server::add(const std::string& path, script_maker make) {
  std::lock_guard lock{impl_->mutex};
  impl_->scripts[path] = std::move(make);
}

void hostile_server::set_default(script_maker make) {
  std::lock_guard lock{impl_->mutex};
  impl_->fallback = std::move(make);
}

std::vector<recorded_request> hostile_server::requests() const {
  return impl_->received.all();
}

std::size_t hostile_server::requests_for(std::string_view path) const {
  return impl_->received.count_for(path);
}

std::size_t hostile_server::connections() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->accepted;
}

}  // namespace corocrawl::testing::hostile
