// Local folder mode's web server: serves a directory of built HTML on 127.0.0.1 so the crawler
// can fetch it like any other site. One io_context on a thread of its own, one coroutine per
// connection; everything but the constructor and destructor runs on that thread.
#include "serve/static_site_server.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/buffers_generator.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <chrono>
#include <exception>
#include <new>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "serve/confined_directory.hpp"
#include "serve/site_answers.hpp"
#include "sys/unique_fd.hpp"
#include "sys/use_tuple.hpp"

namespace corocrawl {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;

// A client that keeps a connection open without sending anything is dropped after this.
constexpr std::chrono::seconds idle_timeout{30};
constexpr std::chrono::seconds write_timeout{30};
// Only GET and HEAD are served, so bodies are never needed; small limits keep a misbehaving
// client from making us buffer much.
constexpr std::uint64_t request_body_limit = 8 * 1024;
constexpr std::uint32_t request_header_limit = 16 * 1024;

}  // namespace

struct static_site_server::impl {
  impl(fs::path folder, std::string mount);
  ~impl();
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;

  asio::awaitable<void> accept_loop();
  asio::awaitable<void> session(tcp::socket socket);
  // On the server's thread, when its own limits failed it (see trouble()); the first wins.
  void note(server_trouble trouble, std::string_view what) noexcept;
  void drop_waiting_connection();

  confined_directory root_;
  std::string mount_;  // "/" or "/docs/"
  asio::io_context io_{1};
  tcp::acceptor acceptor_{io_};
  std::uint16_t port_ = 0;
  // Open connections, so the destructor can close them; only touched on the server thread.
  std::set<beast::tcp_stream*> sessions_;
  bool closing_ = false;
  std::atomic<server_trouble> trouble_{server_trouble::none};
  // Readable once there is trouble: written without allocating, on a thread short of memory.
  unique_fd trouble_event_{::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)};
  // Closed to make room when no descriptor is left (see drop_waiting_connection).
  unique_fd spare_{::open("/dev/null", O_RDONLY | O_CLOEXEC)};
  std::thread thread_;
};

namespace {

// Keeps a session listed in impl::sessions_ for exactly as long as its stream lives.
class session_registration {
 public:
  session_registration(std::set<beast::tcp_stream*>& sessions, beast::tcp_stream& stream)
      : sessions_(sessions), stream_(&stream) {
    sessions_.insert(stream_);
  }
  ~session_registration() { sessions_.erase(stream_); }
  session_registration(const session_registration&) = delete;
  session_registration& operator=(const session_registration&) = delete;

 private:
  std::set<beast::tcp_stream*>& sessions_;
  beast::tcp_stream* stream_;
};

}  // namespace

static_site_server::impl::impl(fs::path folder, std::string mount)
    : root_(std::move(folder)), mount_(std::move(mount)) {
  const tcp::endpoint endpoint{asio::ip::address_v4::loopback(), 0};
  beast::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw std::system_error(std::error_code(ec), "cannot listen on 127.0.0.1");
  port_ = acceptor_.local_endpoint().port();

  asio::co_spawn(io_, accept_loop(), asio::detached);
  thread_ = std::thread([this] {
    // A handler that throws (memory ran out) ends only what it was doing, and should that
    // have been the accept loop (Asio destroys a coroutine whose operation could not start),
    // the loop starts again: the server serves until the destructor closes it.
    for (;;) {
      try {
        io_.run();
        if (closing_) return;
        io_.restart();
        asio::co_spawn(io_, accept_loop(), asio::detached);
      } catch (const std::bad_alloc&) {
        note(server_trouble::out_of_memory, "a handler failed");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));  // not a busy loop
      } catch (const std::exception& e) {
        spdlog::debug("static site: a handler failed: {}", e.what());
      }
    }
  });
}

static_site_server::impl::~impl() {
  // Closing every socket makes each pending operation complete, so every coroutine finishes
  // and run() returns on its own; nothing is left half-done for ~io_context to destroy.
  asio::post(io_, [this] {
    closing_ = true;
    beast::error_code ignored;
    acceptor_.close(ignored);
    for (auto* stream : sessions_)
      stream->close();
  });
  if (thread_.joinable()) thread_.join();
}

