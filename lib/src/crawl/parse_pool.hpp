#pragma once
// The threads that parse pages, so that the event loop's thread keeps the sockets busy.
//
// An asio::thread_pool started with no threads of its own, which threads started here join:
// asio::thread_pool(n) hangs in its constructor when the system refuses the n-th thread (its
// first threads wait for work that never comes, and the failed constructor joins them). Here a
// refused thread only makes the pool smaller.

#include <boost/asio/thread_pool.hpp>
#include <thread>
#include <vector>

namespace corocrawl {

class parse_pool {
 public:
  /// Starts `threads` threads (0: one per core), or as many as the system allows, with a
  /// warning when it allows fewer. Throws std::system_error when it allows none.
  explicit parse_pool(unsigned threads);
  /// Stops the pool and joins its threads: a job under way finishes first.
  ~parse_pool();
  parse_pool(const parse_pool&) = delete;
  parse_pool& operator=(const parse_pool&) = delete;

  boost::asio::thread_pool::executor_type executor() { return pool_.get_executor(); }
  std::size_t size() const { return threads_.size(); }

 private:
  boost::asio::thread_pool pool_{0};
  std::vector<std::thread> threads_;
};

}  // namespace corocrawl
