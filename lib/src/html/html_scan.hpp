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

namespace corocrawl::html {

bool is_one_of(std::string_view name, std::initializer_list<std::string_view> names);

// The attributes that can matter to reference extraction: href and xlink:href, type (only
// <input type=hidden> lets a later <frameset> replace the body; <input type=image src>),
// encoding (annotation-xml integration points), color, face and size (<font> breaks out of
// SVG), then those that hold references or what else is collected (src, srcset, data,
// poster, rel, http-equiv and content; style; id and name, the anchors). The tree builder
// ignores the rest, and repeats of a name.
inline constexpr std::string_view kKeptAttributes[] = {
    "href", "xlink:href", "type",       "encoding", "color", "face",  "size", "src", "srcset",
    "data", "poster",     "http-equiv", "content",  "rel",   "style", "id",   "name"};
inline constexpr std::size_t kHref = 0;
inline constexpr std::size_t kXlinkHref = 1;
inline constexpr std::size_t kType = 2;
inline constexpr std::size_t kEncoding = 3;
inline constexpr std::size_t kFirstFontAttribute = 4;  // color, face and size
inline constexpr std::size_t kFontAttributesEnd = 7;
inline constexpr std::size_t kSrc = 7;
inline constexpr std::size_t kSrcset = 8;
inline constexpr std::size_t kData = 9;
inline constexpr std::size_t kPoster = 10;
inline constexpr std::size_t kHttpEquiv = 11;
inline constexpr std::size_t kContent = 12;
inline constexpr std::size_t kRel = 13;
inline constexpr std::size_t kStyle = 14;
inline constexpr std::size_t kId = 15;
inline constexpr std::size_t kName = 16;
static_assert(kKeptAttributes[kHref] == "href" && kKeptAttributes[kXlinkHref] == "xlink:href" &&
              kKeptAttributes[kType] == "type" && kKeptAttributes[kEncoding] == "encoding");
static_assert(kKeptAttributes[kFirstFontAttribute] == "color" &&
              kKeptAttributes[kFirstFontAttribute + 1] == "face" &&
              kKeptAttributes[kFontAttributesEnd - 1] == "size");
static_assert(kKeptAttributes[kSrc] == "src" && kKeptAttributes[kSrcset] == "srcset" &&
              kKeptAttributes[kData] == "data" && kKeptAttributes[kPoster] == "poster" &&
              kKeptAttributes[kHttpEquiv] == "http-equiv" &&
              kKeptAttributes[kContent] == "content" && kKeptAttributes[kRel] == "rel" &&
              kKeptAttributes[kStyle] == "style" && kKeptAttributes[kId] == "id" &&
              kKeptAttributes[kName] == "name");

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
  bool has_font_attribute = false;

  std::size_t kept_count() const;
};

// The tag whose name starts at html[name_begin] (just after "<" or "</").
scanned_tag scan_tag(std::string_view html, std::size_t name_begin);
// The same into `tag`, which is as a scanned_tag{} is.
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

// A start or end tag with nothing but its name ("<li>", "</span>"), as the tokenizer reads it:
// most of a page's end tags and many of its start tags, read here without a token.
struct bare_tag {
  bool end_tag;
  std::string_view name;  // as written
  std::size_t end;        // one past '>'
};
// The tag at html[lt] if it is bare, else nothing (a token_at() there reads it).
std::optional<bare_tag> bare_tag_at(std::string_view html, std::size_t lt);

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
