#pragma once
// Start tags a reader has read and found to change nothing it follows, known again by their
// bytes alone. Pages repeat such tags many times over: the Python docs' highlighted code is
// mostly <span class="n">, <span class="p"> and a few dozen like them, which the link-tag
// reader scanned attribute by attribute each time (a third of its time on those pages).
//
// The tokenizer reads a tag from its '<' on, byte by byte, from the data state, and the tag
// ends at the first '>' outside a quoted value. So where html[lt] starts with the bytes of a
// tag read before, up to and including its '>', the tag there is the same tag, whatever
// follows it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace corocrawl::html {

class repeated_tags {
 public:
  static constexpr std::size_t npos = std::string_view::npos;

  /// One past the end of the tag at html[lt] when it is byte for byte one remembered, else
  /// npos. Most tags are not: their first sixteen bytes tell, read as two words.
  std::size_t find(std::string_view html, std::size_t lt) const {
    if (lt + kShortest > html.size()) return npos;
    const char* const at = html.data() + lt;
    const slot& remembered = slots_[slot_of(word_at(at), word_at(at + 8))];
    const std::size_t size = remembered.size;
    if (size == 0 || lt + size > html.size()) return npos;
    // Eight bytes at a time, the last eight (at size - 8, over the word before) too.
    const char* const bytes = remembered.bytes.data();
    for (std::size_t i = 0; i + 8 < size; i += 8) {
      if (word_at(at + i) != word_at(bytes + i)) return npos;
    }
    if (word_at(at + size - 8) != word_at(bytes + size - 8)) return npos;
    return lt + size;
  }

  /// Remembers `tag`, a whole tag read from its '<' to its '>', when that '>' is its only one
  /// and it is 16 to 48 bytes long; it takes the place of the one remembered with its hash.
  void remember(std::string_view tag) {
    if (tag.size() < kShortest || tag.size() > kLongest || tag.find('>') != tag.size() - 1) return;
    slot& into = slots_[slot_of(word_at(tag.data()), word_at(tag.data() + 8))];
    into.size = static_cast<std::uint8_t>(tag.size());
    std::memcpy(into.bytes.data(), tag.data(), tag.size());
  }

 private:
  // Most such tags take 16 to 40 bytes (<span class="n"> is 16); a shorter one could not be
  // told by its first sixteen bytes, which would run past it.
  static constexpr std::size_t kShortest = 16;
  static constexpr std::size_t kLongest = 48;
  static constexpr std::size_t kSlots = 64;

  struct slot {
    std::uint8_t size = 0;  // none remembered: no tag is this short
    std::array<char, kLongest> bytes{};
  };

  static std::uint64_t word_at(const char* bytes) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes, sizeof word);
    return word;
  }

  // By the first sixteen bytes, which tell most tags apart.
  static std::size_t slot_of(std::uint64_t low, std::uint64_t high) {
    const std::uint64_t hash = (low * 0x9E3779B97F4A7C15ULL) ^ (high * 0xC2B2AE3D27D4EB4FULL);
    return static_cast<std::size_t>(hash >> 58);  // the top 6 bits: kSlots
  }
  static_assert(kSlots == 64 && kLongest < 256);

  std::array<slot, kSlots> slots_{};
};

}  // namespace corocrawl::html
