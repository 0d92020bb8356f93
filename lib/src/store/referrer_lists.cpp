#include "store/referrer_lists.hpp"

#include <algorithm>
#include <iterator>

namespace corocrawl {

void referrer_lists::add(handle& list, id referrer) {
  if (list != kEmpty) {  // room in the list's first block?
    auto& first = blocks_[list];
    if (auto* slot = std::ranges::find(first.ids, kNone); slot != std::end(first.ids)) {
      *slot = referrer;
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
  std::ranges::fill(added.ids, kNone);
  added.ids[0] = referrer;
  added.next = list;
  list = fresh;
}

void referrer_lists::clear(handle& list) {
  while (list != kEmpty) {
    const handle next = blocks_[list].next;
    blocks_[list].next = free_;
    free_ = list;
    list = next;
  }
}

std::vector<referrer_lists::id> referrer_lists::ids(handle list) const {
  std::vector<id> all;
  for (; list != kEmpty; list = blocks_[list].next) {
    for (const id referrer : blocks_[list].ids) {
      if (referrer != kNone) all.push_back(referrer);
    }
  }
  return all;
}

}  // namespace corocrawl
