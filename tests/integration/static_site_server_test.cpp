// Local folder mode's web server: the target-to-path mapping on its own (no sockets), then the
// server for real over 127.0.0.1 with a small Beast client, raw bytes where a real client
// would have cleaned the request up first.
#include "serve/static_site_server.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>

#include "temp_dir.hpp"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;
using corocrawl::map_target_to_path;
using corocrawl::static_site_server;

// A safety net so a broken server fails a test instead of hanging it; not an assertion.
constexpr std::chrono::seconds io_deadline{10};

void write_file(const fs::path& path, std::string_view content) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  ASSERT_TRUE(out.good()) << path;
}

// A fresh directory per test: `root` holds the site, `outside` sits next to it.
class temp_dirs : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(root_);
    fs::create_directories(outside_);
  }

  corocrawl::testing::temp_dir temp_;
  const fs::path base_ = temp_.path();
  const fs::path root_ = base_ / "root";
  const fs::path outside_ = base_ / "outside";
};

// ---------------------------------------------------------------------------------------------
// map_target_to_path

using map_target = temp_dirs;

TEST_F(map_target, MapsPathsUnderTheRoot) {
  EXPECT_EQ(map_target_to_path(root_, "/"), root_);
  EXPECT_EQ(map_target_to_path(root_, "/index.html"), root_ / "index.html");
  EXPECT_EQ(map_target_to_path(root_, "/docs/guide/page.html"),
            root_ / "docs" / "guide" / "page.html");  // need not exist
  EXPECT_EQ(map_target_to_path(root_, "//./docs//./page.html"), root_ / "docs" / "page.html");
  EXPECT_EQ(map_target_to_path(root_, "/docs/../index.html"), root_ / "index.html");
}

TEST_F(map_target, AcceptsARootThatIsNotCanonical) {
  fs::create_directories(root_ / "sub");
  EXPECT_EQ(map_target_to_path(root_ / "sub" / "..", "/index.html"), root_ / "index.html");
}

TEST_F(map_target, IgnoresQueryAndFragment) {
  EXPECT_EQ(map_target_to_path(root_, "/index.html?x=1&y=2"), root_ / "index.html");
  EXPECT_EQ(map_target_to_path(root_, "/index.html#top"), root_ / "index.html");
  EXPECT_EQ(map_target_to_path(root_, "/index.html#a?b"), root_ / "index.html");
  // What follows '?' is not path, even when it looks like a traversal.
  EXPECT_EQ(map_target_to_path(root_, "/?next=/../../etc/passwd"), root_);
  EXPECT_EQ(map_target_to_path(root_, "/a.html?%zz"), root_ / "a.html");
}

TEST_F(map_target, DecodesPercentEscapes) {
  EXPECT_EQ(map_target_to_path(root_, "/a%20b.html"), root_ / "a b.html");
  EXPECT_EQ(map_target_to_path(root_, "/%7euser/%C3%A9t%C3%A9.html"),
            root_ / "~user" / "\xC3\xA9t\xC3\xA9.html");
  // An encoded slash separates segments like a plain one.
  EXPECT_EQ(map_target_to_path(root_, "/docs%2Fpage.html"), root_ / "docs" / "page.html");
  EXPECT_EQ(map_target_to_path(root_, "/a+b.html"), root_ / "a+b.html");  // '+' is no space
}

