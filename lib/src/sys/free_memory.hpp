#pragma once
// Gives the memory malloc holds freed back to the system, where the C library can (glibc's
// malloc_trim; elsewhere nothing). Freed memory otherwise stays with the heap that freed it:
// a thread's arena that no other thread allocates from, or small blocks between live ones
// that a later large allocation cannot use, and the process's peak grows by it.

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace corocrawl {

inline void give_back_freed_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace corocrawl
