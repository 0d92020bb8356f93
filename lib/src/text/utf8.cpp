// Neither Boost.JSON (it serialises bytes as they are), Boost.Locale's utf_traits (it swallows
// the byte that breaks a sequence, so "\xC3A" would lose the "A") nor the standard library
// replaces ill-formed UTF-8 the standard way, hence this small decoder.
#include "corocrawl/utf8.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "text/utf8_append.hpp"

namespace corocrawl {

namespace {

struct sequence {
  std::size_t length = 1;  ///< bytes: of the well-formed sequence, or of the maximal subpart
  bool well_formed = false;
  char32_t code_point = 0;  ///< when well_formed
};

// The sequence `text` (not empty) starts with, by Table 3-7 of the Unicode Standard: the lead
// byte decides the length and the range of the second byte; later bytes are 80..BF.
sequence next_sequence(std::string_view text) {
  const auto byte = [text](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return {1, true, lead};
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead == 0xE0) {
    length = 3;
    low = 0xA0;  // no overlong forms
  } else if (lead == 0xED) {
    length = 3;
    high = 0x9F;  // no surrogates
  } else if (lead >= 0xE1 && lead <= 0xEF) {
    length = 3;
  } else if (lead == 0xF0) {
    length = 4;
    low = 0x90;  // no overlong forms
  } else if (lead >= 0xF1 && lead <= 0xF3) {
    length = 4;
  } else if (lead == 0xF4) {
    length = 4;
    high = 0x8F;  // nothing past U+10FFFF
  } else {
    return {1, false, 0};  // 80..C1, F5..FF never start a sequence
  }
  char32_t code_point = lead & (0x7Fu >> length);
  for (std::size_t i = 1; i < length; ++i) {
    if (i >= text.size() || byte(i) < low || byte(i) > high) return {i, false, 0};
    code_point = (code_point << 6) | (byte(i) & 0x3Fu);
    low = 0x80;
    high = 0xBF;
  }
  return {length, true, code_point};
}

// `text` with every ill-formed sequence, and every code point `keep` refuses, replaced by
// U+FFFD.
template <class Keep>
std::string replace(std::string_view text, Keep keep) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const auto next = next_sequence(text);
    if (next.well_formed && keep(next.code_point))
      out.append(text.substr(0, next.length));
    else
      out.append(replacement_character);
    text.remove_prefix(next.length);
  }
  return out;
}

bool moves_a_terminal(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) ||  // C0, DEL, C1
         (c >= 0x202A && c <= 0x202E) ||          // bidirectional embeddings and overrides
         (c >= 0x2066 && c <= 0x2069);            // bidirectional isolates
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  while (!text.empty()) {
    // ASCII, most text here, eight bytes at a time, also after a sequence that is not.
    if (text.size() >= 8) {
      std::uint64_t word;
      std::memcpy(&word, text.data(), sizeof word);
      if ((word & 0x8080'8080'8080'8080ULL) == 0) {
        text.remove_prefix(8);
        continue;
      }
    }
    const auto next = next_sequence(text);
    if (!next.well_formed) return false;
    text.remove_prefix(next.length);
  }
  return true;
}

std::string to_valid_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  return replace(text, [](char32_t) { return true; });
}

std::string to_terminal_text(std::string_view text) {
  return replace(text, [](char32_t c) { return !moves_a_terminal(c); });
}

}  // namespace corocrawl
