#include "store/url_order.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace corocrawl {

namespace {

// `text` followed by `ending` (when given), as one string whose bytes can be asked for.
struct ended_text {
  split_text text;
  std::optional<char> ending;

  std::size_t size() const { return text.size() + (ending ? 1 : 0); }
  unsigned char at(std::size_t i) const {
    return static_cast<unsigned char>(i < text.size() ? text[i] : *ending);
  }
  friend bool operator<(const ended_text& a, const ended_text& b) {
    const auto pieces = [](const ended_text& t) {
      return std::array<std::string_view, 3>{t.text.head, t.text.tail,
                                             t.ending ? std::string_view(&*t.ending, 1) : ""};
    };
    return pieces_less(pieces(a), pieces(b));
  }
};

// Bytes [from, from + 8) of `text`, big-endian, 0 past its end: keys compare as the bytes
// do, and two texts whose keys are equal are compared whole.
std::uint64_t key_at(const ended_text& text, std::size_t from) {
  std::uint64_t key = 0;
  for (std::size_t i = from; i < from + 8; ++i)
    key = (key << 8) | (i < text.size() ? text.at(i) : 0U);
  return key;
}

}  // namespace

void order_by_text(std::span<url_table::id> ids, const url_table& urls,
                   std::optional<char> ending) {
  if (ids.size() < 2) return;
  const auto text_of = [&urls, ending](url_table::id id) { return ended_text{urls[id], ending}; };
  // The prefix every text shares (the scheme and host, often more) says nothing of the order.
  const ended_text first = text_of(ids[0]);
  std::size_t shared = first.size();
  for (const url_table::id id : ids.subspan(1)) {
    const ended_text text = text_of(id);
    std::size_t same = 0;
    const std::size_t n = std::min(shared, text.size());
    while (same < n && text.at(same) == first.at(same))
      ++same;
    shared = same;
  }
  // 12 bytes, the key in halves: at a million URLs a 16-byte one took 4 MB more, at the
  // crawl's peak.
  struct keyed {
    std::uint32_t high;
    std::uint32_t low;
    url_table::id id;
    std::uint64_t key() const { return (std::uint64_t{high} << 32) | low; }
  };
  static_assert(sizeof(keyed) == 12);
  std::vector<keyed> keys;
  keys.reserve(ids.size());
  for (const url_table::id id : ids) {
    const std::uint64_t key = key_at(text_of(id), shared);
    keys.push_back({static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key), id});
  }
  std::ranges::sort(keys, [](const keyed& a, const keyed& b) { return a.key() < b.key(); });
  // Runs of equal keys, in the order of their whole text.
  for (auto run = keys.begin(); run != keys.end();) {
    const auto end =
        std::find_if(run, keys.end(), [&run](const keyed& k) { return k.key() != run->key(); });
    if (end - run > 1) {
      std::sort(run, end, [&text_of](const keyed& a, const keyed& b) {
        return text_of(a.id) < text_of(b.id);
      });
    }
    run = end;
  }
  for (std::size_t i = 0; i < ids.size(); ++i)
    ids[i] = keys[i].id;
}

}  // namespace corocrawl
