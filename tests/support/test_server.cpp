#include "test_server.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/bio.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "loopback_listener.hpp"
#include "sys/use_tuple.hpp"

namespace corocrawl::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

namespace {

using tls_stream = beast::ssl_stream<beast::tcp_stream>;

std::string page_with_links(const std::vector<std::string>& links) {
  std::string body;
  for (const auto& link : links)
    body += "<a href=\"" + link + "\"></a>";
  return body;
}

/// Whether neither side has started closing the connection on `socket` (Linux TCP_INFO).
bool is_established(tcp::socket::native_handle_type socket) {
  tcp_info info{};
  socklen_t size = sizeof info;
  return getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &size) == 0 &&
         info.tcpi_state == TCP_ESTABLISHED;
}

/// Decrypted or still encrypted bytes that TLS holds but the socket no longer shows.
bool holds_unread_bytes(beast::tcp_stream&) {
  return false;
}

bool holds_unread_bytes(tls_stream& stream) {
  SSL* ssl = stream.native_handle();
  return SSL_pending(ssl) > 0 || BIO_ctrl_pending(SSL_get_rbio(ssl)) > 0;
}

/// Whether the next request starts arriving (or the client closes) within `timeout`.
template <class Stream>
asio::awaitable<bool> request_arrives(Stream& stream, const beast::flat_buffer& buffer,
                                      std::chrono::milliseconds timeout) {
  if (buffer.size() > 0 || holds_unread_bytes(stream)) co_return true;
  auto& socket = beast::get_lowest_layer(stream).socket();
  asio::steady_timer timer{socket.get_executor(), timeout};
  auto [order, wait_error, timer_error] =
      co_await asio::experimental::make_parallel_group(
          socket.async_wait(tcp::socket::wait_read, asio::deferred),
          timer.async_wait(asio::deferred))
          .async_wait(asio::experimental::wait_for_one(), asio::use_awaitable);
  co_return order[0] == 0;
}

/// Ends the connection from the server's side: FIN.
asio::awaitable<void> close_gracefully(beast::tcp_stream& stream) {
  boost::system::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  co_return;
}

/// Ends a TLS connection from the server's side: close_notify, so that a client reading to
/// the end sees a clean end rather than a truncation, then FIN at once. Like most servers it
/// does not wait for the client's close_notify (marking it received makes SSL_shutdown
/// complete after sending its own).
asio::awaitable<void> close_gracefully(tls_stream& stream) {
  SSL_set_shutdown(stream.native_handle(), SSL_RECEIVED_SHUTDOWN);
  beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(1));
  co_await stream.async_shutdown(use_tuple);
  boost::system::error_code ignored;
  beast::get_lowest_layer(stream).socket().shutdown(tcp::socket::shutdown_both, ignored);
}

}  // namespace

asio::awaitable<void> sleep_for(std::chrono::milliseconds duration) {
  asio::steady_timer timer{co_await asio::this_coro::executor, duration};
  co_await timer.async_wait(use_tuple);
}

handler never_answers() {
  return [](const request&) -> asio::awaitable<reply> {
    co_await sleep_for(std::chrono::minutes(1));
    co_return response{};
  };
}

struct test_server::impl {
  /// An accepted connection that counts as open for peak_connections(). Released when the
  /// server starts closing the connection, at the latest when its session ends.
  class connection_slot {
   public:
    connection_slot(impl& owner, tcp::socket::native_handle_type socket)
        : owner_(&owner), socket_(socket) {}
    connection_slot(connection_slot&& other) noexcept
        : owner_(std::exchange(other.owner_, nullptr)), socket_(other.socket_) {}
    connection_slot(const connection_slot&) = delete;
    connection_slot& operator=(const connection_slot&) = delete;
    connection_slot& operator=(connection_slot&&) = delete;
    ~connection_slot() { release(); }
    /// Call before the socket is closed: its descriptor may be reused by the next accept.
    void release() {
      if (owner_ != nullptr) std::exchange(owner_, nullptr)->open_sockets.erase(socket_);
    }

   private:
    impl* owner_;
    tcp::socket::native_handle_type socket_;
  };

  // Declared before the listener: sessions still pending when its io_context is destroyed
  // release their slots as their frames go, and that touches these members.
  mutable std::mutex mutex;  // guards what tests read and write from their own thread
  std::map<std::string, handler, std::less<>> handlers;
  request_log<request> received;
  std::size_t accepted = 0;
  std::size_t peak = 0;
  bool close_after_response = false;
  std::optional<std::chrono::milliseconds> keep_alive_timeout;
  std::set<tcp::socket::native_handle_type> open_sockets;  // server thread only
  std::optional<asio::ssl::context> tls;
  loopback_listener listener;  // last: destroyed first

  explicit impl(const std::optional<tls_identity>& identity) {
    if (!identity) return;
    tls.emplace(asio::ssl::context::tls_server);
    tls->use_certificate_chain(asio::buffer(identity->certificate_chain_pem));
    tls->use_private_key(asio::buffer(identity->private_key_pem), asio::ssl::context::pem);
  }

