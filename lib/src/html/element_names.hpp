#pragma once
// The element names the scanners treat specially, each with what it is, found by one lookup:
// a page's tags are mostly <p>, <em> and <li>, and asking a dozen name lists about each of
// them cost a comparison per name. Names are matched exactly (the scanners pass them in lower
// case).

#include <cstdint>
#include <string>
#include <string_view>

namespace corocrawl::html {

enum name_trait : std::uint32_t {
  raw_text_trait = 1U << 0,          // is_raw_text
  void_trait = 1U << 1,              // is_void
  closes_same_trait = 1U << 2,       // closes_same
  essential_trait = 1U << 3,         // is_essential, beyond holds_references
  holds_references_trait = 1U << 4,  // holds_references
  confuses_gumbo_trait = 1U << 5,    // confuses_gumbo_in_foreign_content
  breaks_out_trait = 1U << 6,        // breaks_out_of_foreign_content
  table_part_trait = 1U << 7,        // caption, colgroup, col, tbody, thead, tfoot, tr, td, th
  svg_integration_trait = 1U << 8,   // foreignobject, desc, title
  math_integration_trait = 1U << 9,  // mi, mo, mn, ms, mtext
  // Start tags that the link-tag reader does more with than note their attributes: those that
  // end its reading (select, frameset, frame, isindex), merge into an element there is (html,
  // head, body, noscript), change the tree around them (template, table, form), set the base
  // URL, end the markup (plaintext) or open foreign content (svg, math). With raw_text_trait
  // and table_part_trait, the reader's special cases.
  reader_special_trait = 1U << 10,
};

/// The traits of element `name`, 0 for a name none of the lists holds.
std::uint32_t name_traits(std::string_view name);
/// The same of `name` in any case (ASCII letters), without lowering a copy of it first.
std::uint32_t name_traits_any_case(std::string_view name);
/// The same of `name`, a view into `text` (a page's markup), read a word at a time where the
/// text goes on far enough past it.
std::uint32_t name_traits_in(std::string_view text, std::string_view name);
/// The same, and `name` in lower case into `lower`.
std::uint32_t lower_name_traits_in(std::string_view text, std::string_view name,
                                   std::string& lower);

// Elements whose content the tokenizer reads as text (in HTML content, not in SVG/MathML).
inline bool is_raw_text(std::string_view name) {
  return (name_traits(name) & raw_text_trait) != 0;
}
inline bool is_void(std::string_view name) {
  return (name_traits(name) & void_trait) != 0;
}
// Start tags that close an open element of the same name rather than nest in it.
inline bool closes_same(std::string_view name) {
  return (name_traits(name) & closes_same_trait) != 0;
}
// HTML elements whose attributes (or, for <style>, text) hold references beyond <a>, <area>
// and <link>: img, source, script, embed, object, video, audio, track, input, iframe, frame,
// meta; style.
inline bool holds_references(std::string_view name) {
  return (name_traits(name) & holds_references_trait) != 0;
}
// Tags that decide whether an element is a link or whether its href counts.
inline bool is_essential(std::string_view name) {
  return (name_traits(name) & (essential_trait | holds_references_trait)) != 0;
}
// HTML table, select and document-structure names: as SVG/MathML elements they mean
// nothing, but gumbo's stack searches match them by name and end up asserting.
inline bool confuses_gumbo_in_foreign_content(std::string_view name) {
  return (name_traits(name) & confuses_gumbo_trait) != 0;
}
// HTML start tags that end SVG/MathML content (<font> too, with a font attribute).
inline bool breaks_out_of_foreign_content(std::string_view name) {
  return (name_traits(name) & breaks_out_trait) != 0;
}
// Table parts: outside a table (and a template) the tree builder ignores their start tags.
inline bool is_table_part(std::string_view name) {
  return (name_traits(name) & table_part_trait) != 0;
}

}  // namespace corocrawl::html
