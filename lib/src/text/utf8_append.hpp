#pragma once
// Writing UTF-8: a code point appended to a string, and the replacement character that stands
// for what could not be read. Shared by the decoders (charset, CSS escapes, utf8.cpp).

#include <string>
#include <string_view>

namespace corocrawl {

inline constexpr std::string_view replacement_character = "\xEF\xBF\xBD";  // U+FFFD

/// Appends `c` (a scalar value: not a surrogate, at most U+10FFFF) to `out` as UTF-8.
inline void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

}  // namespace corocrawl