  handler find_handler(std::string_view path) const {
    std::lock_guard lock{mutex};
    const auto it = handlers.find(path);
    return it == handlers.end() ? handler{} : it->second;
  }

  asio::awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, socket] = co_await listener.acceptor().async_accept(use_tuple);
      if (ec) co_return;
      // Connections whose client already closed them are gone as far as the client knows.
      std::size_t open = 1;
      for (const auto other : open_sockets)
        open += is_established(other);
      open_sockets.insert(socket.native_handle());
      {
        std::lock_guard lock{mutex};
        ++accepted;
        peak = std::max(peak, open);
      }
      connection_slot slot{*this, socket.native_handle()};
      asio::co_spawn(listener.context(), session(std::move(socket), std::move(slot)),
                     asio::detached);
    }
  }

  asio::awaitable<void> session(tcp::socket socket, connection_slot slot) {
    if (!tls) {
      beast::tcp_stream stream{std::move(socket)};
      co_await serve(stream, slot);
      co_return;
    }
    tls_stream stream{std::move(socket), *tls};
    if (auto [ec] = co_await stream.async_handshake(asio::ssl::stream_base::server, use_tuple); ec)
      co_return;
    co_await serve(stream, slot);
  }

  template <class Stream>
  asio::awaitable<void> serve(Stream& stream, connection_slot& slot) {
    beast::flat_buffer buffer;
    for (bool first = true;; first = false) {
      std::optional<std::chrono::milliseconds> idle_timeout;
      {
        std::lock_guard lock{mutex};
        idle_timeout = keep_alive_timeout;
      }
      if (!first && idle_timeout) {
        const bool arrives = co_await request_arrives(stream, buffer, *idle_timeout);
        if (!arrives) {
          slot.release();
          co_await close_gracefully(stream);
          co_return;
        }
      }

      http::request<http::string_body> message;
      if (auto [ec, n] = co_await http::async_read(stream, buffer, message, use_tuple); ec)
        co_return;
      request req{std::string(message.method_string()),
                  std::string(message.target()),
                  {},
                  std::chrono::steady_clock::now()};
      for (const auto& field : message)
        req.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
      received.add(req);

      const auto h = find_handler(req.path());
      // (No co_await inside a conditional expression: GCC 12 miscompiles that.)
      reply answer = response{404, "text/html", "Not Found"};
      if (h) answer = co_await h(req);
      if (const auto* bad = std::get_if<misbehaviour>(&answer)) {
        slot.release();
        auto& socket = beast::get_lowest_layer(stream).socket();
        if (*bad == misbehaviour::reset) socket.set_option(asio::socket_base::linger{true, 0});
        boost::system::error_code ignored;
        socket.close(ignored);
        co_return;
      }
      if (const auto* raw = std::get_if<raw_bytes>(&answer)) {
        co_await asio::async_write(stream, asio::buffer(raw->bytes), use_tuple);
        slot.release();
        co_await close_gracefully(stream);
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
      if (message.method() == http::verb::head) {
        // As a GET would be answered, Content-Length included, but without the body.
        http::response_serializer<http::string_body> serializer{reply_message};
        if (auto [ec, n] = co_await http::async_write_header(stream, serializer, use_tuple); ec)
          co_return;
      } else if (auto [ec, n] = co_await http::async_write(stream, reply_message, use_tuple); ec) {
        co_return;
      }
      bool close_now = !reply_message.keep_alive();
      {
        std::lock_guard lock{mutex};
        close_now = close_now || close_after_response;
      }
      if (close_now) {
        slot.release();
        co_await close_gracefully(stream);
        co_return;
      }
    }
  }
};

test_server::test_server(std::optional<tls_identity> tls) : impl_(std::make_unique<impl>(tls)) {
  impl_->listener.start(impl_->accept_loop());
}

test_server::~test_server() = default;

std::uint16_t test_server::port() const {
  return impl_->listener.port();
}

std::string test_server::url(std::string_view path) const {
  return origin("127.0.0.1") + std::string(path);
}

std::string test_server::origin(std::string_view host) const {
  return impl_->listener.origin(impl_->tls ? "https" : "http", host);
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

void test_server::set_keep_alive_timeout(std::chrono::milliseconds timeout) {
  std::lock_guard lock{impl_->mutex};
  impl_->keep_alive_timeout = timeout;
}

std::size_t test_server::requests_for(const std::string& path) const {
  return impl_->received.count_for(path);
}

bool test_server::wait_for_requests(const std::string& path, std::size_t n,
                                    std::chrono::milliseconds timeout) const {
  return impl_->received.wait_for(path, n, timeout);
}

std::size_t test_server::connections() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->accepted;
}

std::size_t test_server::peak_connections() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->peak;
}

std::vector<request> test_server::requests() const {
  return impl_->received.all();
}

}  // namespace corocrawl::testing
