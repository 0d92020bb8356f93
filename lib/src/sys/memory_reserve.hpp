#pragma once
// Address space set aside while a crawl runs, given back should its memory run out: the
// result and the reports of a crawl that failed for memory need some memory of their own
// (the unchecked URLs' ids, orders by URL), which a crawl that used up an address space
// limit (ulimit -v) would not find otherwise. The space is mapped without access, so it
// costs no memory and, under strict overcommit, no commit charge: it helps under an address
// space limit only, where a bad_alloc is what running out of memory looks like.

#include <array>
#include <atomic>
#include <cstddef>

namespace corocrawl {

class memory_reserve {
 public:
  /// Sets `bytes` aside in pieces of 1 MiB, or as many pieces as a tight limit allows (a
  /// crawl under one that fails still needs some to stop its workers), or nothing.
  explicit memory_reserve(std::size_t bytes);
  memory_reserve(const memory_reserve&) = delete;
  memory_reserve& operator=(const memory_reserve&) = delete;
  ~memory_reserve() { release(); }

  /// Gives one piece back; false when none was left. Thread-safe.
  bool give_back_piece() noexcept;
  /// Gives every piece back. Thread-safe.
  void release() noexcept;
  /// The pieces still set aside.
  std::size_t pieces_left() const noexcept;

  static constexpr std::size_t piece_bytes = std::size_t{1} << 20;

 private:
  static constexpr std::size_t max_pieces = 64;
  std::array<std::atomic<void*>, max_pieces> pieces_{};
};

/// While it lives, each allocation that fails in the process (operator new, and Asio's own
/// allocations, which the build routes through it) gives a piece of `reserve` back before it
/// fails as it would have. What that failure unwinds then finds room, above all Asio 1.81's
/// destruction of a coroutine whose operation could not start: it allocates a post inside a
/// destructor, where a second bad_alloc is std::terminate. Installs a std::new_handler and
/// restores the one before it; while one reserve is armed, another is not (it is given back
/// only when its owner says so).
class reserve_on_allocation_failure {
 public:
  explicit reserve_on_allocation_failure(memory_reserve& reserve);
  ~reserve_on_allocation_failure();
  reserve_on_allocation_failure(const reserve_on_allocation_failure&) = delete;
  reserve_on_allocation_failure& operator=(const reserve_on_allocation_failure&) = delete;

 private:
  memory_reserve* armed_ = nullptr;  // null when another reserve was armed
};

}  // namespace corocrawl
