#pragma once
// The URLs a stylesheet references, read the way CSS Syntax Level 3 tokenizes it: url()
// tokens and functions, @import targets, and the bare strings of image-set(). Comments and
// strings are tokens of their own, so `content: "url(x)"` references nothing. Pure logic: no
// resolution against a base, no scheme filtering (data: URLs come back like any other).
//
// Built for hostile input: one pass, linear in the size of the stylesheet (unterminated
// comments, strings and url()s end at the end of the input, and nesting costs one byte per
// open block); nothing is thrown but std::bad_alloc.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace corocrawl::css {

/// A URL a stylesheet references.
struct css_reference {
  std::string url;  ///< as written, CSS escapes undone, whitespace around it removed; unresolved
  bool import = false;     ///< from an @import rule (a stylesheet), else from url() or image-set()
  std::uint32_t line = 0;  ///< 1-based, of the "url(" / the string in image-set() / the "@import"
  std::uint32_t column = 0;  ///< 1-based, in Unicode code points (count UTF-8 lead bytes)

  friend bool operator==(const css_reference&, const css_reference&) = default;
};

/// The URLs `css` references, in order. Positions count from (first_line, first_column), the
/// position of css[0] in its document (a <style> element's text inside an HTML page): the
/// column offset applies to the first line only. Lines end at "\n", "\r\n", a lone "\r" and
/// "\f". Empty URLs (url(), url(""), url("  ")), bad url tokens and bad strings, and the
/// target of @namespace are left out.
std::vector<css_reference> css_references(std::string_view css, std::uint32_t first_line = 1,
                                          std::uint32_t first_column = 1);

}  // namespace corocrawl::css
