#pragma once
// Many short lists, one per URL that may still turn out broken: the pages that link to it,
// and where they do. A crawl of a million pages can hold millions of such entries at once,
// so the lists are kept in blocks of a few entries from one pool (nothing per empty list),
// and a list that is dropped gives its blocks back for the next ones.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <vector>

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
      list = next;
    }
  }

  /// The entries of `list`, in no particular order.
  std::vector<T> entries(handle list) const {
    std::vector<T> all;
    for (; list != kEmpty; list = blocks_[list].next) {
      for (const T& entry : blocks_[list].entries) {
        if (!entry.empty()) all.push_back(entry);
      }
    }
    return all;
  }

 private:
  struct block {
    T entries[PerBlock];
    handle next;  // the rest of the list, or the next free block
  };
  table_array<block> blocks_;
  handle free_ = kEmpty;
};

}  // namespace corocrawl
