#pragma once
// Lists of page ids, one per URL that may still turn out broken: the pages that link to it,
// in blocks of seven ids (about 4.6 bytes a link; see pooled_lists).

#include <cstdint>
#include <vector>

#include "store/pooled_lists.hpp"

namespace corocrawl {

class referrer_lists {
 public:
  using id = std::uint32_t;
  using handle = std::uint32_t;
  static constexpr handle kEmpty = 0xffff'ffff;

  void add(handle& list, id referrer) { lists_.add(list, {referrer}); }
  void prefetch(handle list) const { lists_.prefetch(list); }
  /// Empties `list` and frees its blocks.
  void clear(handle& list) { lists_.clear(list); }
  /// The ids in `list`, in no particular order.
  std::vector<id> ids(handle list) const {
    std::vector<id> all;
    for (const page_ref ref : lists_.entries(list))
      all.push_back(ref.page);
    return all;
  }

 private:
  struct page_ref {
    id page = 0xffff'ffff;
    bool empty() const { return page == 0xffff'ffff; }
  };
  static_assert(pooled_lists<page_ref, 7>::kEmpty == kEmpty);
  pooled_lists<page_ref, 7> lists_;
};

}  // namespace corocrawl
