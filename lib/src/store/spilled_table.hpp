#pragma once
// A table that is only added to while a crawl runs and read at its end: once it holds more
// than a threshold, what it holds goes to a spill_file, and what is added after goes there in
// blocks, so that its memory is a block's, not the table's. It is read back a block at a time,
// or a range at a time.
// Spilling is a saving, never a condition: when no file can be made or written, the table
// stays in memory (a warning says so once) and loses nothing.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "store/table_memory.hpp"
#include "sys/spill_file.hpp"

namespace corocrawl {

template <class T>
class spilled_table {
 public:
  static constexpr std::size_t kBlock = (std::size_t{128} << 10) / sizeof(T);

  /// Spills once it holds `spill_from` elements (at least one block's worth); `what` names
  /// the elements in a warning.
  spilled_table(const char* what, std::size_t spill_from)
      : what_(what), spill_from_(std::max(spill_from, kBlock)) {}

  /// Adds `value` at the end.
  void push_back(const T& value) {
    if (file_ && may_spill_) {
      block_.push_back(value);
      if (block_.size() == kBlock) write_block();
      return;
    }
    kept_.push_back(value);
    if (kept_.size() >= spill_from_ && may_spill_) spill_kept();
  }
  /// How many elements were added, in memory or not.
  std::size_t size() const { return spilled_ + kept_.size() + block_.size(); }

  /// Copies elements [first, first + into.size()) (all of them added) into `into`, from the
  /// file or from memory. Safe from several threads at once while nothing is added. Throws
  /// std::system_error if the file cannot be read.
  void read(std::size_t first, std::span<T> into) const {
    if (first < spilled_ && !into.empty()) {
      const std::span<T> from_file = into.first(std::min(into.size(), spilled_ - first));
      const std::error_code error =
          file_->read_at(first * sizeof(T), std::as_writable_bytes(from_file));
      if (error)
        throw std::system_error(error, std::string("reading back ") + what_ + " from a file");
      into = into.subspan(from_file.size());
      first += from_file.size();
    }
    for (T& value : into) {
      const std::size_t at = first++ - spilled_;
      value = at < kept_.size() ? kept_[at] : block_[at - kept_.size()];
    }
  }
  /// Calls `visit(element)` with every element, in the order added, reading the file back a
  /// block at a time. `visit` may not add to this table. Throws as read().
  template <class Visit>
  void for_each(Visit visit) const {
    if (spilled_ != 0) {
      std::vector<T> chunk(std::min(kBlock, spilled_));
      for (std::size_t at = 0; at < spilled_; at += chunk.size()) {
        const std::span<T> part(chunk.data(), std::min(chunk.size(), spilled_ - at));
        read(at, part);
        for (const T& value : part)
          visit(value);
      }
    }
    for (const T& value : kept_)
      visit(value);
    for (const T& value : block_)
      visit(value);
  }
  /// for_each(), then clear().
  template <class Visit>
  void drain(Visit visit) {
    for_each(std::move(visit));
    clear();
  }
  /// Empties the table and closes its file; it spills no more.
  void clear() {
    may_spill_ = false;
    kept_ = {};  // assigned afresh, so that their memory goes
    block_ = {};
    file_.reset();
    spilled_ = 0;
  }
  /// Elements [first, first + count) where they lie in memory one after the other; null when
  /// some are in the file, or they are not in one piece.
  const T* contiguous(std::size_t first, std::size_t count) const {
    if (first < spilled_ || count == 0) return nullptr;
    const std::size_t at = first - spilled_;
    if (at < kept_.size())
      return at + count <= kept_.size() ? kept_.contiguous(at, count) : nullptr;
    const std::size_t in_block = at - kept_.size();
    return in_block + count <= block_.size() ? block_.data() + in_block : nullptr;
  }
  /// The elements in memory: all of them while none were spilled.
  const table_array<T>& in_memory() const { return kept_; }
  /// Whether some elements are in a file.
  bool spilled() const { return spilled_ != 0; }

 private:
  // Moves what the table holds to a new file; if that fails, the table keeps it in memory.
  void spill_kept() {
    std::error_code error;
    file_ = spill_file::create(error);
    for (std::size_t at = 0; !error && at < kept_.size(); at += table_array<T>::kPerRegion) {
      const std::size_t count = std::min(table_array<T>::kPerRegion, kept_.size() - at);
      error = file_->append(std::as_bytes(std::span(kept_.contiguous(at, count), count)));
    }
    if (error) {
      give_up(error);
      return;
    }
    spilled_ = kept_.size();
    kept_ = {};  // assigned afresh, so that its memory goes
    block_.reserve(kBlock);
  }
  // Appends the block to the file; if that fails, the rest stays in memory.
  void write_block() {
    const std::error_code error = file_->append(std::as_bytes(std::span(block_)));
    if (error) {
      for (const T& value : block_)
        kept_.push_back(value);
      block_.clear();
      give_up(error);
      return;
    }
    spilled_ += block_.size();
    block_.clear();
  }
  void give_up(const std::error_code& error) {
    warn_cannot_spill(what_, error);
    may_spill_ = false;
    if (spilled_ == 0) file_.reset();  // else it holds the first spilled_ elements
  }

  const char* what_;
  std::size_t spill_from_;
  bool may_spill_ = true;
  std::optional<spill_file> file_;  // holds elements [0, spilled_)
  std::size_t spilled_ = 0;
  table_array<T> kept_;   // before spilling, or after a failure to spill
  std::vector<T> block_;  // to be written next, after the file's elements
};

}  // namespace corocrawl