TEST_F(map_target, RejectsMalformedEscapes) {
  EXPECT_EQ(map_target_to_path(root_, "/%"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/a%2"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/a%zz.html"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/%g0"), std::nullopt);
}

TEST_F(map_target, RejectsNulBytes) {
  EXPECT_EQ(map_target_to_path(root_, "/index.html%00.png"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, std::string_view("/index.html\0.png", 16)), std::nullopt);
}

TEST_F(map_target, RejectsTargetsThatAreNotOriginForm) {
  EXPECT_EQ(map_target_to_path(root_, ""), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "index.html"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "http://127.0.0.1/index.html"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "*"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "%2findex.html"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "%2e%2e/"), std::nullopt);
}

TEST_F(map_target, RejectsTraversalAboveTheRoot) {
  EXPECT_EQ(map_target_to_path(root_, "/.."), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/../etc/passwd"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/a/../../x"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/%2e%2e/"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/%2E%2E%2Foutside%2Fsecret.txt"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/.%2e/outside"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/a/b/../../../outside"), std::nullopt);
  // Three dots is an ordinary name.
  EXPECT_EQ(map_target_to_path(root_, "/..."), root_ / "...");
}

TEST_F(map_target, RejectsSymlinksLeadingOutside) {
  write_file(outside_ / "secret.txt", "secret");
  fs::create_directory_symlink(outside_, root_ / "out");
  fs::create_symlink(outside_ / "secret.txt", root_ / "leak.txt");
  fs::create_symlink("../outside/secret.txt", root_ / "relative-leak.txt");

  EXPECT_EQ(map_target_to_path(root_, "/out"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/out/secret.txt"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/out/missing.html"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/leak.txt"), std::nullopt);
  EXPECT_EQ(map_target_to_path(root_, "/relative-leak.txt"), std::nullopt);
}

TEST_F(map_target, AcceptsSymlinksStayingInside) {
  write_file(root_ / "docs" / "index.html", "<p>docs</p>");
  fs::create_directory_symlink(root_ / "docs", root_ / "latest");
  fs::create_symlink("docs/index.html", root_ / "alias.html");

  EXPECT_EQ(map_target_to_path(root_, "/latest/index.html"), root_ / "latest" / "index.html");
  EXPECT_EQ(map_target_to_path(root_, "/alias.html"), root_ / "alias.html");
}

TEST_F(map_target, AcceptsARootReachedThroughASymlink) {
  fs::create_directory_symlink(root_, base_ / "root-link");
  write_file(root_ / "index.html", "<p>hi</p>");
  const auto mapped = map_target_to_path(base_ / "root-link", "/index.html");
  ASSERT_TRUE(mapped.has_value());
  EXPECT_TRUE(fs::equivalent(*mapped, root_ / "index.html"));
}

// ---------------------------------------------------------------------------------------------
// The server over real sockets

using beast_response = http::response<http::string_body>;

// A blocking-style HTTP client; each read runs the io_context with a deadline.
class client {
 public:
  explicit client(std::uint16_t port) : stream_(io_) {
    stream_.connect(tcp::endpoint{asio::ip::address_v4::loopback(), port});
  }

  void send(http::verb method, std::string_view target, std::string body = {}) {
    http::request<http::string_body> req{method, target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.body() = std::move(body);
    req.prepare_payload();
    http::write(stream_, req);
  }

  void send_raw(std::string_view bytes) { asio::write(stream_, asio::buffer(bytes)); }

  beast_response receive() {
    beast_response res;
    run([&](auto done) { http::async_read(stream_, buffer_, res, done); });
    return res;
  }

  beast_response get(std::string_view target) {
    send(http::verb::get, target);
    return receive();
  }

  // Everything the server sends until it closes the connection.
  std::string receive_until_close() {
    std::string bytes{static_cast<const char*>(buffer_.data().data()), buffer_.size()};
    buffer_.clear();
    const auto ec = run(
        [&](auto done) { asio::async_read(stream_, asio::dynamic_buffer(bytes), done); }, false);
    EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
    return bytes;
  }

  // What the next read on the connection ends with.
  beast::error_code read_error() {
    char byte = 0;
    return run([&](auto done) { stream_.async_read_some(asio::buffer(&byte, 1), done); }, false);
  }

 private:
  template <class Start>
  beast::error_code run(Start start, bool throw_on_error = true) {
    beast::error_code result;
    bool finished = false;
    stream_.expires_after(io_deadline);
    start([&](beast::error_code ec, std::size_t) {
      result = ec;
      finished = true;
    });
    io_.restart();
    io_.run();
    EXPECT_TRUE(finished);
    if (throw_on_error && result) throw beast::system_error(result);
    return result;
  }

  asio::io_context io_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
};

// The raw response to one raw request that asks for the connection to be closed.
std::string exchange_raw(std::uint16_t port, std::string_view request) {
  client c{port};
  c.send_raw(request);
  return c.receive_until_close();
}

std::string_view status_line(std::string_view raw) {
  return raw.substr(0, raw.find("\r\n"));
}

constexpr std::string_view index_html =
    "<!DOCTYPE html>\n<html><head><title>Home</title></head>"
    "<body><a href=\"sub/\">Sub</a></body></html>\n";
constexpr std::string_view sub_index_html = "<!DOCTYPE html>\n<p>The sub index</p>\n";
constexpr std::string_view style_css = "body { color: #333; }\n";
// Bytes a text-mode read would mangle: NUL, CR LF, high bytes.
constexpr char png_raw[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\x00\r\n";
constexpr std::string_view png_bytes{png_raw, sizeof(png_raw) - 1};

class server_test : public temp_dirs {
 protected:
  void SetUp() override {
    temp_dirs::SetUp();
    write_file(root_ / "index.html", index_html);
    write_file(root_ / "style.css", style_css);
    write_file(root_ / "sub" / "index.html", sub_index_html);
    write_file(root_ / "sub" / "page.html", "<p>page</p>");
    write_file(root_ / "a b.html", "<p>spaced</p>");
    write_file(root_ / "pixel.png", png_bytes);
    fs::create_directories(root_ / "empty");
    write_file(outside_ / "secret.txt", "top secret");
    server_.emplace(root_);
  }
  void TearDown() override { server_.reset(); }

  std::uint16_t port() const { return server_->port(); }

  std::optional<static_site_server> server_;
};

TEST_F(server_test, ListensOnAnEphemeralLoopbackPort) {
  EXPECT_NE(port(), 0);
  EXPECT_EQ(server_->url(), "http://127.0.0.1:" + std::to_string(port()) + "/");
}

TEST_F(server_test, ServesTheRootIndex) {
  client c{port()};
  const auto res = c.get("/");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res[http::field::content_type], "text/html; charset=utf-8");
  EXPECT_EQ(res.body(), index_html);
}

TEST_F(server_test, ServesADirectoryIndex) {
  client c{port()};
  const auto res = c.get("/sub/");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res[http::field::content_type], "text/html; charset=utf-8");
  EXPECT_EQ(res.body(), sub_index_html);
}

TEST_F(server_test, ServesFilesWithTheirContentType) {
  client c{port()};
  auto res = c.get("/style.css");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res[http::field::content_type], "text/css; charset=utf-8");
  EXPECT_EQ(res.body(), style_css);

  res = c.get("/pixel.png");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res[http::field::content_type], "image/png");
  EXPECT_EQ(res.body(), png_bytes);  // binary, byte for byte

  res = c.get("/a%20b.html?utm=1");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res.body(), "<p>spaced</p>");
}

