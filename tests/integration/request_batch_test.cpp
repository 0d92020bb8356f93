// Requests gathered on plain connections and written together (http/request_batch.hpp):
// checked on real TCP connections on 127.0.0.1, what each server socket received read there.
#include "http/request_batch.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "connection_pairs.hpp"
#include "http/connection_pool.hpp"
#include "http/http_client.hpp"

namespace corocrawl {
namespace {

namespace asio = boost::asio;
using boost::system::error_code;
using tcp = asio::ip::tcp;

class RequestBatch : public ::testing::Test, protected testing::connection_pairs {
 protected:
  request_batch batch_;
};

using testing::first_request;
using testing::second_request;

TEST_F(RequestBatch, WritesNothingUntilItSendsAllTogether) {
  auto a = connect();
  auto b = connect();
  batch_.add(*a.client, first_request);
  batch_.add(*b.client, second_request);
  EXPECT_EQ(a.client->queued_in, &batch_);
  EXPECT_EQ(received(a.server, 0), "");
  EXPECT_EQ(received(b.server, 0), "");

  batch_.send_all();
  EXPECT_TRUE(batch_.empty());
  EXPECT_EQ(a.client->queued_in, nullptr);
  EXPECT_EQ(received(a.server, first_request.size()), first_request);
  EXPECT_EQ(received(b.server, second_request.size()), second_request);
  EXPECT_FALSE(a.client->unsent_error);
}

TEST_F(RequestBatch, SendsOverdueRequestsOnlyOnceTheFirstHasWaitedItsLongest) {
  auto a = connect();
  const auto before = std::chrono::steady_clock::now();
  batch_.add(*a.client, first_request);
  batch_.send_overdue();
  // Written only if the longest wait has passed since the request came (a slow machine).
  if (batch_.empty()) {
    EXPECT_GE(std::chrono::steady_clock::now() - before, request_batch::kMaxWait);
  } else {
    EXPECT_EQ(received(a.server, 0), "");
    std::this_thread::sleep_for(request_batch::kMaxWait * 2);
    batch_.send_overdue();
    EXPECT_TRUE(batch_.empty());
  }
  EXPECT_EQ(received(a.server, first_request.size()), first_request);
}

TEST_F(RequestBatch, ForgetsTheRequestOfAConnectionThatGoes) {
  auto a = connect();
  auto b = connect();
  batch_.add(*a.client, first_request);
  batch_.add(*b.client, second_request);
  a.client.reset();  // its descriptor is free for the next socket, which must not get it
  auto c = connect();
  batch_.send_all();
  EXPECT_EQ(received(b.server, second_request.size()), second_request);
  EXPECT_EQ(received(c.server, 0), "");
  char byte = 0;
  EXPECT_EQ(::recv(a.server.native_handle(), &byte, 1, 0), 0);  // closed, nothing sent
}

TEST_F(RequestBatch, LetsItsConnectionsGoAfterIt) {
  auto a = connect();
  auto batch = std::make_unique<request_batch>();
  batch->add(*a.client, first_request);
  batch.reset();
  EXPECT_EQ(a.client->queued_in, nullptr);
  a.client.reset();  // does not reach for the batch gone
}

TEST_F(RequestBatch, AWriteRefusedKeepsItsErrorAndShutsTheConnection) {
  auto a = connect();
  // The server resets the connection: the write fails.
  a.server.set_option(asio::socket_base::linger(true, 0));
  a.server.close();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  batch_.add(*a.client, first_request);
  batch_.send_all();
  const error_code error = a.client->unsent_error;
  EXPECT_TRUE(error == asio::error::connection_reset || error == asio::error::broken_pipe)
      << error.message();
  error_code read_error;
  char byte = 0;
  a.client->tcp().socket().read_some(asio::buffer(&byte, 1), read_error);
  EXPECT_TRUE(read_error) << "the read ends at once";
}

TEST_F(RequestBatch, AFullSendBufferFailsTheRequestRatherThanWritingPartOfIt) {
  auto a = connect();
  // A server that reads nothing, and a client whose send buffer is then full.
  const int client = a.client->tcp().socket().native_handle();
  const std::vector<char> filler(64 * 1024, 'x');
  for (int i = 0; i < 10'000; ++i) {
    if (::send(client, filler.data(), filler.size(), MSG_DONTWAIT | MSG_NOSIGNAL) < 0) break;
  }
  ASSERT_TRUE(errno == EAGAIN || errno == EWOULDBLOCK);
  batch_.add(*a.client, first_request);
  batch_.send_all();
  EXPECT_EQ(a.client->unsent_error, boost::system::errc::no_buffer_space);
  error_code read_error;
  char byte = 0;
  a.client->tcp().socket().read_some(asio::buffer(&byte, 1), read_error);
  EXPECT_EQ(read_error, asio::error::eof);
}

// What a server's side of a connection receives until the client closes it.
std::string read_to_the_end(tcp::socket& socket) {
  std::string bytes;
  error_code ec;
  char chunk[512];
  while (!ec) {
    const std::size_t n = socket.read_some(asio::buffer(chunk), ec);
    bytes.append(chunk, n);
  }
  return bytes;
}

// A server that answers before it is asked: the client reads that answer while its request
// still waits in the batch, and must not then write the request on the connection, nor keep
// the connection for another request (whose answer that request's would be taken for).
TEST_F(RequestBatch, AnAnswerBeforeItsRequestWasWrittenEndsTheConnection) {
  const std::string answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi";
  asio::io_context server_context;
  tcp::acceptor listener(server_context, {asio::ip::make_address("127.0.0.1"), 0});
  std::string first_received;
  std::string second_received;
  std::atomic<int> first_socket = -1;  // the server's end of the first connection
  std::thread server([&] {
    tcp::socket first(server_context);
    listener.accept(first);
    first_socket = first.native_handle();
    asio::write(first, asio::buffer(answer));
    first_received = read_to_the_end(first);
    // (Error codes, not exceptions: a failed test ends the second connection itself.)
    tcp::socket second(server_context);
    error_code ec;
    listener.accept(second, ec);
    if (!ec) asio::read_until(second, asio::dynamic_buffer(second_received), "\r\n\r\n", ec);
    if (!ec) asio::write(second, asio::buffer(answer), ec);
    if (!ec) read_to_the_end(second);
  });

  http_client_options options;
  options.gather_requests = true;
  std::optional<http_client> client;
  client.emplace(context_.get_executor(), options);
  const auto fetch = [&](std::string path, std::optional<unsigned>& status) {
    asio::co_spawn(
        context_,
        [&client, &status, path,
         port = listener.local_endpoint().port()]() -> asio::awaitable<void> {
          const http_target target{false, "127.0.0.1", port, path};
          const auto fetched = co_await client->get(target, {});
          status = fetched.ec ? 0 : fetched.response.status;
        },
        asio::detached);
  };
  // Runs the client's event loop until `status` comes, for 5 s at most: a regression fails
  // the test rather than hanging it. `sending`: as a crawl's loop runs, writing what gathered.
  const auto run_until = [&](const std::optional<unsigned>& status, bool sending) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!status && std::chrono::steady_clock::now() < until) {
      if (sending) {
        if (context_.poll_one() > 0) continue;
        client->send_gathered_requests();
      }
      context_.run_one_for(std::chrono::milliseconds(10));
    }
  };
  std::optional<unsigned> first;
  fetch("/a", first);
  run_until(first, false);  // the gathered request is never sent
  std::optional<unsigned> second;
  fetch("/b", second);
  run_until(second, true);
  EXPECT_EQ(first, 200u);
  EXPECT_EQ(second, 200u);
  const auto connections = client->connections();
  EXPECT_EQ(connections, 2u);
  client.reset();  // closes its idle connection, which the server reads to its end
  if (!first || !second || connections < 2) {
    // A request still waiting on the first connection holds it (the first's answer never
    // taken, or the connection used again): the server reads it to its end, then waits for a
    // second connection. Both waits are ended here, so that the failure is reported rather
    // than the test hanging.
    ::shutdown(first_socket, SHUT_RDWR);
    tcp::socket nudge(context_);
    nudge.connect(listener.local_endpoint());
  }
  server.join();
  EXPECT_EQ(first_received, "");
  EXPECT_TRUE(second_received.starts_with("GET /b ")) << second_received;
}

}  // namespace
}  // namespace corocrawl
