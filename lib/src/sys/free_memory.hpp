#pragma once
// Gives the memory malloc holds freed back to the system, where the C library can (glibc's
// malloc_trim; elsewhere nothing). Freed memory otherwise stays with the heap that freed it:
// a thread's arena that no other thread allocates from, or small blocks between live ones
// that a later large allocation cannot use, and the process's peak grows by it.

#include <cstddef>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace corocrawl {

/// How much freed memory is worth the time of giving it back: a trim walks the heaps and
/// tells the kernel of each free run (at the end of the Python docs' crawl, 2 MB in some 40
/// runs took half a millisecond, two trims a millisecond, for no lower peak).
constexpr std::size_t kWorthGivingBack = std::size_t{4} << 20;

inline void give_back_freed_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

/// give_back_freed_memory() when the heaps hold kWorthGivingBack freed or more.
inline void give_back_much_freed_memory() {
#if defined(__GLIBC__)
  if (mallinfo2().fordblks >= kWorthGivingBack) malloc_trim(0);
#endif
}

}  // namespace corocrawl