TEST_F(temp_dirs, ServesASiteBelowItsMountPathOnly) {
  write_file(root_ / "index.html", index_html);
  write_file(root_ / "sub" / "index.html", sub_index_html);
  const static_site_server server{root_, "/docs/"};
  EXPECT_EQ(server.url(), "http://127.0.0.1:" + std::to_string(server.port()) + "/docs/");
  client c{server.port()};
  EXPECT_EQ(c.get("/docs/").body(), index_html);
  EXPECT_EQ(c.get("/docs/sub/").body(), sub_index_html);
  auto res = c.get("/docs?x=1");
  EXPECT_EQ(res.result(), http::status::moved_permanently);
  EXPECT_EQ(res[http::field::location], "/docs/?x=1");
  res = c.get("/docs/sub");
  EXPECT_EQ(res.result(), http::status::moved_permanently);
  EXPECT_EQ(res[http::field::location], "/docs/sub/");
  EXPECT_EQ(c.get("/").result(), http::status::not_found);
  EXPECT_EQ(c.get("/index.html").result(), http::status::not_found);
  EXPECT_EQ(c.get("/docs2/").result(), http::status::not_found);
  EXPECT_EQ(c.get("/docs/../docs/").result(), http::status::not_found);  // no climbing out
  EXPECT_EQ(c.get("/docs/../index.html").result(), http::status::not_found);
}

