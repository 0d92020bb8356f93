#include "html/html_scan.hpp"

#include <array>
#include <bit>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "html/byte_search.hpp"
#include "text/ascii.hpp"

namespace corocrawl::html {

bool is_one_of(std::string_view name, std::initializer_list<std::string_view> names) {
  for (const std::string_view n : names) {
    if (n == name) return true;
  }
  return false;
}

std::size_t scanned_tag::kept_count() const {
  std::size_t count = 0;
  for (const std::string_view attribute : kept)
    count += attribute.empty() ? 0 : 1;
  return count;
}

namespace {

// Byte classes of the tag scanner, one table lookup per byte.
enum : std::uint8_t {
  space_class = 1,         // HTML's ASCII whitespace
  name_end_class = 2,      // ends a tag or attribute name: whitespace, '/', '>'
  equals_class = 4,        // '='
  unquoted_end_class = 8,  // ends an unquoted value: whitespace, '>'
  slash_class = 16,        // '/': with whitespace, what comes before an attribute
};

constexpr std::array<std::uint8_t, 256> make_byte_classes() {
  std::array<std::uint8_t, 256> classes{};
  for (const unsigned char c : {' ', '\t', '\n', '\r', '\f'})
    classes[c] = space_class | name_end_class | unquoted_end_class;
  classes['/'] = name_end_class | slash_class;
  classes['>'] = name_end_class | unquoted_end_class;
  classes['='] = equals_class;
  return classes;
}

constexpr auto kByteClasses = make_byte_classes();

constexpr bool in_class(char c, std::uint8_t classes) {
  return (kByteClasses[static_cast<unsigned char>(c)] & classes) != 0;
}

}  // namespace

void scanned_tag::clear() {
  complete = false;
  end = 0;
  name = {};
  lower_name.clear();
  traits = 0;
  self_closing = false;
  attribute_count = 0;
  for (std::uint32_t set = kept_mask; set != 0; set &= set - 1)
    kept[static_cast<std::size_t>(std::countr_zero(set))] = {};
  kept_mask = 0;
  has_font_attribute = false;
}

namespace {

// The end of the name that starts at html[begin]: the first whitespace, '/' or '>' after it.
std::size_t name_end_from(std::string_view html, std::size_t begin) {
  std::size_t i = begin;
  while (i < html.size() && !in_class(html[i], name_end_class))
    ++i;
  return i;
}

// The tag whose name is html[name_begin, name_end) into `tag`, as scanned_tag{} is.
void scan_named_tag(std::string_view html, std::size_t name_begin, std::size_t name_end,
                    scanned_tag& tag) {
  const std::size_t n = html.size();
  tag.name = html.substr(name_begin, name_end - name_begin);
  tag.traits = lower_name_traits_in(html, tag.name, tag.lower_name);
  std::size_t i = name_end;
  while (true) {
    // Whitespace and slashes before an attribute; a slash just before the '>' makes the tag
    // self-closing.
    const std::size_t skipped_from = i;
    while (i < n && in_class(html[i], space_class | slash_class))
      ++i;
    if (i >= n) return;
    if (html[i] == '>') {
      tag.self_closing = i > skipped_from && html[i - 1] == '/';
      tag.complete = true;
      tag.end = i + 1;
      return;
    }
    const std::size_t attribute_begin = i++;  // a leading '=' belongs to the name
    while (i < n && !in_class(html[i], name_end_class | equals_class))
      ++i;
    const std::string_view attribute_name = html.substr(attribute_begin, i - attribute_begin);
    std::size_t after_name = i;
    while (after_name < n && in_class(html[after_name], space_class))
      ++after_name;
    if (after_name < n && html[after_name] == '=') {
      i = after_name + 1;
      while (i < n && in_class(html[i], space_class))
        ++i;
      if (i < n && (html[i] == '"' || html[i] == '\'')) {
        const std::size_t close = find_byte(html, html[i], i + 1);
        if (close == std::string_view::npos) return;
        i = close + 1;
      } else {
        while (i < n && !in_class(html[i], unquoted_end_class))
          ++i;
      }
    }
    ++tag.attribute_count;
    const std::size_t k = kept_index(attribute_name);
    if (k < std::size(kKeptAttributes) && (tag.kept_mask & (1U << k)) == 0) {
      tag.kept[k] = html.substr(attribute_begin, i - attribute_begin);
      tag.kept_mask |= 1U << k;
      tag.has_font_attribute =
          tag.has_font_attribute || (k >= kFirstFontAttribute && k < kFontAttributesEnd);
    }
  }
}

}  // namespace

scanned_tag scan_tag(std::string_view html, std::size_t name_begin) {
  scanned_tag tag;
  scan_tag(html, name_begin, tag);
  return tag;
}

void scan_tag(std::string_view html, std::size_t name_begin, scanned_tag& tag) {
  tag.clear();
  scan_named_tag(html, name_begin, name_end_from(html, name_begin), tag);
}

std::string_view attribute_value(std::string_view attribute) {
  const std::size_t equals = attribute.find('=', 1);  // a leading '=' belongs to the name
  if (equals == std::string_view::npos) return {};
  std::string_view value = attribute.substr(equals + 1);
  while (!value.empty() && ascii::is_space(value.front()))
    value.remove_prefix(1);
  if (!value.empty() && (value.front() == '"' || value.front() == '\'')) {
    value.remove_prefix(1);
    value.remove_suffix(1);  // scan_tag keeps only attributes whose quote is closed
  }
  return value;
}

std::string_view writable_attribute(std::string_view attribute) {
  const std::size_t equals = attribute.find('=', 1);  // a leading '=' belongs to the name
  if (equals == std::string_view::npos) return attribute;
  for (std::size_t i = equals + 1; i < attribute.size(); ++i) {
    if (!ascii::is_space(attribute[i])) return attribute;
  }
  std::string_view name = attribute.substr(0, equals);
  while (ascii::is_space(name.back()))
    name.remove_suffix(1);
  return name;
}

// A scanned_tag is some 300 bytes: one token object is filled in place by every path, and a
// reader fills the same one for each token, clearing only what the last tag set.
token token_at(std::string_view html, std::size_t lt) {
  token t{token::text, lt + 1, {}};
  token_at(html, lt, t);
  return t;
}

void token_at(std::string_view html, std::size_t lt, token& t) {
  t.what = token::text;
  t.end = lt + 1;
  const std::string_view rest = html.substr(lt);
  const char next = rest.size() > 1 ? rest[1] : '\0';
  if (rest.starts_with("<!--")) {
    t.what = token::comment;
    t.end = comment_end(html, lt + 4);
  } else if (rest.starts_with("<![CDATA[")) {
    t.what = token::cdata;
    t.end = end_of(html, ">", lt + 2);
  } else if (next == '!' || next == '?' ||
             (next == '/' && (rest.size() < 3 || !ascii::is_alpha(rest[2])))) {
    t.what = token::bogus_comment;  // "</>" too
    t.end = end_of(html, ">", lt + 2);
  } else if (const auto start = tag_start_at(html, lt)) {
    tag_token(html, *start, t);
  }
}

std::optional<tag_start> tag_start_at(std::string_view html, std::size_t lt) {
  const std::size_t n = html.size();
  const bool end_tag = lt + 1 < n && html[lt + 1] == '/';
  const std::size_t name_begin = lt + (end_tag ? 2 : 1);
  if (name_begin >= n || !ascii::is_alpha(html[name_begin])) return std::nullopt;
  const std::size_t name_end = name_end_from(html, name_begin + 1);
  return tag_start{end_tag, html.substr(name_begin, name_end - name_begin), name_end};
}

void tag_token(std::string_view html, const tag_start& start, token& t) {
  t.tag.clear();
  const auto name_begin = static_cast<std::size_t>(start.name.data() - html.data());
  scan_named_tag(html, name_begin, start.name_end, t.tag);
  if (t.tag.complete) {
    t.what = start.end_tag ? token::end_tag : token::start_tag;
    t.end = t.tag.end;
  } else {
    t.what = token::cut_off;
    t.end = html.size();
    t.tag.clear();
  }
}

std::size_t comment_end(std::string_view html, std::size_t from) {
  const std::string_view text = html.substr(from);
  if (text.starts_with(">")) return from + 1;
  if (text.starts_with("->")) return from + 2;
  for (std::size_t at = text.find("--"); at != std::string_view::npos;
       at = text.find("--", at + 1)) {
    const std::string_view after = text.substr(at + 2);
    if (after.starts_with(">")) return from + at + 3;
    if (after.starts_with("!>")) return from + at + 4;
  }
  return html.size();
}

std::size_t end_of(std::string_view html, std::string_view marker, std::size_t from) {
  const std::size_t at = html.find(marker, from);
  return at == std::string_view::npos ? html.size() : at + marker.size();
}

std::size_t raw_text_end(std::string_view html, std::string_view name, std::size_t from) {
  for (std::size_t at = html.find("</", from); at != std::string_view::npos;
       at = html.find("</", at + 2)) {
    const std::size_t after = at + 2 + name.size();
    if (after <= html.size() && ascii::iequals(html.substr(at + 2, name.size()), name) &&
        (after == html.size() || ascii::is_space(html[after]) || html[after] == '/' ||
         html[after] == '>')) {
      return at;
    }
  }
  return html.size();
}

bool ends_as_data(std::string_view html, std::size_t begin, std::size_t end) {
  for (std::size_t at = html.find('<', begin); at < end; at = html.find('<', at)) {
    const token t = token_at(html, at);
    if (t.what == token::cdata || t.what == token::cut_off || t.end > end) return false;
    at = t.end;
  }
  return true;
}

// Every page is searched, and markup is dense with '<': finding each with memchr cost 5% of
// a crawl. Sixteen positions are tested at a time for a '<' followed by 'f' or 'F' (rare),
// and only those for the whole name.
bool mentions_frameset(std::string_view html) {
  const auto named_at = [html](std::size_t lt) {
    return ascii::iequals(html.substr(lt + 1, 8), "frameset");
  };
  std::size_t from = 0;
#if defined(__SSE2__)
  const __m128i less_than = _mm_set1_epi8('<');
  const __m128i lower_f = _mm_set1_epi8('f');
  const __m128i case_bit = _mm_set1_epi8(0x20);  // 'F' | 0x20 == 'f', and no other byte
  for (; from + 17 <= html.size(); from += 16) {
    const char* const at = html.data() + from;
    const __m128i here = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at + 1));
    const __m128i both = _mm_and_si128(_mm_cmpeq_epi8(here, less_than),
                                       _mm_cmpeq_epi8(_mm_or_si128(next, case_bit), lower_f));
    for (auto mask = static_cast<unsigned>(_mm_movemask_epi8(both)); mask != 0; mask &= mask - 1) {
      if (named_at(from + static_cast<std::size_t>(std::countr_zero(mask)))) return true;
    }
  }
#endif
  for (std::size_t lt = html.find('<', from); lt != std::string_view::npos;
       lt = html.find('<', lt + 1)) {
    if (named_at(lt)) return true;
  }
  return false;
}

bool is_integration_point(const scanned_tag& tag, bool in_svg) {
  if (in_svg) return (tag.traits & svg_integration_trait) != 0;
  if (tag.lower_name == "annotation-xml") {
    const std::string_view encoding = attribute_value(tag.kept[kEncoding]);
    return ascii::iequals(encoding, "text/html") ||
           ascii::iequals(encoding, "application/xhtml+xml");
  }
  return (tag.traits & math_integration_trait) != 0;
}

}  // namespace corocrawl::html
