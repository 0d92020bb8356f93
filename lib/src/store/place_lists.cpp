#include "store/place_lists.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

namespace corocrawl {

namespace {

// A place is its header, then its numbers: the header is 0 for a redirect (the page
// follows), or the tag + 1 (the page, line and column follow). Each is written 7 bits a byte,
// the low bits first, the top bit of a byte set when more follow: at most 5 + 3 * 5 bytes.
constexpr std::size_t kMaxEncoded = 20;
using encoded_place = std::array<std::uint8_t, kMaxEncoded>;

std::size_t put(encoded_place& out, std::size_t at, std::uint64_t value) {
  while (value >= 0x80) {
    out[at++] = static_cast<std::uint8_t>(value | 0x80);
    value >>= 7;
  }
  out[at++] = static_cast<std::uint8_t>(value);
  return at;
}

std::uint64_t get(const std::uint8_t* bytes, std::size_t& at) {
  std::uint64_t value = 0;
  for (int shift = 0;; shift += 7) {
    const std::uint8_t byte = bytes[at++];
    value |= std::uint64_t{byte & 0x7fU} << shift;
    if ((byte & 0x80) == 0) return value;
  }
}

}  // namespace

void place_lists::add(handle& list, const stored_source& place) {
  encoded_place out;
  std::size_t size = put(out, 0, std::uint64_t{place.tag} + 1);
  size = put(out, size, place.page);
  size = put(out, size, place.line);
  size = put(out, size, place.column);
  append(list, std::span(out).first(size));
}

void place_lists::add_redirect(handle& list, std::uint32_t page) {
  encoded_place out;
  const std::size_t size = put(out, put(out, 0, 0), page);
  append(list, std::span(out).first(size));
}

void place_lists::append(handle& list, std::span<const std::uint8_t> encoded) {
  static_assert(kMaxEncoded <= sizeof(chunk::bytes));
  if (chunk* newest = chunks_.newest(list);
      newest != nullptr && newest->used + encoded.size() <= sizeof(newest->bytes)) {
    std::ranges::copy(encoded, newest->bytes + newest->used);
    newest->used = static_cast<std::uint8_t>(newest->used + encoded.size());
    return;
  }
  chunk added{};  // the bytes past `used` too: a block is copied whole
  std::ranges::copy(encoded, added.bytes);
  added.used = static_cast<std::uint8_t>(encoded.size());
  chunks_.add(list, added);
}

std::vector<listed_place> place_lists::places(handle list) const {
  std::vector<listed_place> all;
  chunks_.for_each(list, [&all](const chunk& c) {
    for (std::size_t at = 0; at < c.used;) {
      listed_place& place = all.emplace_back();
      const std::uint64_t header = get(c.bytes, at);
      place.redirect = header == 0;
      place.source.page = static_cast<std::uint32_t>(get(c.bytes, at));
      if (place.redirect) continue;
      place.source.tag = static_cast<std::uint32_t>(header - 1);
      place.source.line = static_cast<std::uint32_t>(get(c.bytes, at));
      place.source.column = static_cast<std::uint32_t>(get(c.bytes, at));
    }
  });
  return all;
}

}  // namespace corocrawl