TEST_F(server_test, RedirectsADirectoryWithoutTrailingSlash) {
  client c{port()};
  auto res = c.get("/sub");
  EXPECT_EQ(res.result(), http::status::moved_permanently);
  EXPECT_EQ(res[http::field::location], "/sub/");

  res = c.get("/sub?lang=en");
  EXPECT_EQ(res.result(), http::status::moved_permanently);
  EXPECT_EQ(res[http::field::location], "/sub/?lang=en");

  // "//sub" must not become the protocol-relative (other host) "//sub/".
  res = c.get("//sub");
  EXPECT_EQ(res.result(), http::status::moved_permanently);
  EXPECT_EQ(res[http::field::location], "/sub/");
}

TEST_F(server_test, AnswersMissingFilesWith404) {
  client c{port()};
  auto res = c.get("/missing.html");
  EXPECT_EQ(res.result(), http::status::not_found);
  EXPECT_EQ(res[http::field::content_type], "text/html; charset=utf-8");
  EXPECT_NE(res.body().find("404"), std::string::npos);

  res = c.get("/empty/");  // a directory without index.html
  EXPECT_EQ(res.result(), http::status::not_found);

  res = c.get("/sub/page.html/");  // a file is no directory
  EXPECT_EQ(res.result(), http::status::not_found);
}

