// Fuzzes the reading of a stylesheet's URLs (css/css_references.hpp) and checks its contracts,
// not only that it does not crash or read out of bounds.
//
// Input: a stylesheet, read from (1, 1) and again from (3, 10) as a <style> element's text
// would be. Each reference's position is found again in the input by a walk of its own, and
// must be where a reference can start.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "corocrawl/utf8.hpp"
#include "css/css_references.hpp"
#include "text/ascii.hpp"

namespace {

using corocrawl::css::css_reference;
using corocrawl::css::css_references;

constexpr corocrawl::fuzz::checker check{"css"};

bool before(const css_reference& a, const css_reference& b) {
  return a.line < b.line || (a.line == b.line && a.column < b.column);
}

// What every result promises on its own: URLs not empty, trimmed, no longer than their
// escapes can make them (U+FFFD, three bytes, from one byte: a NUL or a final '\'), valid
// UTF-8 from valid UTF-8, in the order they are written.
void check_urls(std::string_view css, const std::vector<css_reference>& refs) {
  const bool valid_input = corocrawl::is_valid_utf8(css);
  std::size_t total = 0;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const std::string& url = refs[i].url;
    check(!url.empty(), "an empty URL", css);
    check(corocrawl::ascii::trim(url) == url, "whitespace around a URL", url);
    check(!valid_input || corocrawl::is_valid_utf8(url), "invalid UTF-8 from valid UTF-8", url);
    check(refs[i].line >= 1 && refs[i].column >= 1, "a position before (1, 1)", url);
    check(i == 0 || before(refs[i - 1], refs[i]), "references out of order", css);
    total += url.size();
  }
  check(total <= 3 * css.size(), "more URL bytes than escapes can make", css);
  // The shortest reference is a string in an image-set( that an earlier one opened: 'x'.
  check(refs.size() * 3 <= css.size(), "more references than the input holds", css);
  if (css.find('(') == std::string_view::npos && css.find('@') == std::string_view::npos)
    check(refs.empty(), "a reference with no '(' and no '@'", css);
}

// The offset of each reference's position, found by walking the input the way the header
// says positions count: lines end at LF, CRLF, a lone CR and FF; columns count UTF-8 lead
// bytes.
std::vector<std::size_t> offsets_of(std::string_view css, const std::vector<css_reference>& refs) {
  std::vector<std::size_t> offsets;
  std::uint32_t line = 1;
  std::uint32_t column = 1;
  std::size_t next = 0;
  for (std::size_t i = 0; i < css.size() && next < refs.size(); ++i) {
    const char c = css[i];
    const bool lead = (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    if (lead && refs[next].line == line && refs[next].column == column) {
      offsets.push_back(i);
      ++next;
    }
    if (c == '\n' || c == '\f' || (c == '\r' && !(i + 1 < css.size() && css[i + 1] == '\n'))) {
      ++line;
      column = 1;
    } else if (lead) {
      ++column;
    }
  }
  if (next < refs.size()) check.fail("a position past the end of the input", refs[next].url);
  return offsets;
}

// An @import's position is its '@'; a url()'s the start of its name (which may be escaped);
// an image-set() string's its quote.
void check_positions(std::string_view css, const std::vector<css_reference>& refs) {
  const std::vector<std::size_t> offsets = offsets_of(css, refs);
  const bool escapes = css.find('\\') != std::string_view::npos;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const std::string_view at = css.substr(offsets[i]);
    if (refs[i].import) {
      check(at.starts_with('@'), "an @import's position is not at an '@'", at);
      if (!escapes)
        check(corocrawl::ascii::iequals(at.substr(0, 7), "@import"), "not at \"@import\"", at);
      continue;
    }
    const char c = at.front();
    check(c == '"' || c == '\'' || c == 'u' || c == 'U' || c == '\\',
          "a URL's position is not at a quote or a url( name", at);
    if (!escapes && c != '"' && c != '\'')
      check(corocrawl::ascii::iequals(at.substr(0, 4), "url("), "not at \"url(\"", at);
  }
}

// The same references from another start: lines move, and columns on the first line only.
void check_shifted(std::string_view css, const std::vector<css_reference>& refs) {
  const std::vector<css_reference> shifted = css_references(css, 3, 10);
  check(shifted.size() == refs.size(), "another start finds other references", css);
  for (std::size_t i = 0; i < refs.size(); ++i) {
    css_reference expected = refs[i];
    expected.line += 2;
    if (refs[i].line == 1) expected.column += 9;
    check(shifted[i] == expected, "another start moves a position wrongly", shifted[i].url);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view css(reinterpret_cast<const char*>(data), size);
  const std::vector<css_reference> refs = css_references(css);
  check_urls(css, refs);
  check_positions(css, refs);
  check_shifted(css, refs);
  return 0;
}
