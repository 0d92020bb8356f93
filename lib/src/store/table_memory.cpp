#include "store/table_memory.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace corocrawl {

namespace {

std::size_t rounded_to_huge_pages(std::size_t bytes) {
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

}  // namespace

void* allocate_table(std::size_t bytes, bool huge) {
  if (!huge || bytes < kHugePageBytes) return ::operator new(bytes);
  // Mapped with a huge page's worth to spare, then cut to the aligned part.
  const std::size_t size = rounded_to_huge_pages(bytes);
  void* const mapped = mmap(nullptr, size + kHugePageBytes, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t aligned = (start + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  if (aligned > start) munmap(mapped, aligned - start);
  const std::uintptr_t end = start + size + kHugePageBytes;
  if (end > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), end - aligned - size);
#if defined(MADV_HUGEPAGE)
  madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);  // advice: failing is fine
#endif
  return reinterpret_cast<void*>(aligned);
}

void free_table(void* memory, std::size_t bytes, bool huge) noexcept {
  if (memory == nullptr) return;
  if (!huge || bytes < kHugePageBytes) {
    ::operator delete(memory);
    return;
  }
  munmap(memory, rounded_to_huge_pages(bytes));
}

}  // namespace corocrawl