TEST_F(server_test, AnswersTraversalOnTheWireWith404) {
  // Written by hand: a real client would have normalised these targets away.
  for (const std::string_view target :
       {"/../../etc/passwd", "/../outside/secret.txt", "/%2e%2e/outside/secret.txt",
        "/sub/..%2F..%2Foutside%2Fsecret.txt"}) {
    const auto raw =
        exchange_raw(port(), "GET " + std::string(target) +
                                 " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(status_line(raw), "HTTP/1.1 404 Not Found") << target;
    EXPECT_EQ(raw.find("top secret"), std::string::npos) << target;
    EXPECT_EQ(raw.find("root:"), std::string::npos) << target;
  }
}

TEST_F(server_test, AnswersSymlinksLeadingOutsideWith404) {
  fs::create_symlink(outside_ / "secret.txt", root_ / "leak.txt");
  fs::create_directory_symlink(outside_, root_ / "out");
  client c{port()};
  EXPECT_EQ(c.get("/leak.txt").result(), http::status::not_found);
  EXPECT_EQ(c.get("/out/secret.txt").result(), http::status::not_found);
  EXPECT_EQ(c.get("/out").result(), http::status::not_found);  // no redirect either
}

TEST_F(server_test, ServesSymlinksStayingInside) {
  fs::create_symlink("sub/page.html", root_ / "relative.html");
  fs::create_symlink(root_ / "style.css", root_ / "absolute.css");
  fs::create_directory_symlink("sub", root_ / "latest");
  fs::create_symlink("../index.html", root_ / "sub" / "up.html");
  client c{port()};
  EXPECT_EQ(c.get("/relative.html").body(), "<p>page</p>");
  EXPECT_EQ(c.get("/absolute.css").body(), style_css);
  EXPECT_EQ(c.get("/latest/").body(), sub_index_html);
  EXPECT_EQ(c.get("/latest/page.html").body(), "<p>page</p>");
  EXPECT_EQ(c.get("/sub/up.html").body(), index_html);
}

TEST_F(server_test, AnswersAnIndexSymlinkedOutsideWith404) {
  fs::create_directories(root_ / "docs");
  fs::create_symlink(outside_ / "secret.txt", root_ / "docs" / "index.html");
  client c{port()};
  const auto res = c.get("/docs/");
  EXPECT_EQ(res.result(), http::status::not_found);
  EXPECT_EQ(res.body().find("top secret"), std::string::npos);
}

TEST_F(server_test, AnswersAFifoWith404WithoutBlocking) {
  ASSERT_EQ(::mkfifo((root_ / "pipe.html").c_str(), 0644), 0);
  client c{port()};
  EXPECT_EQ(c.get("/pipe.html").result(), http::status::not_found);
  EXPECT_EQ(c.get("/style.css").body(), style_css);  // the server thread is not stuck
}

// A file swapped for a symlink to a secret outside the folder, as fast as a thread can, while
// it is fetched over and over: whatever the timing, the secret is never served.
TEST_F(server_test, NeverServesASymlinkSwappedInDuringARequest) {
  const auto page = root_ / "race.html";
  const auto next_file = root_ / ".race-file";
  const auto next_link = root_ / ".race-link";
  write_file(page, "public");
  std::atomic<bool> stop{false};
  std::thread swapper([&] {
    while (!stop) {
      // rename(2) swaps atomically, so race.html always exists: a file, then a symlink.
      std::error_code ec;
      write_file(next_file, "public");
      fs::rename(next_file, page, ec);
      fs::remove(next_link, ec);
      fs::create_symlink(outside_ / "secret.txt", next_link, ec);
      fs::rename(next_link, page, ec);
    }
  });
  client c{port()};
  int requests = 0;
  int leaks = 0;
  int served = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto res = c.get("/race.html");
    ++requests;
    if (res.body().find("top secret") != std::string::npos) ++leaks;
    if (res.result() == http::status::ok) ++served;
  }
  stop = true;
  swapper.join();
  EXPECT_EQ(leaks, 0) << "of " << requests << " requests";
  EXPECT_GT(served, 0) << "of " << requests << " requests";  // the file was there to race with
}

