#pragma once
// Gathered requests (request_batch) written by a thread that is awake anyway. The event loop's
// thread is a crawl's bound: on the 10k benchmark site it runs for 85–97% of the crawl's wall
// time, and a seventh of that is send(2), which on loopback also delivers the request to the
// server and wakes it. So when a writer (a parse thread between two short jobs) is awake, the
// loop hands it the requests of a turn and goes on; with none awake, the loop writes them
// itself, as a wake-up would cost it what the write does.
//
// A writer that is about to sleep, or to run a long job, says it is away and then writes what
// it was given: no request waits on a writer that is not coming. Each request is written on a
// duplicate of its connection's socket, so the loop may close the connection meanwhile (a time
// limit, the crawl's stop): the socket then lives until that write, to the same peer, and no
// other connection can be given its descriptor before the writer is done with it.
//
// The loop learns what became of a request by settling it: before it reuses the connection,
// and when a read fails (a write that failed shut the socket, and its error is the one to
// report). A request whose write had not begun is dropped, unwritten, as one still waiting in
// the batch is when its answer came first (a server answering unasked). A writer tells each
// request's outcome as soon as its write returns; settling one being written (its answer came
// while the write returned) waits for it, yielding the processor a while before it sleeps.

#include <atomic>
#include <boost/system/error_code.hpp>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace corocrawl {

/// Writes gathered request `bytes` on `socket` (non-blocking) whole, at once: an empty error,
/// or why it did not go. A request fits in an open socket's send buffer when nothing waits in
/// it, so a short write, or none (a full buffer, which means the server reads nothing sent),
/// fails as no_buffer_space. The caller shuts the socket on failure, so the read ends.
boost::system::error_code write_whole(int socket, std::string_view bytes);

class request_sender {
 public:
  /// A request to write: `owner` says whose it is (compared, never followed) and `socket` is
  /// the connection's descriptor, which offer() duplicates.
  struct request {
    const void* owner;
    int socket;
    std::string bytes;
  };

  enum class fate : std::uint8_t {
    written,     // whole
    failed,      // `error` says why; the socket is shut, so that the read ends at once
    not_written  // it still waited, and is dropped; or settled before, or never offered
  };
  struct outcome {
    fate what;
    boost::system::error_code error;
  };

  request_sender() = default;
  request_sender(const request_sender&) = delete;
  request_sender& operator=(const request_sender&) = delete;
  /// Closes the duplicates of requests never written.
  ~request_sender();

  // The event loop's thread.

  /// Whether a writer is awake: a hint for whether offer() would take requests.
  bool writer_awake() const { return awake_.load(std::memory_order_relaxed) > 0; }
  /// Takes every request of `requests` (which it empties) when a writer is awake, for one to
  /// write soon; else, or when a socket cannot be duplicated (no descriptor left), takes
  /// none and leaves the requests' bytes as they were (their sockets not to be used): the
  /// caller writes them.
  bool offer(std::vector<request>& requests);
  /// What became of `owner`'s request, which is then forgotten here.
  outcome settle(const void* owner);

  // The writers (threads other than the loop's).

  /// The calling thread will call write_waiting() again soon, after a short job at most.
  void awake();
  /// It will not: it writes what it was given, then sleeps or runs a long job.
  void away();
  /// Writes every request given so far.
  void write_waiting();

 private:
  struct result {
    const void* owner;
    outcome what;
  };
  // Whether `owner` is among `items` (requests or results), and where.
  template <typename Items>
  static auto find_owner(Items& items, const void* owner);

  // How often settle() looks for a request being written before it sleeps until it is.
  static constexpr int kLooksBeforeSleeping = 100;

  std::mutex mutex_;
  std::condition_variable written_;   // a request was written, and settle() waits
  unsigned settling_ = 0;             // settle() calls waiting on written_
  std::atomic<unsigned> awake_ = 0;   // changed under mutex_
  std::vector<request> waiting_;      // given, not yet taken by a writer
  std::vector<const void*> taken_;    // taken by a writer, whose write has not begun
  std::vector<const void*> writing_;  // being written
  std::vector<result> results_;       // written, or failed, and not yet settled
};

}  // namespace corocrawl