// No exception leaves the loop or a session: a coroutine an exception ends has its frame
// destroyed through a post, which throws again when memory ran out, and an exception thrown
// while one unwinds is std::terminate. When memory runs out, the connection at hand is dropped
// and the server goes on.
asio::awaitable<void> static_site_server::impl::accept_loop() {
  asio::steady_timer backoff{io_};
  for (;;) {
    try {
      auto [ec, socket] = co_await acceptor_.async_accept(use_tuple);
      if (closing_ || !acceptor_.is_open()) co_return;
      if (!ec) {
        asio::co_spawn(io_, session(std::move(socket)), asio::detached);
        continue;
      }
      spdlog::debug("static site: accept failed: {}", ec.message());
      if (const server_trouble trouble = trouble_of(ec); trouble != server_trouble::none) {
        note(trouble, "a connection was not accepted");
        if (trouble == server_trouble::out_of_descriptors) drop_waiting_connection();
      }
      // Out of file descriptors and the like: wait a little instead of spinning.
      backoff.expires_after(std::chrono::milliseconds(50));
      co_await backoff.async_wait(use_tuple);
    } catch (const std::bad_alloc&) {
      note(server_trouble::out_of_memory, "a connection was dropped");
    } catch (const std::exception& e) {
      spdlog::debug("static site: a connection was dropped: {}", e.what());
    }
  }
}

asio::awaitable<void> static_site_server::impl::session(tcp::socket socket) {
  try {
    beast::tcp_stream stream{std::move(socket)};
    if (closing_) co_return;
    const session_registration registration{sessions_, stream};
    beast::flat_buffer buffer;
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.header_limit(request_header_limit);
      parser.body_limit(request_body_limit);
      stream.expires_after(idle_timeout);
      auto [read_ec, read_bytes] = co_await http::async_read(stream, buffer, parser, use_tuple);
      if (read_ec) {
        auto answer = site::answer_to_unreadable(read_ec);
        if (!answer) break;
        spdlog::debug("static site: bad request: {}", read_ec.message());
        stream.expires_after(write_timeout);
        co_await http::async_write(stream, *answer, use_tuple);
        break;
      }
      const site::request& req = parser.get();
      auto trouble = server_trouble::none;
      auto message = site::answer(root_, mount_, req, trouble);
      if (trouble != server_trouble::none) note(trouble, "answered 503");
      const bool keep_alive = message.keep_alive();
      spdlog::debug("static site: {} {}", site::to_std(req.method_string()),
                    site::to_std(req.target()));
      stream.expires_after(write_timeout);
      auto [write_ec, write_bytes] =
          co_await beast::async_write(stream, std::move(message), use_tuple);
      if (write_ec || !keep_alive) break;
    }
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  } catch (const std::bad_alloc&) {
    note(server_trouble::out_of_memory, "connection dropped");
  } catch (const std::exception& e) {
    spdlog::debug("static site: connection dropped: {}", e.what());
  }
}

void static_site_server::impl::note(server_trouble trouble, std::string_view what) noexcept {
  auto none = server_trouble::none;
  if (trouble_.compare_exchange_strong(none, trouble) && trouble_event_) {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(trouble_event_.get(), &one, sizeof one);
  }
  spdlog::debug("static site: {}: {}", what, trouble_text(trouble));
}

// A connection the backlog holds while no descriptor is left would wait there, and its
// client with it, until its request timed out: the spare descriptor makes room to accept it
// and close it at once, so that its client knows.
void static_site_server::impl::drop_waiting_connection() {
  if (!spare_) return;
  spare_ = unique_fd();
  beast::error_code ec;
  acceptor_.non_blocking(true, ec);
  tcp::socket waiting{io_};
  acceptor_.accept(waiting, ec);
  waiting.close(ec);
  acceptor_.non_blocking(false, ec);
  spare_ = unique_fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
}

static_site_server::static_site_server(fs::path folder, std::string mount)
    : impl_(std::make_unique<impl>(std::move(folder), std::move(mount))) {}

static_site_server::~static_site_server() = default;

std::uint16_t static_site_server::port() const {
  return impl_->port_;
}

server_trouble static_site_server::trouble() const {
  return impl_->trouble_;
}

int static_site_server::trouble_event() const {
  return impl_->trouble_event_.get();
}

std::string_view trouble_text(server_trouble trouble) {
  switch (trouble) {
    case server_trouble::none:
      return "none";
    case server_trouble::out_of_memory:
      return "out of memory while serving the folder";
    case server_trouble::out_of_descriptors:
      return "no file descriptor was left to serve the folder (see ulimit -n)";
  }
  return "unknown";
}

server_trouble trouble_of(const std::error_code& ec) {
  if (ec == std::errc::too_many_files_open || ec == std::errc::too_many_files_open_in_system)
    return server_trouble::out_of_descriptors;
  if (ec == std::errc::not_enough_memory || ec == std::errc::no_buffer_space)
    return server_trouble::out_of_memory;
  return server_trouble::none;
}

std::string static_site_server::url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->port_) + impl_->mount_;
}

}  // namespace corocrawl
