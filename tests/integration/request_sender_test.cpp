// Gathered requests written by a writer thread (http/request_sender.hpp), through a batch
// (http/request_batch.hpp): checked on real TCP connections on 127.0.0.1, what each server
// socket received read there.
#include "http/request_sender.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "connection_pairs.hpp"
#include "http/connection_pool.hpp"
#include "http/request_batch.hpp"

namespace corocrawl {
namespace {

namespace asio = boost::asio;
using boost::system::error_code;
using tcp = asio::ip::tcp;
using fate = request_sender::fate;

class RequestSender : public ::testing::Test, protected testing::connection_pairs {
 protected:
  void SetUp() override { batch_.write_through(&sender_, &pool_); }

  connection_pool pool_{context_.get_executor(), 100};  // the duplicates' cap
  request_sender sender_;  // before the batch, which settles with it as it goes
  request_batch batch_;
};

using testing::first_request;
using testing::second_request;

TEST_F(RequestSender, WithNoWriterAwakeTheBatchWritesItself) {
  auto a = connect();
  batch_.add(*a.client, first_request);
  batch_.send_all();
  EXPECT_TRUE(batch_.empty());
  EXPECT_EQ(a.client->queued_in, nullptr);
  EXPECT_EQ(received(a.server, first_request.size()), first_request);
}

TEST_F(RequestSender, AnAwakeWriterWritesTheRequestsAndTheBatchLearnsOfIt) {
  auto a = connect();
  auto b = connect();
  sender_.awake();
  batch_.add(*a.client, first_request);
  batch_.add(*b.client, second_request);
  batch_.send_all();
  EXPECT_TRUE(batch_.empty());
  // Handed over, not yet written: the batch does not know yet.
  EXPECT_EQ(a.client->queued_in, &batch_);
  EXPECT_EQ(received(a.server, 0), "");

  std::thread writer([this] { sender_.write_waiting(); });
  writer.join();
  EXPECT_EQ(received(a.server, first_request.size()), first_request);
  EXPECT_EQ(received(b.server, second_request.size()), second_request);
  EXPECT_TRUE(a.client->nothing_held());  // settles: written, so the connection is reusable
  EXPECT_EQ(a.client->queued_in, nullptr);
  batch_.settle(*b.client);
  EXPECT_EQ(b.client->queued_in, nullptr);
  EXPECT_FALSE(b.client->unsent_error);
  sender_.away();
}

TEST_F(RequestSender, AWriterGoingAwayWritesWhatItWasGivenAndTakesNoMore) {
  auto a = connect();
  auto b = connect();
  sender_.awake();
  batch_.add(*a.client, first_request);
  batch_.send_all();
  std::thread writer([this] { sender_.away(); });
  writer.join();
  EXPECT_EQ(received(a.server, first_request.size()), first_request);
  EXPECT_FALSE(sender_.writer_awake());
  batch_.add(*b.client, second_request);
  batch_.send_all();  // written here, at once
  EXPECT_EQ(b.client->queued_in, nullptr);
  EXPECT_EQ(received(b.server, second_request.size()), second_request);
}

// An answer that came before its request was written (a server answering unasked): the
// request is dropped, and the connection is not reused.
TEST_F(RequestSender, ARequestSettledBeforeItsWriteIsNeverWritten) {
  auto a = connect();
  sender_.awake();
  batch_.add(*a.client, first_request);
  batch_.send_all();
  EXPECT_FALSE(a.client->nothing_held());
  EXPECT_EQ(a.client->queued_in, &batch_);
  sender_.write_waiting();
  EXPECT_EQ(received(a.server, 0), "");
  a.client.reset();  // forgets nothing twice
  char byte = 0;
  EXPECT_EQ(::recv(a.server.native_handle(), &byte, 1, 0), 0);  // closed, nothing sent
  sender_.away();
}

TEST_F(RequestSender, AFailedWriteShutsTheSocketAndItsErrorIsTheReadsToReport) {
  auto a = connect();
  a.server.set_option(asio::socket_base::linger(true, 0));
  a.server.close();  // the server resets the connection: the write fails
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  sender_.awake();
  batch_.add(*a.client, first_request);
  batch_.send_all();
  std::thread writer([this] { sender_.write_waiting(); });
  writer.join();
  error_code read_error;
  char byte = 0;
  a.client->tcp().socket().read_some(asio::buffer(&byte, 1), read_error);
  EXPECT_TRUE(read_error) << "the read ends at once";
  batch_.settle(*a.client);
  const error_code error = a.client->unsent_error;
  EXPECT_TRUE(error == asio::error::connection_reset || error == asio::error::broken_pipe)
      << error.message();
  EXPECT_EQ(a.client->queued_in, nullptr);
  sender_.away();
}

// A request handed over holds a duplicate of its socket, one descriptor more, until the batch
// settles it: it takes a slot under the connection cap, and with too few to spare the batch
// writes the requests itself.
TEST_F(RequestSender, HandedRequestsHoldSlotsUnderTheConnectionCap) {
  connection_pool capped(context_.get_executor(), 2);
  auto open_connection = capped.spare_slot();  // as a connection holds one
  ASSERT_TRUE(open_connection);
  request_batch batch;
  batch.write_through(&sender_, &capped);
  auto a = connect();
  auto b = connect();
  auto c = connect();
  sender_.awake();
  batch.add(*a.client, first_request);
  batch.send_all();
  EXPECT_EQ(a.client->queued_in, &batch) << "handed over";
  EXPECT_EQ(capped.open(), 2U);
  EXPECT_FALSE(capped.spare_slot());

  batch.add(*b.client, first_request);
  batch.add(*c.client, second_request);
  batch.send_all();  // no slot to spare: written here, at once
  EXPECT_EQ(b.client->queued_in, nullptr);
  EXPECT_EQ(c.client->queued_in, nullptr);
  EXPECT_EQ(received(b.server, first_request.size()), first_request);
  EXPECT_EQ(received(c.server, second_request.size()), second_request);
  EXPECT_EQ(capped.open(), 2U);

  sender_.away();  // writes a's
  EXPECT_EQ(received(a.server, first_request.size()), first_request);
  EXPECT_TRUE(a.client->nothing_held());  // settled: its slot given back
  EXPECT_EQ(capped.open(), 1U);

  // Room for one, not for two: neither is handed over.
  sender_.awake();
  batch.add(*b.client, first_request);
  batch.add(*c.client, second_request);
  batch.send_all();
  EXPECT_EQ(b.client->queued_in, nullptr);
  EXPECT_EQ(c.client->queued_in, nullptr);
  EXPECT_EQ(capped.open(), 1U);
  sender_.away();
}

// The loop may close a connection (a time limit) while a writer has its request: the write
// still goes to that connection's peer, never to a socket given its descriptor since.
TEST_F(RequestSender, AWriteGoesToItsOwnPeerAfterItsDescriptorWasClosed) {
  auto a = connect();
  sender_.awake();
  std::vector<request_sender::request> requests = {
      {a.client.get(), a.client->tcp().socket().native_handle(), first_request}};
  ASSERT_TRUE(sender_.offer(requests));
  EXPECT_TRUE(requests.empty());
  error_code ignored;
  a.client->tcp().socket().close(ignored);
  auto b = connect();  // most likely given a's descriptor number
  sender_.write_waiting();
  EXPECT_EQ(received(a.server, first_request.size()), first_request);
  EXPECT_EQ(received(b.server, 0), "");
  EXPECT_EQ(sender_.settle(a.client.get()).what, fate::written);
  EXPECT_EQ(sender_.settle(a.client.get()).what, fate::not_written);  // settled once
  sender_.away();
}

TEST_F(RequestSender, AConnectionThatGoesTakesItsRequestWithIt) {
  auto a = connect();
  auto b = connect();
  sender_.awake();
  batch_.add(*a.client, first_request);
  batch_.add(*b.client, second_request);
  batch_.send_all();
  a.client.reset();
  sender_.write_waiting();
  EXPECT_EQ(received(b.server, second_request.size()), second_request);
  char byte = 0;
  EXPECT_EQ(::recv(a.server.native_handle(), &byte, 1, 0), 0);  // closed, nothing sent
  sender_.away();
}

TEST_F(RequestSender, ABatchThatGoesSettlesWhatItHandedOver) {
  auto a = connect();
  auto batch = std::make_unique<request_batch>();
  batch->write_through(&sender_, &pool_);
  sender_.awake();
  batch->add(*a.client, first_request);
  batch->send_all();
  batch.reset();
  EXPECT_EQ(a.client->queued_in, nullptr);
  a.client.reset();  // does not reach for the batch gone
  sender_.write_waiting();
  char byte = 0;
  EXPECT_EQ(::recv(a.server.native_handle(), &byte, 1, 0), 0);  // dropped, not written
  sender_.away();
}

// A writer writing while the loop settles: each request is either written whole and settled
// as written, or dropped unwritten and settled so (still waiting, or taken by the writer and
// its write not begun); settling waits for a write under way. Each round settles its requests
// from the last, once the first has reached the server: the writer is then writing the rest.
TEST_F(RequestSender, SettlingRacesNoWrite) {
  constexpr int kRounds = 50;
  constexpr int kPerRound = 8;
  auto a = connect();
  const int socket = a.client->tcp().socket().native_handle();
  // One owner a request, so that no outcome is taken for another.
  std::vector<char> owners(kRounds * kPerRound);
  std::atomic<bool> done = false;
  sender_.awake();
  std::thread writer([&] {
    while (!done.load()) {
      sender_.write_waiting();
      std::this_thread::yield();  // as a parse thread between jobs: not forever at the lock
    }
  });
  std::size_t written = 0;
  std::size_t arrived = 0;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<request_sender::request> requests;
    for (int i = 0; i < kPerRound; ++i)
      requests.push_back({&owners[round * kPerRound + i], socket, first_request});
    ASSERT_TRUE(sender_.offer(requests));
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (a.server.available() == 0 && std::chrono::steady_clock::now() < until) {
    }
    for (int i = kPerRound; i-- > 0;) {
      const auto outcome = sender_.settle(&owners[round * kPerRound + i]);
      ASSERT_NE(outcome.what, fate::failed) << outcome.error.message();
      if (outcome.what == fate::written) ++written;
    }
    arrived += received(a.server, written * first_request.size() - arrived).size();
  }
  done = true;
  writer.join();
  sender_.away();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  arrived += received(a.server, 0).size();
  EXPECT_EQ(arrived, written * first_request.size()) << "a request settled as dropped was written";
}

}  // namespace
}  // namespace corocrawl
