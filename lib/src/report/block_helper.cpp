#include "report/block_helper.hpp"

#include <spdlog/spdlog.h>

#include <stdexcept>
#include <system_error>
#include <utility>

namespace corocrawl {

block_helper::block_helper(std::size_t block_count, format_block format)
    : block_count_(block_count), format_(std::move(format)) {
  if (block_count_ < 2) return;
  try {
    thread_ = std::jthread([this](const std::stop_token& stop) { run(stop); });
  } catch (const std::system_error& e) {
    spdlog::debug("writing a list on one thread: no second thread ({})", e.what());
  }
}

void block_helper::run(const std::stop_token& stop) {
  for (std::size_t block = 1; block < block_count_; block += 2) {
    {
      std::unique_lock lock(mutex_);
      if (!changed_.wait(lock, stop, [this] { return ready_.size() < kAhead; })) return;
    }
    std::string text;
    try {
      format_(block, text);
    } catch (...) {
      // The writer formats this block and the rest of the helper's: the list stays whole.
      const std::lock_guard lock(mutex_);
      failed_ = true;
      changed_.notify_all();
      return;
    }
    const std::lock_guard lock(mutex_);
    ready_.push_back(std::move(text));
    changed_.notify_all();
  }
}

std::optional<std::string> block_helper::take(std::size_t block) {
  if (!helps(block) || block != next_taken_)
    throw std::invalid_argument("block_helper::take: not the helper's next block");
  next_taken_ += 2;
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return !ready_.empty() || failed_; });
  if (ready_.empty()) return std::nullopt;
  std::string text = std::move(ready_.front());
  ready_.pop_front();
  changed_.notify_all();
  return text;
}

}  // namespace corocrawl
