#pragma once
// The URLs of a crawl in the order of their text, for the reports. A comparison of two URLs
// reads two texts far apart in memory: at a million URLs a sort by text took a second of
// cache misses. Each text is read once here, for an 8-byte key past the prefix all share, and
// the URLs whose keys are equal once more for each next eight bytes (a radix sort from the
// most significant end).

#include <optional>
#include <span>

#include "store/url_table.hpp"

namespace corocrawl {

/// Sorts `ids` (of `urls`) by their URL's text, byte by byte as unsigned, each text taken
/// with `ending` appended when one is given: '#' orders pages as "page#fragment" texts do.
void order_by_text(std::span<url_table::id> ids, const url_table& urls,
                   std::optional<char> ending = std::nullopt);

}  // namespace corocrawl
