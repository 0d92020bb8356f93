#include "store/url_order.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
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
};

// Bytes [from, from + 8) of `text`, big-endian, 0 past its end: keys compare as the bytes
// do, and texts whose keys are equal are told apart by the bytes after.
std::uint64_t key_at(const ended_text& text, std::size_t from) {
  std::uint64_t key = 0;
  for (std::size_t i = from; i < from + 8; ++i)
    key = (key << 8) | (i < text.size() ? text.at(i) : 0U);
  return key;
}

// 12 bytes, the key in halves: at a million URLs a 16-byte one took 4 MB more, at the
// crawl's peak.
struct keyed {
  std::uint32_t high;
  std::uint32_t low;
  url_table::id id;
  std::uint64_t key() const { return (std::uint64_t{high} << 32) | low; }
  void set_key(std::uint64_t key) {
    high = static_cast<std::uint32_t>(key >> 32);
    low = static_cast<std::uint32_t>(key);
  }
};
static_assert(sizeof(keyed) == 12);

// How many bytes all the texts of `run` share, knowing they agree before `from` (keys pad
// texts with zeros: then at least `from`).
template <class TextOf>
std::size_t shared_prefix(std::span<const keyed> run, std::size_t from, const TextOf& text_of) {
  const ended_text first = text_of(run.front().id);
  std::size_t shared = std::max(from, first.size());
  for (const keyed& k : run.subspan(1)) {
    const ended_text text = text_of(k.id);
    std::size_t same = from;
    const std::size_t n = std::min(shared, text.size());
    while (same < n && text.at(same) == first.at(same))
      ++same;
    shared = same;
  }
  return shared;
}

// Orders `run`, whose texts agree before `from`, by their bytes from there: each text read
// once for its key there, then the runs of equal keys by the bytes after. (Compared whole
// instead, the URLs of a million-page site, alike for their first 8 bytes past the host a
// thousand at a time, read two texts far apart in memory ten times a URL.) A run all of one
// key is keyed next where its texts part, not 8 bytes on: texts alike for kilobytes cost a
// level, not one for each 8 bytes. At most a level for each 8 bytes of the longest text.
template <class TextOf>
void order_from(std::span<keyed> run, std::size_t from, const TextOf& text_of) {
  std::size_t longest = 0;
  for (keyed& k : run) {
    const ended_text text = text_of(k.id);
    longest = std::max(longest, text.size());
    k.set_key(key_at(text, from));
  }
  std::ranges::sort(run, [](const keyed& a, const keyed& b) { return a.key() < b.key(); });
  for (auto first = run.begin(); first != run.end();) {
    const auto last = std::find_if(first + 1, run.end(),
                                   [&first](const keyed& k) { return k.key() != first->key(); });
    const std::span<keyed> alike(first, last);
    first = last;
    if (alike.size() < 2) continue;
    if (longest <= from + 8) {
      // Keys of every byte, equal: texts alike but for the NULs some end in, the shorter first.
      std::ranges::sort(alike, {}, [&text_of](const keyed& k) { return text_of(k.id).size(); });
    } else {
      const bool whole_run = alike.size() == run.size();
      order_from(alike, whole_run ? shared_prefix(alike, from + 8, text_of) : from + 8, text_of);
    }
  }
}

}  // namespace

void order_by_text(std::span<url_table::id> ids, const url_table& urls,
                   std::optional<char> ending) {
  if (ids.size() < 2) return;
  const auto text_of = [&urls, ending](url_table::id id) { return ended_text{urls[id], ending}; };
  std::vector<keyed> keys(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i)
    keys[i].id = ids[i];
  // The prefix every text shares (the scheme and host, often more) says nothing of the order.
  order_from(keys, shared_prefix(keys, 0, text_of), text_of);
  for (std::size_t i = 0; i < ids.size(); ++i)
    ids[i] = keys[i].id;
}

}  // namespace corocrawl
