#pragma once
// The Encoding Standard's table of encodings, their names and labels, with the glibc iconv
// converter for each and how its errors are stepped over: what charset.cpp decodes and encodes
// with, and charset_sniff.cpp names encodings from. Internal: not part of the library's
// interface (callers include text/charset.hpp).

#include <cstdint>
#include <string_view>

namespace corocrawl::charset {

// How an encoding is decoded, and how its errors are stepped over.
enum class family : std::uint8_t {
  utf8,            // no iconv: to_valid_utf8
  utf16,           // errors are whole code units
  single_byte,     // iconv's table is the standard's
  windows,         // windows-125x and 874: bytes 80..9F iconv lacks are the C1 controls
  double_byte,     // lead bytes 81..FE; an error takes a non-ASCII trail byte with it
  gb,              // double_byte, and byte 80 is the euro sign (GBK and gb18030)
  shift_jis,       // lead bytes 81..9F and E0..FC, and byte 80 is U+0080
  euc_jp,          // lead bytes 8E, 8F and A1..FE
  iso_2022_jp,     // stateful: the state survives an error
  replacement,     // no iconv: one U+FFFD for any input
  x_user_defined,  // no iconv: bytes 80..FF are U+F780..U+F7FF
};

struct encoding {
  std::string_view name;    // the standard's
  std::string_view labels;  // the standard's, lower-case, separated by one space
  const char* decoder;      // the iconv name to decode from (and encode to), or nullptr
  family kind;
  const char* encoder = nullptr;  // the iconv name to encode to, when not `decoder`
};

// The name of UTF-8, the table's first encoding.
inline constexpr std::string_view utf8_name = "UTF-8";

// The encoding `label` names (ASCII whitespace around it ignored, ASCII case ignored), or
// nullptr.
const encoding* find_by_label(std::string_view label);

// The encoding named `name` (a name this module gave, or failing that a label).
const encoding* find_by_name(std::string_view name);

}  // namespace corocrawl::charset
