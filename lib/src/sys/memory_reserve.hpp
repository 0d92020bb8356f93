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
  /// Sets `bytes` aside, or nothing when even that is refused.
  explicit memory_reserve(std::size_t bytes)
      : start_(mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)),
        bytes_(bytes) {
    if (start_ == MAP_FAILED) start_ = nullptr;
  }
  memory_reserve(const memory_reserve&) = delete;
  memory_reserve& operator=(const memory_reserve&) = delete;
  ~memory_reserve() { release(); }

  /// Gives the space back, once.
  void release() noexcept {
    if (start_ != nullptr) munmap(std::exchange(start_, nullptr), bytes_);
  }

 private:
  void* start_;
  std::size_t bytes_;
};

}  // namespace corocrawl
