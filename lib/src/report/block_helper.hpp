#pragma once
// A second thread for writing a long list: the writer formats the even blocks of the list
// straight into its output, and the helper formats the odd ones into text, which the writer
// takes in their turn. A list's items are values read from a crawl that has ended, so its
// blocks can be formatted in any order and on any thread; only their writing is ordered.
//
// The helper stays at most kAhead blocks ahead of the writer, so the text waiting is bounded
// whatever the list's length. Whatever goes wrong on the helper, nothing is lost: with no
// thread to be had, or a block the helper could not format (it threw), the writer formats
// those blocks itself.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace corocrawl {

class block_helper {
 public:
  /// Formats block `block` of the list into `text` (empty when given); may throw.
  using format_block = std::function<void(std::size_t block, std::string& text)>;

  /// Starts a thread formatting the odd blocks below `block_count`, unless there is none to
  /// help with or the system gives no thread (std::system_error): then helps() is false.
  /// Destroying it stops the helper where it is (a block under way is finished) and joins it.
  block_helper(std::size_t block_count, format_block format);
  block_helper(const block_helper&) = delete;
  block_helper& operator=(const block_helper&) = delete;

  /// Whether block `block` is the helper's: the writer asks take() for it.
  bool helps(std::size_t block) const { return thread_.joinable() && block % 2 == 1; }

  /// The text of the helper's next block, `block` (taken in increasing order), once it is
  /// formatted; nothing when the helper failed before it, and the writer formats it.
  std::optional<std::string> take(std::size_t block);

 private:
  static constexpr std::size_t kAhead = 4;
  void run(const std::stop_token& stop);

  const std::size_t block_count_;
  const format_block format_;
  std::mutex mutex_;
  std::condition_variable_any changed_;
  std::deque<std::string> ready_;  // formatted blocks, in order, not taken yet
  std::size_t next_taken_ = 1;     // the block take() gives next
  bool failed_ = false;            // the helper stopped on a block it could not format
  // Last: destroyed first, it asks the helper to stop (which wakes it from waiting for room,
  // as changed_ watches the stop token) and joins it before the members it uses go.
  std::jthread thread_;
};

}  // namespace corocrawl
