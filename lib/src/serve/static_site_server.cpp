// Local folder mode's web server: serves a directory of built HTML on 127.0.0.1 so the crawler
// can fetch it like any other site. One io_context on a thread of its own, one coroutine per
// connection; everything but the constructor and destructor runs on that thread.
#include "serve/static_site_server.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_generator.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <chrono>
#include <exception>
#include <limits>
#include <new>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "http/content_type.hpp"
#include "serve/confined_directory.hpp"

namespace corocrawl {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// A client that keeps a connection open without sending anything is dropped after this.
constexpr std::chrono::seconds idle_timeout{30};
constexpr std::chrono::seconds write_timeout{30};
// Only GET and HEAD are served, so bodies are never needed; small limits keep a misbehaving
// client from making us buffer much.
constexpr std::uint64_t request_body_limit = 8 * 1024;
constexpr std::uint32_t request_header_limit = 16 * 1024;

constexpr std::string_view server_name = "corocrawl";
constexpr std::string_view html_type = "text/html; charset=utf-8";

using request = http::request<http::string_body>;
using response = http::response<http::string_body>;

std::string_view path_part(std::string_view target) {
  return target.substr(0, target.find_first_of("?#"));
}

std::string_view to_std(beast::string_view text) {
  return {text.data(), text.size()};
}

// The whole of an open file; nullopt when reading fails.
std::optional<std::string> read_all(int fd, std::size_t expected_size) {
  std::string body;
  body.reserve(expected_size);
  if (read_up_to(fd, std::numeric_limits<std::size_t>::max(), body)) return std::nullopt;
  return body;
}

// What a request names under the root, opened: the decision what it is (directory, file,
// nothing servable) is made on the descriptor, never on a path that could change meanwhile.
struct opened_entry {
  unique_fd fd;
  struct stat status {};
};

// `relative` opened under `root`; nullopt when it is missing or would lead outside (404).
// O_NONBLOCK so that a FIFO in the folder cannot stall the server thread on open.
std::optional<opened_entry> open_entry(const confined_directory& root, std::string_view relative) {
  std::error_code ec;
  opened_entry entry{root.open(relative, O_RDONLY | O_NONBLOCK, ec)};
  if (!entry.fd) {
    if (ec != std::errc::no_such_file_or_directory)
      spdlog::debug("static site: cannot open {}: {}", relative, ec.message());
    return std::nullopt;
  }
  if (::fstat(entry.fd.get(), &entry.status) != 0) return std::nullopt;
  return entry;
}

response make_response(http::status status, unsigned version, bool keep_alive,
                       std::string_view type, std::string body) {
  response res{status, version};
  res.set(http::field::server, server_name);
  res.set(http::field::content_type, type);
  res.keep_alive(keep_alive);
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

// A small HTML page that names the status, for every answer but 200.
response make_status_page(http::status status, unsigned version, bool keep_alive) {
  const auto reason = to_std(http::obsolete_reason(status));
  std::string title = std::to_string(static_cast<unsigned>(status));
  title += ' ';
  title += reason;
  std::string body = "<!DOCTYPE html>\n<html><head><title>" + title + "</title></head><body><h1>" +
                     title + "</h1></body></html>\n";
  return make_response(status, version, keep_alive, html_type, std::move(body));
}

// A HEAD answer carries the headers a GET would, Content-Length included, but no body.
http::message_generator finish(const request& req, response res) {
  if (req.method() != http::verb::head) return http::message_generator{std::move(res)};
  const auto length = res.body().size();
  http::response<http::empty_body> head{std::move(res.base())};
  head.content_length(length);
  return http::message_generator{std::move(head)};
}

// Where a site mounted at `mount` ("/docs/") lies below a request target: "/docs/a.html" is
// "/a.html"; nullopt for a target outside the mount.
std::optional<std::string_view> below_mount(std::string_view target, std::string_view mount) {
  if (!target.starts_with(mount)) return std::nullopt;
  return target.substr(mount.size() - 1);
}

http::message_generator handle_request(const confined_directory& root, std::string_view mount,
                                       const request& req) {
  const auto version = req.version();
  const bool keep_alive = req.keep_alive();
  const auto full_target = to_std(req.target());
  const auto answer = [&](http::status status) {
    return finish(req, make_status_page(status, version, keep_alive));
  };

  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    auto res = make_status_page(http::status::method_not_allowed, version, keep_alive);
    res.set(http::field::allow, "GET, HEAD");
    return finish(req, std::move(res));
  }

  // The mount itself without its final '/' is a directory like any other: redirected.
  const std::string_view mount_prefix = mount.substr(0, mount.size() - 1);
  if (!mount_prefix.empty() && path_part(full_target) == mount_prefix) {
    auto res = make_status_page(http::status::moved_permanently, version, keep_alive);
    auto query = full_target.substr(mount_prefix.size());
    res.set(http::field::location,
            std::string(mount) + std::string(query.substr(0, query.find('#'))));
    return finish(req, std::move(res));
  }
  const auto below = below_mount(full_target, mount);
  if (!below) return answer(http::status::not_found);
  const std::string_view target = *below;
  auto relative = target_to_relative_path(target);
  if (!relative) return answer(http::status::not_found);
  auto entry = open_entry(root, *relative);
  if (!entry) return answer(http::status::not_found);

  const auto dir = path_part(target);
  if (S_ISDIR(entry->status.st_mode)) {
    if (!dir.ends_with('/')) {
      // Relative links in the directory's index only resolve against "dir/".
      auto query = target.substr(dir.size());
      query = query.substr(0, query.find('#'));
      // A leading "//" would make the Location protocol-relative, i.e. another host.
      std::string location(mount);
      location += dir.substr(dir.find_first_not_of('/'));
      location += '/';
      location += query;
      auto res = make_status_page(http::status::moved_permanently, version, keep_alive);
      res.set(http::field::location, location);
      return finish(req, std::move(res));
    }
    // Opened from the root again, under the same rule, so an index.html symlinked outside
    // stays hidden.
    *relative += "/index.html";
    entry = open_entry(root, *relative);
    if (!entry) return answer(http::status::not_found);
  } else if (dir.ends_with('/')) {
    return answer(http::status::not_found);  // "page.html/" names no directory
  }
  if (!S_ISREG(entry->status.st_mode)) return answer(http::status::not_found);

  auto body = read_all(entry->fd.get(), static_cast<std::size_t>(entry->status.st_size));
  if (!body) {
    spdlog::debug("static site: cannot read {}", *relative);
    return answer(http::status::internal_server_error);
  }
  return finish(req, make_response(http::status::ok, version, keep_alive,
                                   content_type_for_path(*relative), std::move(*body)));
}

// The answer to a request that could not be parsed; the connection is closed after it.
std::optional<response> parse_error_response(const beast::error_code& ec) {
  if (ec == http::error::body_limit)
    return make_status_page(http::status::payload_too_large, 11, false);
  if (ec == http::error::header_limit)
    return make_status_page(http::status::request_header_fields_too_large, 11, false);
  if (ec.category() == beast::error_code{http::error::bad_target}.category() &&
      ec != http::error::partial_message)
    return make_status_page(http::status::bad_request, 11, false);
  return std::nullopt;  // the client went away or the socket failed: nobody to answer
}

}  // namespace

