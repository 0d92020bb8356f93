#pragma once
// Reading a spilled table a few elements at a time, in order, from one thread or several: each
// read of the file brings a block of 64 KiB, and the last four blocks read are kept, so that
// reading on where the last read ended (the reports' way, a block of items on each of the
// summary's two threads) reads the file once. A table that never spilled is read in place.

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <mutex>
#include <span>
#include <vector>

#include "store/spilled_table.hpp"

namespace corocrawl {

template <class T>
class spilled_reader {
 public:
  /// Reads `table`, which must outlive the reader and no longer be added to while it reads.
  explicit spilled_reader(const spilled_table<T>& table) : table_(table) {}

  /// Copies elements from `first` on (< the table's size) into `into` (not empty): as many as
  /// one read gives, at least one; returns how many. Safe from several threads at once.
  /// Throws std::system_error if the file cannot be read.
  std::size_t read(std::size_t first, std::span<T> into) const {
    if (!table_.spilled()) {  // all in memory: read at once, by any thread
      table_.read(first, into);
      return into.size();
    }
    const std::lock_guard lock(mutex_);
    auto held = std::ranges::find_if(blocks_, [first](const block& b) {
      return b.first <= first && first < b.first + b.elements.size();
    });
    if (held == blocks_.end()) {
      held = blocks_.begin() + static_cast<std::ptrdiff_t>(next_);
      next_ = (next_ + 1) % blocks_.size();
      held->first = first / kBlock * kBlock;
      held->elements.resize(std::min(kBlock, table_.size() - held->first));
      try {
        table_.read(held->first, held->elements);
      } catch (...) {
        held->elements.clear();  // not held, then
        throw;
      }
    }
    const std::size_t count = std::min(into.size(), held->first + held->elements.size() - first);
    std::copy_n(held->elements.begin() + static_cast<std::ptrdiff_t>(first - held->first), count,
                into.begin());
    return count;
  }

 private:
  static constexpr std::size_t kBlock =
      std::max<std::size_t>((std::size_t{64} << 10) / sizeof(T), 1);
  struct block {
    std::size_t first = 0;
    std::vector<T> elements;
  };

  const spilled_table<T>& table_;
  mutable std::mutex mutex_;
  mutable std::array<block, 4> blocks_;
  mutable std::size_t next_ = 0;  // the block read into next
};

}  // namespace corocrawl
