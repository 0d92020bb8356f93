// A body that has all come with its header may be read by the sink, on another thread
// (http/waiting_body.hpp, hand_waiting_body in http/response_reading.hpp). Checked on real
// TCP connections on 127.0.0.1, the server's bytes all received before the client reads its
// header, or only some of them: the same client code a crawl runs, the race taken out.
#include "http/waiting_body.hpp"

#include <gtest/gtest.h>
#include <sys/ioctl.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "http/connection_pool.hpp"
#include "http/response_reading.hpp"

namespace corocrawl {
namespace {

namespace asio = boost::asio;
using boost::system::error_code;
using tcp = asio::ip::tcp;

// `size` bytes that differ from place to place, so that a byte out of place shows.
std::string body_of(std::size_t size) {
  std::string body(size, '\0');
  for (std::size_t i = 0; i < size; ++i)
    body[i] = static_cast<char>('a' + (i * 7 + i / 251) % 26);
  return body;
}

std::string header_for(std::size_t length) {
  return "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + std::to_string(length) +
         "\r\n\r\n";
}

// Records what hand_waiting_body gives it, and reads the rest on a thread of its own.
class recording_sink final : public body_sink {
 public:
  bool take(std::string_view, std::uint64_t) override { return false; }
  void add(std::string_view) override {}
  bool reads_waiting(std::string_view content_type, std::uint64_t length) override {
    asked = true;
    type = content_type;
    announced = length;
    return accepts;
  }
  asio::awaitable<bool> read_waiting(std::string first_bytes, waiting_body rest) override {
    first = std::move(first_bytes);
    std::string read(static_cast<std::size_t>(rest.size()), '\0');
    bool all = false;
    std::thread reader([&] { all = rest.read_into(read); });
    reader.join();
    body = first + read;
    co_return all;
  }

  bool accepts = true;
  bool asked = false;
  std::string type;
  std::uint64_t announced = 0;
  std::string first;
  std::string body;
};

class WaitingBody : public ::testing::Test {
 protected:
  WaitingBody() {
    tcp::acceptor acceptor(context, {asio::ip::make_address("127.0.0.1"), 0});
    client_.tcp().socket().connect(acceptor.local_endpoint());
    acceptor.accept(server_);
  }

  // Writes `bytes` as the server, and waits until the client's socket holds them, with what
  // it held and the client did not read.
  void send(std::string_view bytes) {
    const int socket = client_.tcp().socket().native_handle();
    int unread = 0;
    ASSERT_EQ(::ioctl(socket, FIONREAD, &unread), 0);
    asio::write(server_, asio::buffer(bytes));
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!waiting_body::waiting(socket, static_cast<std::size_t>(unread) + bytes.size()) &&
           std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
    ASSERT_TRUE(waiting_body::waiting(socket, static_cast<std::size_t>(unread) + bytes.size()));
  }

  struct handed {
    std::optional<error_code> result;  // the handing's, when hand_waiting_body gave one
    std::uint64_t received = 0;
  };

  // Reads the response's header as the client does, into parser_, then offers its body to
  // `sink`.
  handed hand(body_sink& sink, std::uint64_t limit = 10 << 20) {
    handed out;
    std::exception_ptr failed;
    asio::co_spawn(
        context,
        [&]() -> asio::awaitable<void> {
          bool got_some = false;
          const error_code ec = co_await read_final_header(client_, parser_, false, got_some);
          EXPECT_FALSE(ec) << ec.message();
          auto handing = hand_waiting_body(client_, *parser_, limit, sink, out.received);
          if (handing) out.result = co_await std::move(*handing);
        },
        [&failed](std::exception_ptr error) { failed = error; });
    context.run();
    context.restart();
    if (failed) std::rethrow_exception(failed);
    return out;
  }

