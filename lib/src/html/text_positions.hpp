#pragma once
// Lines and columns of offsets in a page, in one forward pass (and, in a run between two
// offsets that holds a line feed, a search back from its end for where its last line starts).

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace corocrawl::html {

struct text_position {
  std::uint32_t line = 1;    // 1-based; a line ends at "\n", "\r\n" or a lone "\r"
  std::uint32_t column = 1;  // 1-based, in code points (UTF-8 lead bytes) from the line's start
};

// The positions of offsets that never decrease: each byte of the text is read once, however
// many offsets are asked for (a long minified line is not read again for each one).
class position_counter {
 public:
  explicit position_counter(std::string_view text) : text_(text) {}

  text_position at(std::size_t offset) {
    if (offset > text_.size()) offset = text_.size();
    if (offset <= next_) return position_;
    const char* const begin = text_.data() + next_;
    const char* const end = text_.data() + offset;
    // Most text has no CR, and its runs between offsets hold few line feeds: those are counted
    // in bulk. A CR (a lone one ends a line, one before LF does with it) is counted byte by byte.
    if (carriage_return_before(offset) || (after_cr_ && *begin == '\n')) {
      count_bytewise(begin, end);
    } else {
      count_line_feeds(begin, end);
      after_cr_ = false;
    }
    next_ = offset;
    return position_;
  }

  /// Counts up to `offset`, which later offsets are counted from: the text's first `offset`
  /// bytes are no longer asked about (see view()).
  void drop(std::size_t offset) {
    at(offset);
    next_ -= offset;  // at() left it at least at offset
    if (cr_ != kNone && cr_ >= offset) {
      cr_ -= offset;
      searched_ -= offset;
    } else {
      cr_ = kNone;  // none known from next_ on: searched again from there
      searched_ = next_;
    }
  }
  /// Goes on counting in `text`: the same text, without the bytes dropped, and perhaps more.
  void view(std::string_view text) { text_ = text; }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  // Whether a CR lies in text_[next_, offset). Most text has none: it is searched once, from
  // where the last search ended, not for each offset; a CR passed makes the next search start
  // at next_.
  bool carriage_return_before(std::size_t offset) {
    if (cr_ == kNone || cr_ < next_) {
      const std::size_t from = cr_ == kNone ? std::max(next_, searched_) : next_;
      cr_ = kNone;
      if (from < text_.size()) {
        const void* found = std::memchr(text_.data() + from, '\r', text_.size() - from);
        if (found != nullptr)
          cr_ = static_cast<std::size_t>(static_cast<const char*>(found) - text_.data());
      }
      searched_ = text_.size();
    }
    return cr_ != kNone && cr_ < offset;
  }

  static bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

#if defined(__SSE2__)
  static __m128i load(const char* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  }

  // The sum of the sixteen bytes of `counts`.
  static std::size_t sum_of_bytes(__m128i counts) {
    const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());  // two halves' sums
    return static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
           static_cast<std::size_t>(_mm_extract_epi16(sums, 4));
  }

  // The bytes of [begin, end) that `matches` marks (a compare of sixteen bytes, all ones where
  // one matches), or `is_match` where the text holds fewer than sixteen bytes up to `end`.
  // Sixteen at a time, each byte of a sum counting its place's matches over up to 255 blocks;
  // the last few bytes as the end of the block that ends at `end`, with the bytes before them
  // masked off (the run between two offsets is often short, and was counted byte by byte).
  template <class Matches, class IsMatch>
  std::size_t count_matching(const char* begin, const char* end, Matches matches,
                             IsMatch is_match) const {
    // Loaded at kTail + n: 16 - n bytes of zeros, then n of ones.
    alignas(16) static constexpr signed char kTail[32] = {
        0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    std::size_t found = 0;
    const char* p = begin;
    while (end - p >= 16) {
      const std::size_t blocks = std::min<std::size_t>(static_cast<std::size_t>(end - p) / 16, 255);
      const char* const stop = p + blocks * 16;
      __m128i counts = _mm_setzero_si128();
      for (; p != stop; p += 16)
        counts = _mm_sub_epi8(counts, matches(load(p)));  // a match is -1
      found += sum_of_bytes(counts);
    }
    const auto left = end - p;
    if (left == 0) return found;
    if (end - text_.data() < 16)
      return found + static_cast<std::size_t>(std::count_if(p, end, is_match));
    const __m128i tail =
        _mm_and_si128(matches(load(end - 16)), load(reinterpret_cast<const char*>(kTail) + left));
    return found + sum_of_bytes(_mm_sub_epi8(_mm_setzero_si128(), tail));
  }
#endif

  std::size_t line_feeds(const char* begin, const char* end) const {
    const auto is_line_feed = [](char c) { return c == '\n'; };
#if defined(__SSE2__)
    const __m128i line_feed = _mm_set1_epi8('\n');
    return count_matching(
        begin, end, [line_feed](__m128i bytes) { return _mm_cmpeq_epi8(bytes, line_feed); },
        is_line_feed);
#else
    return static_cast<std::size_t>(std::count_if(begin, end, is_line_feed));
#endif
  }

  // The bytes that are not UTF-8 continuation bytes (10xxxxxx).
  std::uint32_t lead_bytes(const char* begin, const char* end) const {
#if defined(__SSE2__)
    // A continuation byte, 0x80 to 0xBF, is one below -64 read as a signed byte.
    const __m128i lead_from = _mm_set1_epi8(-64);
    const std::size_t continuation = count_matching(
        begin, end, [lead_from](__m128i bytes) { return _mm_cmplt_epi8(bytes, lead_from); },
        is_continuation);
#else
    std::size_t continuation = 0;
    const char* p = begin;
    for (; end - p >= 8; p += 8) {
      std::uint64_t word;
      std::memcpy(&word, p, sizeof word);
      // Bit 7 of each byte where bit 7 is set and bit 6 is not, summed by a multiply (std::popcount
      // is a library call where the target may lack the instruction).
      const std::uint64_t bits = (word & ~(word << 1) & 0x8080808080808080ULL) >> 7;
      continuation += static_cast<std::size_t>((bits * 0x0101010101010101ULL) >> 56);
    }
    continuation += static_cast<std::size_t>(std::count_if(p, end, is_continuation));
#endif
    return static_cast<std::uint32_t>(static_cast<std::size_t>(end - begin) - continuation);
  }

  // One past the last line feed in [begin, end), which holds one: searched from the end,
  // sixteen bytes at a time, as the last line is most often short.
  static const char* after_last_line_feed(const char* begin, const char* end) {
    const char* p = end;
#if defined(__SSE2__)
    const __m128i line_feed = _mm_set1_epi8('\n');
    for (; p - begin >= 16; p -= 16) {
      const auto mask =
          static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(load(p - 16), line_feed)));
      if (mask != 0) return p - 16 + std::bit_width(mask);
    }
#endif
    while (p[-1] != '\n')
      --p;
    return p;
  }

  // Counts [begin, end), which holds no CR, in bulk: its line feeds, then the column in its
  // last line, found searching back from the end. Runs between offsets hold a few short lines
  // each: a memchr for each line cost twice the time of counting sixteen bytes at a time.
  void count_line_feeds(const char* begin, const char* end) {
    const std::size_t lines = line_feeds(begin, end);
    const char* line_start = begin;  // of the last line
    if (lines != 0) {
      position_.line += static_cast<std::uint32_t>(lines);
      position_.column = 1;
      line_start = after_last_line_feed(begin, end);
    }
    position_.column += lead_bytes(line_start, end);
  }

  void count_bytewise(const char* begin, const char* end) {
    for (const char* p = begin; p != end; ++p) {
      const auto c = static_cast<unsigned char>(*p);
      if (c == '\n') {
        if (!after_cr_) ++position_.line;
        position_.column = 1;
        after_cr_ = false;
      } else if (c == '\r') {
        ++position_.line;
        position_.column = 1;
        after_cr_ = true;
      } else {
        after_cr_ = false;
        position_.column += (c & 0xC0) != 0x80 ? 1 : 0;
      }
    }
  }

  std::string_view text_;
  std::size_t next_ = 0;  // bytes before it are counted in position_
  // The first CR at or after next_ (or before it, once passed), kNone where text_[.., searched_)
  // holds none from next_ on.
  std::size_t cr_ = kNone;
  std::size_t searched_ = 0;
  text_position position_;
  bool after_cr_ = false;
};

}  // namespace corocrawl::html
