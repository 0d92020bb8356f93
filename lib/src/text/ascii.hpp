// ASCII character helpers: URLs, headers and HTML names are ASCII-case-insensitive, and
// <cctype> depends on the locale (and is undefined for negative chars).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace corocrawl::ascii {

/// 'A'..'Z' lowered; every other byte unchanged.
constexpr char to_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

/// 'a'..'z' raised; every other byte unchanged.
constexpr char to_upper(char c) {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}

/// A copy of `s` with 'A'..'Z' lowered; other bytes (UTF-8 included) unchanged.
inline std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = to_lower(c);
  return out;
}

constexpr bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

constexpr bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

constexpr bool is_alnum(char c) {
  return is_alpha(c) || is_digit(c);
}

constexpr bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/// HTML's ASCII whitespace: space, tab, LF, CR and form feed (not vertical tab).
constexpr bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/// HTTP's optional whitespace (RFC 9110 5.6.3): space and tab.
constexpr bool is_ows(char c) {
  return c == ' ' || c == '\t';
}

/// C's isspace in the "C" locale: is_space and vertical tab.
constexpr bool is_c_space(char c) {
  return is_space(c) || c == '\v';
}

/// `s` without the bytes around it that `is_trimmed(char)` accepts.
template <typename Predicate>
constexpr std::string_view trim_if(std::string_view s, Predicate is_trimmed) {
  while (!s.empty() && is_trimmed(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && is_trimmed(s.back()))
    s.remove_suffix(1);
  return s;
}

/// `s` without leading and trailing HTTP optional whitespace.
constexpr std::string_view trim_ows(std::string_view s) {
  return trim_if(s, is_ows);
}

/// `s` without the ASCII whitespace (is_space) around it.
constexpr std::string_view trim(std::string_view s) {
  return trim_if(s, is_space);
}

/// C0 controls and DEL.
constexpr bool is_control(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7f;
}

/// `text` with every control character written as "\xNN": what users typed, or a library
/// said, shown on one line of an error message.
inline std::string escape_controls(std::string_view text) {
  constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (is_control(c)) {
      const auto byte = static_cast<unsigned char>(c);
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

/// Equal ignoring ASCII case.
constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (to_lower(a[i]) != to_lower(b[i])) return false;
  }
  return true;
}

}  // namespace corocrawl::ascii
