#pragma once
// Where a page references a URL, as the crawl's lists keep it: 12 bytes, for a large crawl
// keeps millions (the places of its links to URLs not fetched yet, and of its missing
// fragments). The column and the tag share a word. The rare place that does not fit, a column
// past 16,777,215 (a page of one line of 16 MB) or a tag past 253, is kept whole in a table
// aside, where the packed form points. A packed form may also stand for a redirect: a
// referrer without a place.

#include <cstdint>
#include <vector>

#include "store/stored_source.hpp"

namespace corocrawl {

struct packed_source {
  std::uint32_t page = stored_source::kNone;  ///< the referencing page's url id
  std::uint32_t line = 0;                     ///< or, for a wide place, its index aside
  std::uint32_t column_tag = 0;               ///< column << 8 | tag, or | kRedirect, kWide

  static constexpr std::uint32_t kRedirect = 0xfe;
  static constexpr std::uint32_t kWide = 0xff;
  bool empty() const { return page == stored_source::kNone; }
  bool redirect() const { return (column_tag & 0xff) == kRedirect; }
};
static_assert(sizeof(packed_source) == 12);

/// Packs places, and keeps those that do not fit.
class source_packing {
 public:
  packed_source pack(const stored_source& source);
  /// The mark that page `page` redirects to the URL.
  static packed_source redirect(std::uint32_t page) {
    return {.page = page, .column_tag = packed_source::kRedirect};
  }
  /// The place `packed` (not a redirect) stands for.
  stored_source unpack(const packed_source& packed) const;

 private:
  std::vector<stored_source> wide_;  // never shrinks: few pages have places this far
};

}  // namespace corocrawl