  // Reads the rest of the body into parser_, as the client does when it is not handed over.
  error_code read_rest() {
    error_code result;
    asio::co_spawn(
        context,
        [&]() -> asio::awaitable<void> {
          result = co_await read_body(client_, *parser_, 10 << 20);
        },
        asio::detached);
    context.run();
    context.restart();
    return result;
  }

  // The client reads the rest of the body itself, and has all of `body`.
  void expect_read_by_the_client(const std::string& body) {
    EXPECT_FALSE(read_rest());
    EXPECT_EQ(parser_->get().body(), body);
  }

  asio::io_context context;
  http_connection client_{context.get_executor(), connection_slot{}};
  tcp::socket server_{context};
  std::optional<response_parser> parser_;
};

TEST_F(WaitingBody, ABodyThatHasAllComeIsReadByTheSinkOnAnotherThread) {
  const std::string body = body_of(100'000);
  send(header_for(body.size()) + body);
  recording_sink sink;
  const handed got = hand(sink);
  ASSERT_TRUE(got.result.has_value());
  EXPECT_FALSE(*got.result) << got.result->message();
  EXPECT_EQ(got.received, body.size());
  EXPECT_EQ(sink.type, "text/html");
  EXPECT_EQ(sink.announced, body.size());
  EXPECT_FALSE(sink.first.empty());  // read with the header, into the connection's buffer
  EXPECT_LE(sink.first.size(), body.size() - kWaitingAtLeast);
  EXPECT_EQ(sink.body, body);
  EXPECT_EQ(client_.buffer.size(), 0u);
  EXPECT_TRUE(client_.quiet());  // nothing left: the connection may carry the next request
}

TEST_F(WaitingBody, BytesPastTheBodyStayForTheConnectionToSee) {
  const std::string body = body_of(100'000);
  send(header_for(body.size()) + body + "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
  recording_sink sink;
  const handed got = hand(sink);
  ASSERT_TRUE(got.result.has_value());
  EXPECT_FALSE(*got.result);
  EXPECT_EQ(sink.body, body);
  EXPECT_FALSE(client_.quiet());  // not asked for: the connection is not used again
}

TEST_F(WaitingBody, ABodyStillComingIsLeftToTheClient) {
  const std::string body = body_of(100'000);
  send(header_for(body.size()) + body.substr(0, 60'000));
  recording_sink sink;
  const handed got = hand(sink);
  EXPECT_FALSE(got.result.has_value());
  EXPECT_FALSE(sink.asked);
  send(body.substr(60'000));
  expect_read_by_the_client(body);
}

TEST_F(WaitingBody, ASinkThatDeclinesLeavesTheBodyToTheClient) {
  const std::string body = body_of(100'000);
  send(header_for(body.size()) + body);
  recording_sink sink;
  sink.accepts = false;
  const handed got = hand(sink);
  EXPECT_FALSE(got.result.has_value());
  EXPECT_TRUE(sink.asked);
  expect_read_by_the_client(body);
}

TEST_F(WaitingBody, AFewKibibytesLeftAreReadByTheClient) {
  const std::string body = body_of(20'000);  // 16 KiB come with the header, 4 KB are left
  send(header_for(body.size()) + body);
  recording_sink sink;
  const handed got = hand(sink);
  EXPECT_FALSE(got.result.has_value());
  EXPECT_FALSE(sink.asked);
  expect_read_by_the_client(body);
}

TEST_F(WaitingBody, ABodyOverTheLimitIsLeftToTheClient) {
  const std::string body = body_of(100'000);
  send(header_for(body.size()) + body);
  recording_sink sink;
  const handed got = hand(sink, 50'000);
  EXPECT_FALSE(got.result.has_value());
  EXPECT_FALSE(sink.asked);
}

TEST_F(WaitingBody, FewerBytesThanWaitedForFailTheRead) {
  send("0123456789");
  server_.close();
  std::string into(1000, '\0');
  EXPECT_FALSE(waiting_body(client_.tcp().socket().native_handle(), into.size()).read_into(into));
}

}  // namespace
}  // namespace corocrawl
