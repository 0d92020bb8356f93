#include "test_server.hpp"

#include <strings.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <map>
#include <mutex>
#include <thread>

namespace corocrawl::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

std::string path_of(std::string_view target) {
  return std::string(target.substr(0, target.find('?')));
}

std::string page_with_links(const std::vector<std::string>& links) {
  std::string body;
  for (const auto& link : links)
    body += "<a href=\"" + link + "\"></a>";
  return body;
}

}  // namespace

std::optional<std::string> request::header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (key.size() == name.size() && strncasecmp(key.data(), name.data(), key.size()) == 0)
      return value;
  return std::nullopt;
}

asio::awaitable<void> sleep_for(std::chrono::milliseconds duration) {
  asio::steady_timer timer{co_await asio::this_coro::executor, duration};
  co_await timer.async_wait(use_tuple);
}

struct test_server::impl {
  asio::io_context context{1};
  tcp::acceptor acceptor{context, {asio::ip::make_address("127.0.0.1"), 0}};
  mutable std::mutex mutex;  // guards what tests read and write from their own thread
  std::map<std::string, handler> handlers;
  std::vector<request> received;
  std::size_t accepted = 0;
  bool close_after_response = false;
  std::thread thread;

  handler find_handler(const std::string& path) const {
    std::lock_guard lock{mutex};
    const auto it = handlers.find(path);
    return it == handlers.end() ? handler{} : it->second;
  }

  asio::awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, socket] = co_await acceptor.async_accept(use_tuple);
      if (ec) co_return;
      {
        std::lock_guard lock{mutex};
        ++accepted;
      }
      asio::co_spawn(context, session(beast::tcp_stream{std::move(socket)}), asio::detached);
    }
  }

  asio::awaitable<void> session(beast::tcp_stream stream) {
    beast::flat_buffer buffer;
    for (;;) {
      http::request<http::string_body> message;
      if (auto [ec, n] = co_await http::async_read(stream, buffer, message, use_tuple); ec)
        co_return;
      request req{std::string(message.method_string()), std::string(message.target()), {}};
      for (const auto& field : message)
        req.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
      {
        std::lock_guard lock{mutex};
        received.push_back(req);
      }

      const auto h = find_handler(path_of(req.target));
      // (No co_await inside a conditional expression: GCC 12 miscompiles that.)
      reply answer = response{404, "text/html", "Not Found"};
      if (h) answer = co_await h(req);
      if (const auto* bad = std::get_if<misbehaviour>(&answer)) {
        auto& socket = stream.socket();
        if (*bad == misbehaviour::reset) socket.set_option(asio::socket_base::linger{true, 0});
        boost::system::error_code ignored;
        socket.close(ignored);
        co_return;
      }
      if (const auto* raw = std::get_if<raw_bytes>(&answer)) {
        co_await asio::async_write(stream, asio::buffer(raw->bytes), use_tuple);
        boost::system::error_code ignored;
        stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
        co_return;
      }
      const auto& out = std::get<response>(answer);
      http::response<http::string_body> reply_message{static_cast<http::status>(out.status),
                                                      message.version()};
      if (!out.content_type.empty()) reply_message.set(http::field::content_type, out.content_type);
      for (const auto& [name, value] : out.headers)
        reply_message.set(name, value);
      reply_message.body() = out.body;
      reply_message.keep_alive(message.keep_alive());
      reply_message.prepare_payload();
      if (auto [ec, n] = co_await http::async_write(stream, reply_message, use_tuple); ec)
        co_return;
      bool close_now = !reply_message.keep_alive();
      {
        std::lock_guard lock{mutex};
        close_now = close_now || close_after_response;
      }
      if (close_now) {
        boost::system::error_code ignored;
        stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
        co_return;
      }
    }
  }
};

test_server::test_server() : impl_(std::make_unique<impl>()) {
  asio::co_spawn(impl_->context, impl_->accept_loop(), asio::detached);
  impl_->thread = std::thread([this] { impl_->context.run(); });
}

test_server::~test_server() {
  impl_->context.stop();
  impl_->thread.join();
}

std::uint16_t test_server::port() const {
  return impl_->acceptor.local_endpoint().port();
}

std::string test_server::url(std::string_view path) const {
  return "http://127.0.0.1:" + std::to_string(port()) + std::string(path);
}

std::string test_server::add_page(const std::string& path, const std::vector<std::string>& links,
                                  std::optional<std::string> body, std::string content_type) {
  response page{200, std::move(content_type), body ? std::move(*body) : page_with_links(links)};
  add_handler(path, [page](const request&) -> asio::awaitable<reply> { co_return reply{page}; });
  return url(path);
}

std::string test_server::add_redirect(const std::string& path, std::string location,
                                      unsigned status) {
  response redirect{status, "text/html", "", {{"Location", std::move(location)}}};
  add_handler(path,
              [redirect](const request&) -> asio::awaitable<reply> { co_return reply{redirect}; });
  return url(path);
}

void test_server::add_handler(const std::string& path, handler h) {
  std::lock_guard lock{impl_->mutex};
  impl_->handlers[path] = std::move(h);
}

void test_server::close_after_each_response(bool on) {
  std::lock_guard lock{impl_->mutex};
  impl_->close_after_response = on;
}

std::size_t test_server::requests_for(const std::string& path) const {
  std::lock_guard lock{impl_->mutex};
  std::size_t count = 0;
  for (const auto& r : impl_->received)
    count += path_of(r.target) == path;
  return count;
}

std::size_t test_server::connections() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->accepted;
}

std::vector<request> test_server::requests() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->received;
}

}  // namespace corocrawl::testing
