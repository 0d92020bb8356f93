#pragma once
// Where a page references a URL, as the crawl's tables keep it: 16 bytes, the element and
// attribute stored once in a table of their pairs.

#include <cstdint>

namespace corocrawl {

struct stored_source {
  static constexpr std::uint32_t kNone = 0xffff'ffff;
  std::uint32_t page = kNone;  ///< the referencing page's url id
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t tag = 0;  ///< index of its (element, attribute) pair
  bool empty() const { return page == kNone; }
};

}  // namespace corocrawl