TEST_F(server_test, HeadSendsContentLengthButNoBody) {
  const auto raw = exchange_raw(
      port(), "HEAD /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_line(raw), "HTTP/1.1 200 OK");
  EXPECT_NE(raw.find("Content-Length: " + std::to_string(index_html.size()) + "\r\n"),
            std::string::npos)
      << raw;
  EXPECT_NE(raw.find("Content-Type: text/html; charset=utf-8\r\n"), std::string::npos) << raw;
  const auto end_of_headers = raw.find("\r\n\r\n");
  ASSERT_NE(end_of_headers, std::string::npos);
  EXPECT_EQ(raw.size(), end_of_headers + 4) << "a body followed the headers";
}

TEST_F(server_test, HeadOfAMissingFileIs404WithoutBody) {
  const auto raw = exchange_raw(
      port(), "HEAD /missing.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_line(raw), "HTTP/1.1 404 Not Found");
  const auto end_of_headers = raw.find("\r\n\r\n");
  ASSERT_NE(end_of_headers, std::string::npos);
  EXPECT_EQ(raw.size(), end_of_headers + 4);
}

TEST_F(server_test, RefusesOtherMethodsWith405) {
  client c{port()};
  c.send(http::verb::post, "/index.html", "name=value");
  auto res = c.receive();
  EXPECT_EQ(res.result(), http::status::method_not_allowed);
  EXPECT_EQ(res[http::field::allow], "GET, HEAD");

  c.send(http::verb::delete_, "/index.html");
  res = c.receive();
  EXPECT_EQ(res.result(), http::status::method_not_allowed);
  EXPECT_TRUE(fs::exists(root_ / "index.html"));
}

TEST_F(server_test, ServesSeveralRequestsOnOneConnection) {
  client c{port()};
  const auto first = c.get("/");
  EXPECT_EQ(first.result(), http::status::ok);
  EXPECT_TRUE(first.keep_alive());
  const auto second = c.get("/style.css");
  EXPECT_EQ(second.result(), http::status::ok);
  EXPECT_EQ(second.body(), style_css);
  const auto third = c.get("/missing.html");  // an error answer keeps the connection too
  EXPECT_EQ(third.result(), http::status::not_found);
  EXPECT_EQ(c.get("/sub/").body(), sub_index_html);
}

TEST_F(server_test, ServesPipelinedRequestsInOrder) {
  client c{port()};
  c.send_raw(
      "GET /style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
      "GET /sub/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  EXPECT_EQ(c.receive().body(), style_css);
  EXPECT_EQ(c.receive().body(), sub_index_html);
}

TEST_F(server_test, ClosesAfterAnHttp10Request) {
  const auto raw = exchange_raw(port(), "GET /style.css HTTP/1.0\r\n\r\n");
  EXPECT_EQ(status_line(raw), "HTTP/1.0 200 OK");
  EXPECT_TRUE(raw.ends_with(style_css));
}

TEST_F(server_test, AnswersAMalformedRequestWith400) {
  const auto raw = exchange_raw(port(), "THIS IS NOT HTTP\r\n\r\n");
  EXPECT_EQ(status_line(raw), "HTTP/1.1 400 Bad Request");
}

TEST_F(server_test, ServesManyClientsAtOnce) {
  std::vector<std::unique_ptr<client>> clients;
  for (int i = 0; i < 8; ++i)
    clients.push_back(std::make_unique<client>(port()));
  for (auto& c : clients)
    c->send(http::verb::get, "/style.css");
  for (auto& c : clients)
    EXPECT_EQ(c->receive().body(), style_css);
}

TEST_F(server_test, DestructorReturnsWhileAClientHoldsAnIdleConnection) {
  client c{port()};
  EXPECT_EQ(c.get("/").result(), http::status::ok);  // the connection stays open after this
  server_.reset();
  // The server closed its side instead of waiting for the client.
  const auto ec = c.read_error();
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
}

TEST_F(server_test, DestructorReturnsWhileARequestIsHalfSent) {
  client c{port()};
  EXPECT_EQ(c.get("/").result(), http::status::ok);
  c.send_raw("GET /style.css HTTP/1.1\r\nHost: 127.0");
  server_.reset();
  const auto ec = c.read_error();
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
}

TEST_F(server_test, RefusesConnectionsOnceDestroyed) {
  const auto old_port = port();
  server_.reset();
  asio::io_context io;
  tcp::socket socket{io};
  beast::error_code ec;
  socket.connect(tcp::endpoint{asio::ip::address_v4::loopback(), old_port}, ec);
  EXPECT_EQ(ec, asio::error::connection_refused);
}

// ---------------------------------------------------------------------------------------------
// The bundled example site, as the README's quick start crawls it

TEST(example_site, ServesTheBundledSite) {
  const static_site_server server{fs::path(COROCRAWL_EXAMPLES_DIR) / "site"};
  client c{server.port()};
  auto res = c.get("/");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res[http::field::content_type], "text/html; charset=utf-8");
  EXPECT_NE(res.body().find("href=\"blog/missing-post.html\""), std::string::npos);

  res = c.get("/blog");  // linked without a slash on purpose: a redirect, not a broken link
  EXPECT_EQ(res.result(), http::status::moved_permanently);
  EXPECT_EQ(res[http::field::location], "/blog/");
  EXPECT_EQ(c.get("/blog/").result(), http::status::ok);
  EXPECT_EQ(c.get("/blog/missing-post.html").result(), http::status::not_found);  // deliberate
}

}  // namespace
