#pragma once
// Requests on plain connections, gathered and written together. A server that has answered
// every request sleeps, and a request written then wakes it: on the 10k benchmark site nginx
// slept after two or three requests, and each wake-up cost both sides a context switch (an
// interprocessor interrupt, in a VM a round trip through the host). Written together, the
// requests of a turn of the event loop wake it once. The event loop sends them when it has no
// handler ready to run (send_all), and once the first has waited kMaxWait (send_overdue,
// after each handler): a busy loop keeps a request no longer than that and one handler.
// With a request_sender (write_through), a writer thread that is awake writes them instead,
// each on a duplicate of its socket that holds a spare slot under the connection cap.
//
// The writing coroutine goes on to read the response at once: it never suspends to write.
// A request is at most kMaxBytes, which an open socket's send buffer (4.5 KiB at the least)
// takes whole when nothing waits in it, as nothing does once a response has come; a write
// that fails, or falls short, leaves the error on the connection (unsent_error) and shuts
// the socket, so that the read ends at once.
//
// A connection's queued_in names the batch from when its request is added until the batch
// knows it was written: settle() asks the sender about a request handed to it.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "http/connection_pool.hpp"
#include "http/request_sender.hpp"

namespace corocrawl {

class request_batch {
 public:
  /// Requests larger than this are written as before, by the coroutine itself.
  static constexpr std::size_t kMaxBytes = 4096;
  /// The longest a request waits for the loop to be idle.
  static constexpr std::chrono::microseconds kMaxWait{100};

  request_batch() = default;
  request_batch(const request_batch&) = delete;
  request_batch& operator=(const request_batch&) = delete;
  ~request_batch();

  /// Hands the requests to `sender`'s writers when one is awake (see request_sender), which
  /// must outlive the batch; nullptr to write them all here. Each request handed over holds
  /// a duplicate of its socket, a descriptor more, until the batch settles it: it takes a
  /// spare slot of `pool` (which outlives every send_all()), so that the descriptors open
  /// stay under the connection cap. With too few to spare, the batch writes them itself.
  void write_through(request_sender* sender, connection_pool* pool) {
    sender_ = sender;
    pool_ = pool;
  }

  /// Queues `request` (at most kMaxBytes) for `conn`, a plain connection with none queued.
  /// `conn` leaves the batch when it is written, or when `conn` goes (forget).
  void add(http_connection& conn, std::string request);
  /// Writes every queued request.
  void send_all();
  /// Writes every queued request once the first has waited kMaxWait.
  void send_overdue() {
    if (!waiting_.empty() && std::chrono::steady_clock::now() - first_ >= kMaxWait) send_all();
  }
  /// Learns whether `conn`'s request, if the sender has it, was written: if so, clears
  /// conn.queued_in (and sets conn.unsent_error when the write failed). A request not
  /// written by now never will be, and conn.queued_in stays set.
  void settle(http_connection& conn);
  /// Drops `conn`'s request, whether or not it was written: its connection is going.
  void forget(const http_connection& conn);
  bool empty() const { return waiting_.empty(); }

 private:
  struct waiting {
    http_connection* conn;
    std::string request;
  };
  struct handed {
    http_connection* conn;
    connection_slot slot;  // its duplicate's, given back when settled
  };
  static void write(waiting& queued);
  // Hands waiting_ to the sender; false when it took none.
  bool hand_over();
  // What became of `conn`'s request if the sender has it (it is then no longer handed_).
  std::optional<request_sender::outcome> settle_handed(const http_connection& conn);

  request_sender* sender_ = nullptr;
  connection_pool* pool_ = nullptr;
  std::vector<waiting> waiting_;
  std::vector<handed> handed_;                    // their requests the sender's, not yet settled
  std::vector<request_sender::request> handing_;  // hand_over()'s, kept for its memory
  std::chrono::steady_clock::time_point first_;   // when the first of waiting_ came
};

}  // namespace corocrawl