struct static_site_server::impl {
  impl(fs::path root, std::string mount);
  ~impl();
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;

  asio::awaitable<void> accept_loop();
  asio::awaitable<void> session(tcp::socket socket);
  // On the server's thread, when memory ran out there.
  void ran_out_of_memory(std::string_view dropped) noexcept;

  confined_directory root_;
  std::string mount_;  // "/" or "/docs/"
  asio::io_context io_{1};
  tcp::acceptor acceptor_{io_};
  std::uint16_t port_ = 0;
  // Open connections, so the destructor can close them; only touched on the server thread.
  std::set<beast::tcp_stream*> sessions_;
  bool closing_ = false;
  std::atomic<bool> out_of_memory_{false};
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

static_site_server::impl::impl(fs::path root, std::string mount)
    : root_(root), mount_(std::move(mount)) {
  const tcp::endpoint endpoint{asio::ip::address_v4::loopback(), 0};
  beast::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw std::system_error(std::error_code(ec), "cannot listen on 127.0.0.1");
  port_ = acceptor_.local_endpoint().port();

  asio::co_spawn(io_, accept_loop(), asio::detached);
  thread_ = std::thread([this] {
    // A handler that throws (memory ran out) ends only what it was doing: the loop goes on
    // serving the other connections until the destructor closes them.
    for (;;) {
      try {
        io_.run();
        return;
      } catch (const std::bad_alloc&) {
        ran_out_of_memory("a handler failed");
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
      // Out of file descriptors and the like: wait a little instead of spinning.
      spdlog::debug("static site: accept failed: {}", ec.message());
      backoff.expires_after(std::chrono::milliseconds(50));
      co_await backoff.async_wait(use_tuple);
    } catch (const std::bad_alloc&) {
      ran_out_of_memory("a connection was dropped");
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
        auto answer = parse_error_response(read_ec);
        if (!answer) break;
        spdlog::debug("static site: bad request: {}", read_ec.message());
        stream.expires_after(write_timeout);
        co_await http::async_write(stream, *answer, use_tuple);
        break;
      }
      const request& req = parser.get();
      auto message = handle_request(root_, mount_, req);
      const bool keep_alive = message.keep_alive();
      spdlog::debug("static site: {} {}", to_std(req.method_string()), to_std(req.target()));
      stream.expires_after(write_timeout);
      auto [write_ec, write_bytes] =
          co_await beast::async_write(stream, std::move(message), use_tuple);
      if (write_ec || !keep_alive) break;
    }
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  } catch (const std::bad_alloc&) {
    ran_out_of_memory("connection dropped");
  } catch (const std::exception& e) {
    spdlog::debug("static site: connection dropped: {}", e.what());
  }
}

void static_site_server::impl::ran_out_of_memory(std::string_view dropped) noexcept {
  out_of_memory_ = true;
  spdlog::debug("static site: {}: out of memory", dropped);
}

static_site_server::static_site_server(fs::path root, std::string mount)
    : impl_(std::make_unique<impl>(std::move(root), std::move(mount))) {}

static_site_server::~static_site_server() = default;

std::uint16_t static_site_server::port() const {
  return impl_->port_;
}

bool static_site_server::ran_out_of_memory() const {
  return impl_->out_of_memory_;
}

std::string static_site_server::url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->port_) + impl_->mount_;
}

}  // namespace corocrawl
