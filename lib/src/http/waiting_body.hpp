#pragma once
// The rest of a response's body when all of it has come already and waits in the
// connection's socket. A body_sink may then read it on another thread (body_sink::
// read_waiting): the crawler reads it on the thread that parses the page, rather than on the
// event loop's, which is the crawl's busiest. From nginx on 127.0.0.1 a page's bytes come at
// once with its header; copying them out of the kernel was over a quarter of the event loop
// thread's time on a site of small pages, and on the Python docs that copy and the page
// faults of each body's fresh memory were most of it (docs/benchmarks.md).

#include <cstdint>
#include <span>

namespace corocrawl {

class waiting_body {
 public:
  /// The `size` bytes waiting in TCP socket `fd`, which nothing else reads until they are
  /// read here.
  waiting_body(int fd, std::uint64_t size) : fd_(fd), size_(size) {}

  std::uint64_t size() const { return size_; }

  /// Reads the bytes into `into` (size() of them), on any thread, without waiting: false when
  /// the socket gives fewer (a reset since they came). Bytes past them stay in the socket.
  bool read_into(std::span<char> into) const;

  /// Whether TCP socket `fd` holds `bytes` bytes or more, received and not read yet.
  static bool waiting(int fd, std::uint64_t bytes);

 private:
  int fd_;
  std::uint64_t size_;
};

}  // namespace corocrawl
