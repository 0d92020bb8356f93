#pragma once
// The hashes by which the crawl's tables know a page's links: a URL's, by which the URL index
// finds it, and a fragment's or id's, by which a fragment is looked for among a page's ids.
// A page's parse computes them as it finds its links, fragments and ids (page_links), on a
// parse thread, so that the crawl's thread, which bounds how fast a crawl goes, takes them
// from the page instead of hashing the same text again.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// xxHash from its Debian package, compiled in where it is used: no library to load.
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

namespace corocrawl {

/// The hash of a text by which the crawl's tables and maps find it: XXH3's 64 bits, which
/// std::hash's took 2.7 times as long to compute for the Python docs' links (21 against 7.8
/// ns for 70 bytes). Computed anew each run, never kept in a file.
inline std::uint64_t text_hash(std::string_view text) {
  return XXH3_64bits(text.data(), text.size());
}

/// A URL's hash: 64 bits, of which the URL index uses the low half for the slot and the high
/// half to tell URLs apart.
inline std::size_t url_hash(std::string_view url) {
  return text_hash(url);
}

/// A fragment's or id's hash: 32 bits, as millions of ids are kept.
inline std::uint32_t id_hash(std::string_view text) {
  const std::uint64_t h = text_hash(text);
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

/// The hashes of a page's ids, sorted, each once: what a fragment is looked for in.
inline std::vector<std::uint32_t> id_hashes(std::span<const std::string> ids) {
  std::vector<std::uint32_t> hashes;
  hashes.reserve(ids.size());
  for (const std::string& id : ids)
    hashes.push_back(id_hash(id));
  std::ranges::sort(hashes);
  hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
  return hashes;
}

}  // namespace corocrawl
