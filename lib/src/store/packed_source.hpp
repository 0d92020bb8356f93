#pragma once
// Where a page references a fragment its target lacks, as the fragment checks keep it: 12
// bytes, for a large crawl keeps millions. The column and the tag share a word. The rare
// place that does not fit, a column past 16,777,215 (a page of one line of 16 MB) or a tag
// past 254, is kept whole in a table aside, where the packed form points.

#include <cstdint>
#include <vector>

#include "store/stored_source.hpp"

namespace corocrawl {

struct packed_source {
  std::uint32_t page = stored_source::kNone;  ///< the referencing page's url id
  std::uint32_t line = 0;                     ///< or, for a wide place, its index aside
  std::uint32_t column_tag = 0;               ///< column << 8 | tag, or kWide

  static constexpr std::uint32_t kWide = 0xff;
};
static_assert(sizeof(packed_source) == 12);

/// Packs places, and keeps those that do not fit.
class source_packing {
 public:
  packed_source pack(const stored_source& source);
  /// The place `packed` stands for.
  stored_source unpack(const packed_source& packed) const;

 private:
  std::vector<stored_source> wide_;  // never shrinks: few pages have places this far
};

}  // namespace corocrawl
