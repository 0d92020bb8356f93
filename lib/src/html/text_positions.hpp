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

// The positions of offsets that never decrease: each byte of the text up to the last offset is
// read once (twice in a run that holds a CR), however many offsets are asked for (a long
// minified line is not read again for each one), and the text past it not at all.
class position_counter {
 public:
  explicit position_counter(std::string_view text) : text_(text) {}

  text_position at(std::size_t offset) {
    if (offset > text_.size()) offset = text_.size();
    if (offset <= next_) return position_;
    const char* const begin = text_.data() + next_;
    const char* const end = text_.data() + offset;
    // Most text has no CR, and its runs between offsets hold few line feeds: those are counted
    // in bulk, looking for a CR in the same pass. A run that holds one (a lone CR ends a line,
    // one before LF does with it), or follows one, is counted in bulk with its CRs, or byte by
    // byte in a text shorter than a block. (Counting CRs and their pairs in every run made
    // reading pages without a CR 3-4% slower.)
    if ((after_cr_ && *begin == '\n') || !count_line_feeds(begin, end)) {
      if (!count_breaks(begin, end)) count_bytewise(begin, end);
    } else {
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
  }
  /// Goes on counting in `text`: the same text, without the bytes dropped, and perhaps more.
  void view(std::string_view text) { text_ = text; }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  static bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

#if defined(__SSE2__)
  static __m128i load(const char* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  }

  // The mask of a block's last `n` bytes (1 to 16): 16 - n bytes of zeros, then n of ones.
  static __m128i last_bytes(std::ptrdiff_t n) {
    alignas(16) static constexpr signed char kTail[32] = {
        0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    return load(reinterpret_cast<const char*>(kTail) + n);
  }

  // The sum of the sixteen bytes of `counts`.
  static std::size_t sum_of_bytes(__m128i counts) {
    const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());  // two halves' sums
    return static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
           static_cast<std::size_t>(_mm_extract_epi16(sums, 4));
  }

  // The bytes of [begin, end) that `matches` marks (a compare of sixteen bytes, all ones where
  // one matches), or kNone when `stops` marks any of its bytes; `is_match` and `is_stop` where
  // the text holds fewer than sixteen bytes up to `end`. Sixteen at a time, each byte of a sum
  // counting its place's matches over up to 255 blocks; the last few bytes as the end of the
  // block that ends at `end`, with the bytes before them masked off (the run between two
  // offsets is often short, and was counted byte by byte).
  template <class Matches, class Stops, class IsMatch, class IsStop>
  std::size_t count_matching(const char* begin, const char* end, Matches matches, Stops stops,
                             IsMatch is_match, IsStop is_stop) const {
    std::size_t found = 0;
    const char* p = begin;
    while (end - p >= 16) {
      const std::size_t blocks = std::min<std::size_t>(static_cast<std::size_t>(end - p) / 16, 255);
      const char* const stop = p + blocks * 16;
      __m128i counts = _mm_setzero_si128();
      __m128i stopped = _mm_setzero_si128();
      for (; p != stop; p += 16) {
        const __m128i bytes = load(p);
        counts = _mm_sub_epi8(counts, matches(bytes));  // a match is -1
        stopped = _mm_or_si128(stopped, stops(bytes));
      }
      if (_mm_movemask_epi8(stopped) != 0) return kNone;
      found += sum_of_bytes(counts);
    }
    const auto left = end - p;
    if (left == 0) return found;
    if (end - text_.data() < 16) {
      if (std::any_of(p, end, is_stop)) return kNone;
      return found + static_cast<std::size_t>(std::count_if(p, end, is_match));
    }
    const __m128i bytes = load(end - 16);
    const __m128i last = last_bytes(left);
    if (_mm_movemask_epi8(_mm_and_si128(stops(bytes), last)) != 0) return kNone;
    const __m128i tail = _mm_and_si128(matches(bytes), last);
    return found + sum_of_bytes(_mm_sub_epi8(_mm_setzero_si128(), tail));
  }
#endif

  // The line feeds of [begin, end), or kNone when it holds a CR.
  std::size_t line_feeds(const char* begin, const char* end) const {
    const auto is_line_feed = [](char c) { return c == '\n'; };
    const auto is_carriage_return = [](char c) { return c == '\r'; };
#if defined(__SSE2__)
    const __m128i line_feed = _mm_set1_epi8('\n');
    const __m128i carriage_return = _mm_set1_epi8('\r');
    return count_matching(
        begin, end, [line_feed](__m128i bytes) { return _mm_cmpeq_epi8(bytes, line_feed); },
        [carriage_return](__m128i bytes) { return _mm_cmpeq_epi8(bytes, carriage_return); },
        is_line_feed, is_carriage_return);
#else
    if (std::any_of(begin, end, is_carriage_return)) return kNone;
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
        [](__m128i) { return _mm_setzero_si128(); }, is_continuation, [](char) { return false; });
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

  // Counts [begin, end) in bulk, unless it holds a CR: then it counts nothing and says so. Its
  // line feeds, then the column in its last line, found searching back from the end. Runs
  // between offsets hold a few short lines each: a memchr for each line cost twice the time of
  // counting sixteen bytes at a time.
  bool count_line_feeds(const char* begin, const char* end) {
    const std::size_t lines = line_feeds(begin, end);
    if (lines == kNone) return false;
    const char* line_start = begin;  // of the last line
    if (lines != 0) {
      position_.line += static_cast<std::uint32_t>(lines);
      position_.column = 1;
      line_start = after_last_line_feed(begin, end);
    }
    position_.column += lead_bytes(line_start, end);
    return true;
  }

  // Counts [begin, end) in bulk, CRs and all, where the text holds sixteen bytes up to `end`
  // (else false, and nothing counted). Its line breaks are its LFs and CRs less its CR LF pairs,
  // and less its first byte where that is the LF of the CR that ended the run before; its
  // column is counted from its last LF or CR. The pages of sites written with CR LF endings
  // had every run counted byte by byte, at half the speed of reading them.
  bool count_breaks(const char* begin, const char* end) {
#if defined(__SSE2__)
    if (end - text_.data() < 16) return false;
    const __m128i line_feed = _mm_set1_epi8('\n');
    const __m128i carriage_return = _mm_set1_epi8('\r');
    std::size_t line_breaks = 0;  // LFs and CRs
    std::size_t pairs = 0;        // CRs followed by an LF
    const char* p = begin;
    // Whole blocks while a byte follows each, the LF that may pair with its last CR.
    while (end - p > 16) {
      const std::size_t blocks =
          std::min<std::size_t>(static_cast<std::size_t>(end - p - 1) / 16, 255);
      const char* const stop = p + blocks * 16;
      __m128i break_counts = _mm_setzero_si128();
      __m128i pair_counts = _mm_setzero_si128();
      for (; p != stop; p += 16) {
        const __m128i bytes = load(p);
        const __m128i cr = _mm_cmpeq_epi8(bytes, carriage_return);
        const __m128i lf_next = _mm_cmpeq_epi8(load(p + 1), line_feed);
        break_counts =
            _mm_sub_epi8(break_counts, _mm_or_si128(_mm_cmpeq_epi8(bytes, line_feed), cr));
        pair_counts = _mm_sub_epi8(pair_counts, _mm_and_si128(cr, lf_next));
      }
      line_breaks += sum_of_bytes(break_counts);
      pairs += sum_of_bytes(pair_counts);
    }
    // The last 1 to 16 bytes, as the end of the block that ends at `end`; an LF past `end`
    // pairs with a CR ending this run when the next run is counted (after_cr_).
    const __m128i last = last_bytes(end - p);
    const __m128i bytes = load(end - 16);
    const __m128i lf = _mm_cmpeq_epi8(bytes, line_feed);
    const __m128i cr = _mm_and_si128(_mm_cmpeq_epi8(bytes, carriage_return), last);
    line_breaks +=
        sum_of_bytes(_mm_sub_epi8(_mm_setzero_si128(), _mm_or_si128(_mm_and_si128(lf, last), cr)));
    pairs +=
        sum_of_bytes(_mm_sub_epi8(_mm_setzero_si128(), _mm_and_si128(cr, _mm_srli_si128(lf, 1))));
    if (line_breaks == 0) {
      position_.column += lead_bytes(begin, end);
    } else {
      const std::size_t follows_cr = after_cr_ && *begin == '\n' ? 1 : 0;
      position_.line += static_cast<std::uint32_t>(line_breaks - pairs - follows_cr);
      position_.column = 1 + lead_bytes(after_last_break(begin, end), end);
    }
    after_cr_ = end[-1] == '\r';
    return true;
#else
    (void)begin;
    (void)end;
    return false;
#endif
  }

  // One past the last LF or CR in [begin, end), which holds one, searched from the end.
  static const char* after_last_break(const char* begin, const char* end) {
    const char* p = end;
#if defined(__SSE2__)
    const __m128i line_feed = _mm_set1_epi8('\n');
    const __m128i carriage_return = _mm_set1_epi8('\r');
    for (; p - begin >= 16; p -= 16) {
      const __m128i bytes = load(p - 16);
      const auto mask = static_cast<unsigned>(_mm_movemask_epi8(
          _mm_or_si128(_mm_cmpeq_epi8(bytes, line_feed), _mm_cmpeq_epi8(bytes, carriage_return))));
      if (mask != 0) return p - 16 + std::bit_width(mask);
    }
#endif
    while (p[-1] != '\n' && p[-1] != '\r')
      --p;
    return p;
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
  text_position position_;
  bool after_cr_ = false;
};

}  // namespace corocrawl::html
