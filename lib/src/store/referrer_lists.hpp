#pragma once
// Lists of page ids, one per URL that may still turn out broken: the pages that link to it.
// A crawl of a million pages can hold millions of such links at once, so the lists are kept
// in blocks of seven ids from one pool (about 4.6 bytes a link, nothing per empty list), and
// a list that is dropped gives its blocks back for the next ones.

#include <cstdint>
#include <deque>
#include <vector>

namespace corocrawl {

class referrer_lists {
 public:
  using id = std::uint32_t;
  /// A list's handle: the caller keeps one per list, kEmpty to begin with.
  using handle = std::uint32_t;
  static constexpr handle kEmpty = 0xffff'ffff;

  void add(handle& list, id referrer);
  /// Empties `list` and frees its blocks.
  void clear(handle& list);
  /// The ids in `list`, in no particular order.
  std::vector<id> ids(handle list) const;

 private:
  static constexpr id kNone = 0xffff'ffff;
  struct block {
    id ids[7];
    handle next;  // the rest of the list, or the next free block
  };
  std::deque<block> blocks_;
  handle free_ = kEmpty;
};

}  // namespace corocrawl
