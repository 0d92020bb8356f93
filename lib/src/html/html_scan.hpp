#pragma once
// HTML as its tokenizer reads it, without building anything: what starts at a '<', where
// comments and raw text end, and the element names that steer the tree builder. Shared by
// markup_limiter (which shrinks a page for gumbo) and read_link_tags (which lists the link
// tags of a page whose tree cannot change which they are).

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "html/element_names.hpp"
#include "html/kept_attributes.hpp"

namespace corocrawl::html {

bool is_one_of(std::string_view name, std::initializer_list<std::string_view> names);

// A tag as the HTML tokenizer reads it (attribute values may hold '<' and '>').
struct scanned_tag {
  bool complete = false;  // false when the input ends inside the tag: the tokenizer drops it
  std::size_t end = 0;    // one past '>'
  std::string_view name;  // as written
  std::string lower_name;
  std::uint32_t traits = 0;  // name_traits(lower_name)
  bool self_closing = false;
  std::size_t attribute_count = 0;
  // The first of each of kKeptAttributes the tag has, as written ("href='x'"), by index;
  // empty where it has none.
  std::array<std::string_view, std::size(kKeptAttributes)> kept{};
  std::uint32_t kept_mask = 0;  // bit k set where kept[k] is not empty
  bool has_font_attribute = false;

  std::size_t kept_count() const;
  /// As a scanned_tag{} is, keeping lower_name's memory; clears only the kept entries set.
  void clear();
};

// The tag whose name starts at html[name_begin] (just after "<" or "</").
scanned_tag scan_tag(std::string_view html, std::size_t name_begin);
// The same into `tag`, whatever it held before (a reader scans each tag into the same one).
void scan_tag(std::string_view html, std::size_t name_begin, scanned_tag& tag);

// The value of an attribute as written ("name='value'" gives "value"), character references
// not decoded; empty if it has none.
std::string_view attribute_value(std::string_view attribute);

// An attribute as written, to write among others in any order: an empty unquoted value
// ("href=") is left out, since another attribute or "/>" after it would become its value.
// The value stays the empty string.
std::string_view writable_attribute(std::string_view attribute);

// What starts at a '<' in the tokenizer's data state.
struct token {
  enum kind { text, comment, cdata, bogus_comment, end_tag, start_tag, cut_off } what;
  std::size_t end;  // one past it (a CDATA section's end as a bogus comment's)
  scanned_tag tag;  // of end_tag and start_tag
};
token token_at(std::string_view html, std::size_t lt);
// The same into `t`, whatever it held before. t.tag is a start or end tag's; after another
// token it may still hold an earlier tag.
void token_at(std::string_view html, std::size_t lt, token& t);

// The start of a start or end tag, as the tokenizer reads it: its name, which a '>' may end
// at once. Most of a page's end tags and many of its start tags are such bare tags ("<li>",
// "</span>"), read without a token.
struct tag_start {
  bool end_tag;
  std::string_view name;  // as written
  std::size_t name_end;   // one past the name
  bool bare(std::string_view html) const { return name_end < html.size() && html[name_end] == '>'; }
};
// The tag that starts at html[lt], else nothing (no tag starts there).
std::optional<tag_start> tag_start_at(std::string_view html, std::size_t lt);
// The token of the tag `start` (from tag_start_at(html, lt)) into `t`: token_at(html, lt, t)
// without reading the name again.
void tag_token(std::string_view html, const tag_start& start, token& t);

// Where a comment whose text starts at `from` ends ("<!-->" and "--!>" included).
std::size_t comment_end(std::string_view html, std::size_t from);
// One past the first `marker` at or after `from`, or the end of the input.
std::size_t end_of(std::string_view html, std::string_view marker, std::size_t from);
// The start of the end tag that closes raw text `name`, or the end of the input.
std::size_t raw_text_end(std::string_view html, std::string_view name, std::size_t from);
// Whether html[begin, end), read as markup, ends outside any tag, comment or CDATA section.
bool ends_as_data(std::string_view html, std::size_t begin, std::size_t end);
// Whether a "<frameset" appears anywhere.
bool mentions_frameset(std::string_view html);

// Whether the SVG (`in_svg`) or MathML element `tag` has HTML children again: gumbo reads
// CDATA sections in those as text, and asserts if that happens in a table.
bool is_integration_point(const scanned_tag& tag, bool in_svg);

}  // namespace corocrawl::html
