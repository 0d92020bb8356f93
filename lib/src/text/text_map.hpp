#pragma once
// Texts mapped to numbers, for the maps a page's parse builds and drops (its distinct links,
// the hrefs it resolved): open addressing with linear probing over (text, number, hash)
// slots. A lookup hashes its text once and compares text only where the hashes agree; an
// entry costs no allocation of its own (std::unordered_map allocates a node for each, and
// hashes twice for a find followed by an insert).
//
// The map keeps views: the text an entry's key views must outlive the map.

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <string_view>
#include <utility>
#include <vector>

#include "text/text_hashes.hpp"

namespace corocrawl {

class text_map {
 public:
  explicit text_map(std::pmr::memory_resource* memory = std::pmr::get_default_resource())
      : slots_(memory) {}

  /// The number `text` maps to, and false; or, when it maps to none yet, adds the entry
  /// `make()` returns ({a view equal to `text` that outlives the map, its number}) and gives
  /// that number, and true. make() must not change the map.
  template <class Make>
  std::pair<std::uint32_t, bool> find_or_add(std::string_view text, Make&& make) {
    return find_or_add(text, text_hash(text), std::forward<Make>(make));
  }
  /// As above, with `text`'s hash given (`hashed`, text_hash()'s), whose low half the map uses.
  template <class Make>
  std::pair<std::uint32_t, bool> find_or_add(std::string_view text, std::size_t hashed,
                                             Make&& make) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    const auto hash = static_cast<std::uint32_t>(hashed);
    slot& at = slots_[place_of(text, hash)];
    if (at.used) return {at.value, false};
    const std::pair<std::string_view, std::uint32_t> made = std::forward<Make>(make)();
    at = {made.first, made.second, hash, true};
    ++size_;
    return {made.second, true};
  }

  std::size_t size() const { return size_; }

 private:
  struct slot {
    std::string_view key;
    std::uint32_t value = 0;
    std::uint32_t hash = 0;
    bool used = false;
  };

  // Where `text` is, or the free slot where it would go.
  std::size_t place_of(std::string_view text, std::uint32_t hash) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const slot& here = slots_[i];
      if (!here.used || (here.hash == hash && here.key == text)) return i;
    }
  }

  // At most three quarters full: probes stay short.
  void grow() {
    std::pmr::vector<slot> old(slots_.get_allocator());
    old.swap(slots_);
    slots_.resize(old.empty() ? 64 : 2 * old.size());
    const std::size_t mask = slots_.size() - 1;
    for (const slot& entry : old) {
      if (!entry.used) continue;
      std::size_t i = entry.hash & mask;
      while (slots_[i].used)
        i = (i + 1) & mask;
      slots_[i] = entry;
    }
  }

  std::pmr::vector<slot> slots_;  // a power of two of them, or none
  std::size_t size_ = 0;
};

}  // namespace corocrawl
