// The reserve's mapping, and the new_handler that gives it back (see memory_reserve.hpp).
#include "sys/memory_reserve.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <new>
#include <thread>

namespace corocrawl {

namespace {

// The reserve the new_handler gives back, and the handler it took over from; set and
// cleared only by reserve_on_allocation_failure.
std::atomic<memory_reserve*> armed_reserve{nullptr};
std::atomic<std::new_handler> handler_before{nullptr};
// Handlers between loading armed_reserve and giving its piece back, which the reserve must
// outlive.
std::atomic<int> handlers_giving_back{0};

// Called by operator new when it could not allocate. A piece of the reserve makes room for
// what the failure unwinds, but the allocation still fails: memory did run out, and the
// caller must learn it.
void give_reserve_back() {
  ++handlers_giving_back;
  if (auto* reserve = armed_reserve.load()) reserve->give_back_piece();
  --handlers_giving_back;
  if (const std::new_handler previous = handler_before.load()) return previous();
  throw std::bad_alloc();
}

}  // namespace

memory_reserve::memory_reserve(std::size_t bytes) {
  const std::size_t wanted = std::min(bytes / piece_bytes, max_pieces);
  for (std::size_t piece = 0; piece < wanted; ++piece) {
    void* start =
        mmap(nullptr, piece_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (start == MAP_FAILED) return;
    pieces_[piece] = start;
  }
}

bool memory_reserve::give_back_piece() noexcept {
  for (auto& piece : pieces_) {
    if (void* start = piece.exchange(nullptr)) {
      munmap(start, piece_bytes);
      return true;
    }
  }
  return false;
}

void memory_reserve::release() noexcept {
  while (give_back_piece()) {
  }
}

std::size_t memory_reserve::pieces_left() const noexcept {
  return static_cast<std::size_t>(std::count_if(
      pieces_.begin(), pieces_.end(), [](const auto& piece) { return piece.load() != nullptr; }));
}

reserve_on_allocation_failure::reserve_on_allocation_failure(memory_reserve& reserve) {
  memory_reserve* none = nullptr;
  if (!armed_reserve.compare_exchange_strong(none, &reserve)) return;
  armed_ = &reserve;
  handler_before = std::get_new_handler();
  std::set_new_handler(give_reserve_back);
}

reserve_on_allocation_failure::~reserve_on_allocation_failure() {
  if (armed_ == nullptr) return;
  std::set_new_handler(handler_before.exchange(nullptr));
  memory_reserve* mine = armed_;
  armed_reserve.compare_exchange_strong(mine, nullptr);
  while (handlers_giving_back.load() != 0)
    std::this_thread::yield();
}

}  // namespace corocrawl
