#include "html/attribute_values.hpp"

#include <algorithm>
#include <cstddef>

#include "text/ascii.hpp"

namespace corocrawl {
namespace {

// A srcset candidate's descriptors, as "parse a srcset attribute" validates them.
bool valid_integer(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), ascii::is_digit);
}

bool valid_float(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  const std::size_t whole = i;
  while (i < s.size() && ascii::is_digit(s[i]))
    ++i;
  bool digits = i > whole;
  if (i < s.size() && s[i] == '.') {
    const std::size_t fraction = ++i;
    while (i < s.size() && ascii::is_digit(s[i]))
      ++i;
    if (i == fraction) return false;
    digits = true;
  }
  if (!digits) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    const std::size_t exponent = i;
    while (i < s.size() && ascii::is_digit(s[i]))
      ++i;
    if (i == exponent) return false;
  }
  return i == s.size();
}

bool valid_descriptors(const std::vector<std::string_view>& descriptors) {
  bool width = false;
  bool density = false;
  bool height = false;
  for (const std::string_view d : descriptors) {
    const std::string_view number = d.substr(0, d.size() - 1);
    switch (d.back()) {
      case 'w':
        if (width || density || !valid_integer(number) ||
            number.find_first_not_of('0') == std::string_view::npos)
          return false;
        width = true;
        break;
      case 'x':
        if (width || density || height || !valid_float(number) || number.starts_with('-'))
          return false;
        density = true;
        break;
      case 'h':
        if (height || density || !valid_integer(number) ||
            number.find_first_not_of('0') == std::string_view::npos)
          return false;
        height = true;
        break;
      default:
        return false;
    }
  }
  return !height || width;
}

}  // namespace

std::vector<std::string_view> srcset_urls(std::string_view input) {
  std::vector<std::string_view> urls;
  std::size_t pos = 0;
  const std::size_t n = input.size();
  while (true) {
    while (pos < n && (ascii::is_space(input[pos]) || input[pos] == ','))
      ++pos;
    if (pos >= n) return urls;
    const std::size_t url_begin = pos;
    while (pos < n && !ascii::is_space(input[pos]))
      ++pos;
    std::string_view url = input.substr(url_begin, pos - url_begin);
    std::vector<std::string_view> descriptors;
    if (url.ends_with(',')) {
      while (url.ends_with(','))
        url.remove_suffix(1);
    } else {
      // The descriptor tokenizer.
      while (pos < n && ascii::is_space(input[pos]))
        ++pos;
      std::size_t current = pos;  // where the current descriptor starts
      bool in_parens = false;
      while (true) {
        if (pos >= n) {
          if (pos > current) descriptors.push_back(input.substr(current, pos - current));
          break;
        }
        const char c = input[pos];
        if (in_parens) {
          in_parens = c != ')';
          ++pos;
        } else if (ascii::is_space(c)) {
          if (pos > current) descriptors.push_back(input.substr(current, pos - current));
          while (pos < n && ascii::is_space(input[pos]))
            ++pos;
          current = pos;
        } else if (c == ',') {
          if (pos > current) descriptors.push_back(input.substr(current, pos - current));
          ++pos;
          break;
        } else {
          in_parens = c == '(';
          ++pos;
        }
      }
    }
    if (valid_descriptors(descriptors)) urls.push_back(url);
  }
}

std::optional<std::string_view> refresh_url(std::string_view input) {
  std::size_t pos = 0;
  const std::size_t n = input.size();
  const auto skip_spaces = [&] {
    while (pos < n && ascii::is_space(input[pos]))
      ++pos;
  };
  skip_spaces();
  const std::size_t time_begin = pos;
  while (pos < n && ascii::is_digit(input[pos]))
    ++pos;
  if (pos == time_begin && (pos >= n || input[pos] != '.')) return std::nullopt;
  while (pos < n && (ascii::is_digit(input[pos]) || input[pos] == '.'))
    ++pos;
  if (pos < n) {
    if (!ascii::is_space(input[pos]) && input[pos] != ';' && input[pos] != ',') return std::nullopt;
    skip_spaces();
    if (pos < n && (input[pos] == ';' || input[pos] == ',')) ++pos;
    skip_spaces();
  }
  if (pos >= n) return std::nullopt;
  std::string_view url = input.substr(pos);
  const auto next_is = [&](char c) { return pos < n && ascii::to_lower(input[pos]) == c; };
  if (next_is('u')) {
    ++pos;
    if (next_is('r')) {
      ++pos;
      if (next_is('l')) {
        ++pos;
        skip_spaces();
        if (pos < n && input[pos] == '=') {
          ++pos;
          skip_spaces();
          char quote = '\0';
          if (pos < n && (input[pos] == '\'' || input[pos] == '"')) quote = input[pos++];
          url = input.substr(pos);
          if (quote != '\0') url = url.substr(0, url.find(quote));
        }
      }
    }
  } else if (pos < n && (input[pos] == '\'' || input[pos] == '"')) {
    // "Skip quotes" also applies without "url=".
    const char quote = input[pos++];
    url = input.substr(pos);
    url = url.substr(0, url.find(quote));
  }
  return url;
}

}  // namespace corocrawl
