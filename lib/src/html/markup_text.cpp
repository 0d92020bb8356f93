#include "html/markup_text.hpp"

#include "text/ascii.hpp"

namespace corocrawl::html {

std::string_view compacted_text(std::string_view text) {
  bool reference = false;
  bool word = false;
  bool other = false;
  for (const char c : text) {
    if (ascii::is_space(c)) continue;
    if (c == '\0') return text;
    if (c == '&') {
      reference = true;
    } else if (ascii::is_alnum(c) || c == '#' || c == ';') {
      word = true;
    } else {
      other = true;
    }
  }
  if (reference) return other ? "x" : text;
  return word || other ? "x" : "";
}

std::string escaped_cdata(std::string_view section) {
  if (section.ends_with("]]>")) section.remove_suffix(3);
  std::string out;
  out.reserve(section.size());
  for (const char c : section) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace corocrawl::html
