// Local folder mode's web server: serves a directory of built HTML on 127.0.0.1 so the crawler
// can fetch it like any other site. One io_context on a thread of its own, one connection
// object per client; everything but the constructor and destructor runs on that thread.
#include "serve/static_site_server.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
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
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "serve/confined_directory.hpp"
#include "serve/site_answers.hpp"
#include "sys/unique_fd.hpp"

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

  class connection;
  void serve();
  void accept();
  void on_accept(const beast::error_code& ec, tcp::socket socket);
  // On the server's thread, when its own limits failed it (see trouble()); the first wins.
  void note(server_trouble trouble, std::string_view what) noexcept;
  void drop_waiting_connection();

  confined_directory root_;
  std::string mount_;  // "/" or "/docs/"
  asio::io_context io_{1};
  tcp::acceptor acceptor_{io_};
  asio::steady_timer backoff_{io_};
  std::uint16_t port_ = 0;
  // An accept, or the pause after a failed one, is pending; false once memory failed one.
  bool accepting_ = false;
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

// One client's connection: reads a request, answers it, and again while the client keeps it
// alive. Owned by the handler of its pending operation, so it closes when no operation is left.
class static_site_server::impl::connection : public std::enable_shared_from_this<connection> {
 public:
  connection(impl& server, tcp::socket socket)
      : server_(server), stream_(std::move(socket)), registration_(server.sessions_, stream_) {}

  void read_request() {
    parser_.emplace();
    parser_->header_limit(request_header_limit);
    parser_->body_limit(request_body_limit);
    stream_.expires_after(idle_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](const beast::error_code& ec, std::size_t) {
                       self->on_request(ec);
                     });
  }

 private:
  void on_request(const beast::error_code& ec) {
    if (server_.closing_) return;
    if (ec) {
      auto answer = site::answer_to_unreadable(ec);
      if (!answer) return finish();
      spdlog::debug("static site: bad request: {}", ec.message());
      return write(http::message_generator(std::move(*answer)), false);
    }
    const site::request& req = parser_->get();
    auto trouble = server_trouble::none;
    auto message = site::answer(server_.root_, server_.mount_, req, trouble);
    if (trouble != server_trouble::none) server_.note(trouble, "answered 503");
    spdlog::debug("static site: {} {}", site::to_std(req.method_string()),
                  site::to_std(req.target()));
    const bool keep_alive = message.keep_alive();
    write(std::move(message), keep_alive);
  }

  void write(http::message_generator message, bool keep_alive) {
    stream_.expires_after(write_timeout);
    beast::async_write(
        stream_, std::move(message),
        [self = shared_from_this(), keep_alive](const beast::error_code& ec, std::size_t) {
          if (self->server_.closing_) return;
          if (ec || !keep_alive) return self->finish();
          self->read_request();
        });
  }

  void finish() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  impl& server_;
  beast::tcp_stream stream_;
  session_registration registration_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

static_site_server::impl::impl(fs::path folder, std::string mount)
    : root_(std::move(folder)), mount_(std::move(mount)) {
  const tcp::endpoint endpoint{asio::ip::address_v4::loopback(), 0};
  beast::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw std::system_error(std::error_code(ec), "cannot listen on 127.0.0.1");
  port_ = acceptor_.local_endpoint().port();
  thread_ = std::thread([this] { serve(); });
}

static_site_server::impl::~impl() {
  // Closing every socket makes each pending operation complete, so every handler finishes
  // and run() returns on its own; nothing is left half-done for ~io_context to destroy.
  asio::post(io_, [this] {
    closing_ = true;
    beast::error_code ignored;
    backoff_.cancel();
    acceptor_.close(ignored);
    for (auto* stream : sessions_)
      stream->close();
  });
  if (thread_.joinable()) thread_.join();
}

// The server's thread. Memory that runs out on it throws out of the handler at hand, and
// out of run(): the connection that handler held is closed as the exception unwinds it, and
// the server goes on, accepting again should the accept have been what failed (accepting_ is
// set only once an accept or its pause has started). The server is written with callbacks,
// not coroutines, for that: Asio 1.81 destroys a coroutine whose operation could not start,
// unresumed, through a post from a destructor, and nothing of ours would learn of it.
void static_site_server::impl::serve() {
  for (;;) {
    try {
      if (!accepting_ && !closing_) accept();
      io_.restart();
      io_.run();
      if (closing_) return;
    } catch (const std::bad_alloc&) {
      note(server_trouble::out_of_memory, "a connection was dropped");
      std::this_thread::sleep_for(std::chrono::milliseconds(1));  // not a busy loop
    } catch (const std::exception& e) {
      spdlog::debug("static site: a connection was dropped: {}", e.what());
    }
  }
}

void static_site_server::impl::accept() {
  acceptor_.async_accept([this](const beast::error_code& ec, tcp::socket socket) {
    on_accept(ec, std::move(socket));
  });
  accepting_ = true;
}

void static_site_server::impl::on_accept(const beast::error_code& ec, tcp::socket socket) {
  accepting_ = false;
  if (closing_ || !acceptor_.is_open()) return;
  if (!ec) {
    accept();
    std::make_shared<connection>(*this, std::move(socket))->read_request();
    return;
  }
  spdlog::debug("static site: accept failed: {}", ec.message());
  if (const server_trouble trouble = trouble_of(ec); trouble != server_trouble::none) {
    note(trouble, "a connection was not accepted");
    if (trouble == server_trouble::out_of_descriptors) drop_waiting_connection();
  }
  // Out of file descriptors and the like: wait a little instead of spinning.
  backoff_.expires_after(std::chrono::milliseconds(50));
  backoff_.async_wait([this](const beast::error_code&) {
    accepting_ = false;
    if (!closing_) accept();
  });
  accepting_ = true;
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
