#pragma once
// Many short lists: the places that link to each URL that may still turn out broken
// (store/place_lists). A crawl of a million pages can hold millions of such entries at once, so the
// lists are kept in blocks of a few entries from one pool (nothing per empty list), and a list that
// is dropped gives its blocks back for the next ones. A pool mostly given back can be compacted, so
// that its memory goes back to the system.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>

#include "store/table_memory.hpp"

namespace corocrawl {

/// `T` is a small value type whose value-initialised form is a free slot (`T{}.empty()`).
template <class T, std::size_t PerBlock>
requires requires(const T t) {
  { t.empty() } -> std::same_as<bool>;
}
class pooled_lists {
 public:
  /// A list's handle: the caller keeps one per list, kEmpty to begin with.
  using handle = std::uint32_t;
  static constexpr handle kEmpty = 0xffff'ffff;

  /// Adds `entry` (not empty()) to `list`.
  void add(handle& list, const T& entry) {
    if (list != kEmpty) {  // room in the list's first block?
      auto& first = blocks_[list];
      auto* slot = std::ranges::find_if(first.entries, [](const T& t) { return t.empty(); });
      if (slot != std::end(first.entries)) {
        *slot = entry;
        return;
      }
    }
    handle fresh = free_;
    if (fresh != kEmpty) {
      free_ = blocks_[fresh].next;
      --free_count_;
    } else {
      fresh = static_cast<handle>(blocks_.size());
      blocks_.emplace_back();
    }
    auto& added = blocks_[fresh];
    std::ranges::fill(added.entries, T{});
    added.entries[0] = entry;
    added.next = list;
    list = fresh;
  }

  /// The entry added last to `list`, to be added to in place; none for an empty list. With
  /// one entry a block, the one add() would put a new entry before.
  T* newest(handle list) requires(PerBlock == 1) {
    return list == kEmpty ? nullptr : &blocks_[list].entries[0];
  }

  /// Starts reading the block add() writes to.
  void prefetch(handle list) const {
    if (list != kEmpty) __builtin_prefetch(&blocks_[list]);
  }

  /// Empties `list` and frees its blocks.
  void clear(handle& list) {
    while (list != kEmpty) {
      const handle next = blocks_[list].next;
      blocks_[list].next = free_;
      free_ = list;
      ++free_count_;
      list = next;
    }
  }

  /// The memory the pool holds, and how much of it its lists use.
  std::size_t bytes_held() const { return blocks_.size() * sizeof(block); }
  std::size_t bytes_used() const { return (blocks_.size() - free_count_) * sizeof(block); }

  /// Whether compacting is worth it: more than half of a pool of some size is free. Compacting
  /// then halves the pool at least, so the walk over the lists it takes is paid for by the
  /// blocks given back since the last one.
  bool mostly_free() const {
    constexpr std::size_t kWorthCompacting = std::size_t{8} << 20;
    return bytes_held() >= kWorthCompacting && bytes_used() < bytes_held() / 2;
  }

  /// Moves every block in use below the free ones and gives the memory past them back.
  /// `each_list(f)` calls `f(handle&)` with the handle of every list once (an empty one is
  /// passed over): a handle may change. Nothing is allocated.
  template <class EachList>
  void compact(EachList each_list) {
    const std::size_t used = blocks_.size() - free_count_;
    // The free blocks below `used`, as many as the blocks in use from `used` on: where those
    // move to.
    handle low_free = kEmpty;
    for (handle at = free_; at != kEmpty;) {
      const handle next = blocks_[at].next;
      if (at < used) {
        blocks_[at].next = low_free;
        low_free = at;
      }
      at = next;
    }
    each_list([this, used, &low_free](handle& list) {
      for (handle* link = &list; *link != kEmpty; link = &blocks_[*link].next) {
        if (*link < used) continue;
        const handle to = low_free;
        low_free = blocks_[to].next;
        blocks_[to] = blocks_[*link];
        *link = to;
      }
    });
    blocks_.truncate(used);
    free_ = kEmpty;
    free_count_ = 0;
  }

  /// Calls `visit(entry)` with each entry of `list`, in no particular order. `visit` may add
  /// to other lists, not clear or compact.
  template <class Visit>
  void for_each(handle list, Visit visit) const {
    for (; list != kEmpty; list = blocks_[list].next) {
      for (const T& entry : blocks_[list].entries) {
        if (!entry.empty()) visit(entry);
      }
    }
  }

 private:
  struct block {
    T entries[PerBlock];
    handle next;  // the rest of the list, or the next free block
  };
  table_array<block> blocks_;
  handle free_ = kEmpty;
  std::size_t free_count_ = 0;
};

}  // namespace corocrawl
