#pragma once
// Address space set aside while a crawl runs, given back should its memory run out: the
// result and the reports of a crawl that failed for memory need some memory of their own
// (the unchecked URLs' ids, orders by URL), which a crawl that used up an address space
// limit (ulimit -v) would not find otherwise. The space is mapped without access, so it
// costs no memory and, under strict overcommit, no commit charge: it helps under an address
// space limit only, where a bad_alloc is what running out of memory looks like.

#include <sys/mman.h>

#include <cstddef>
#include <utility>

namespace corocrawl {

class memory_reserve {
 public:
  /// Sets `bytes` aside, or the most of half, a quarter ... of it down to 1 MiB that a tight
  /// limit allows (a crawl under one that fails still needs some to stop its workers), or
  /// nothing.
  explicit memory_reserve(std::size_t bytes) {
    constexpr std::size_t least = std::size_t{1} << 20;
    for (; bytes >= least; bytes /= 2) {
      void* start =
          mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (start != MAP_FAILED) {
        start_ = start;
        bytes_ = bytes;
        return;
      }
    }
  }
  memory_reserve(const memory_reserve&) = delete;
  memory_reserve& operator=(const memory_reserve&) = delete;
  ~memory_reserve() { release(); }

  /// Gives the space back, once.
  void release() noexcept {
    if (start_ != nullptr) munmap(std::exchange(start_, nullptr), bytes_);
  }

 private:
  void* start_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace corocrawl
