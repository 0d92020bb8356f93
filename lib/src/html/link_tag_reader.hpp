#pragma once
// The link-tag reader: a page's tags read in order, as html/link_tags.hpp describes, by
// read_link_tags() on a whole page and by link_tag_stream on one given in pieces.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "html/html_scan.hpp"
#include "html/link_tags.hpp"
#include "html/repeated_tags.hpp"
#include "html/text_positions.hpp"
#include "text/ascii.hpp"

namespace corocrawl {

// Reads a page's tags in order, from html_: the whole page (read_link_tags), or the part of
// it link_tag_stream holds, whose read part it drops between pieces.
class link_tag_reader {
 public:
  explicit link_tag_reader(std::string_view html = {}) : html_(html), positions_(html) {}

  // The whole page, in html_. (A <frameset> start tag makes it give up where it is read:
  // html_start_tag() and foreign_start_tag().)
  std::optional<link_tags> run() {
    if (!read(true)) return std::nullopt;
    return take();
  }

  // Reads html_ from pos_ on as far as it can: to its end when `last` (the page's end), else
  // up to the first html::token that may go on past it, which pos_ is left at. False once the page
  // needs a tree.
  bool read(bool last);

  // Forgets what was read, html_[0, pos_), and says how long it was: the caller drops those
  // bytes and gives what is left to view().
  std::size_t drop_read() {
    positions_.drop(pos_);
    return std::exchange(pos_, 0);
  }

  // Reads on in `html`: html_ as it was (without what drop_read() dropped), and perhaps more.
  void view(std::string_view html) {
    html_ = html;
    positions_.view(html);
  }

  // The chunks complete so far; a <base> read from now on makes the reader give up.
  std::vector<link_chunk> take_chunks() {
    base_fixed_ = base_fixed_ || !tags_.chunks.empty();
    return std::exchange(tags_.chunks, {});
  }

  link_tags& tags() { return tags_; }

  // The tags read.
  link_tags take() {
    if (!chunk_.markup.empty()) tags_.chunks.push_back(std::move(chunk_));
    return std::move(tags_);
  }

 private:
  // Whether html::token `t`, and what reading it looks at past it, ends before html_ does: then
  // what follows cannot change how it reads.
  bool ends_here(const html::token& t) const;

  // The attributes note() reads; a tag with none of them has nothing noted.
  static constexpr std::uint32_t kNotedAttributes =
      1U << html::kHref | 1U << html::kXlinkHref | 1U << html::kSrc | 1U << html::kSrcset |
      1U << html::kData | 1U << html::kPoster | 1U << html::kContent | 1U << html::kStyle |
      1U << html::kId | 1U << html::kName;

  // Whether html_start_tag() changes nothing for HTML start tag `tag` but the position: an
  // element not special to it, and nothing note() reads.
  static bool changes_nothing(const html::scanned_tag& tag) {
    return (tag.traits &
            (html::reader_special_trait | html::raw_text_trait | html::table_part_trait)) == 0 &&
           (tag.kept_mask & kNotedAttributes) == 0;
  }

  bool html_start_tag(std::size_t lt, const html::scanned_tag& tag);

  // Reads bare tag `tag` (no attributes) outside SVG and MathML where html_start_tag() or
  // html_end_tag() would do little with it; false where they must read it. End tags: all but
  // template, table and form. Start tags: those whose element is not special to
  // html_start_tag() (which would only note that it has no attributes), and table parts
  // (which it would note as seen) but a <col> in a template.
  // Inline: read() asks it of every bare tag, most of a page's tags.
  bool read_bare(const html::tag_start& tag) {
    if (!foreign_.empty()) return false;
    const std::string_view name = tag.name;
    if (tag.end_tag) {  // by name, not traits: most end tags come this way
      return !ascii::iequals(name, "template") && !ascii::iequals(name, "table") &&
             !ascii::iequals(name, "form");
    }
    const std::uint32_t traits = html::name_traits_in(html_, tag.name);
    if ((traits & (html::reader_special_trait | html::raw_text_trait)) != 0) return false;
    if ((traits & html::table_part_trait) != 0) {
      if (templates_ > 0 && ascii::iequals(name, "col")) return false;
      table_seen_ = true;
    }
    return true;
  }

  bool html_end_tag(const html::scanned_tag& tag);

  // In an SVG or MathML island. False where the tree builder would leave it otherwise than
  // through its end tag.
  bool foreign_start_tag(std::size_t lt, const html::scanned_tag& tag);

  bool foreign_end_tag(const html::scanned_tag& tag);

  // Takes the anchors and style of the element of start tag html_[lt, tag.end) (`html`: an
  // HTML element, else SVG or MathML), and writes it to the chunk where it has references or
  // values for gumbo to decode.
  void note(std::size_t lt, const html::scanned_tag& tag, bool html);

  // An anchor's or a style's value as the tree holds it, when gumbo is not needed for that:
  // as written, or with only character references decode_plainly() decodes.
  static std::optional<std::string> plain_value(std::string_view value);

  // Adds the anchor of an id or name attribute (when it has a value): its slot when gumbo
  // must decode it, else kNoSlot.
  std::uint32_t anchor(std::string_view attribute);

  static constexpr std::size_t npos = std::string_view::npos;

  std::string_view html_;
  html::position_counter positions_;
  std::size_t pos_ = 0;
  html::token token_{html::token::text, 0, {}};  // the html::token read last, filled in place
  html::repeated_tags repeated_;                 // start tags read that changed nothing
  bool plaintext_ = false;                       // a <plaintext> start tag was read
  bool base_fixed_ = false;  // chunks were taken: a <base> now would change them
  link_tags tags_;
  link_chunk chunk_;
  std::vector<std::string> foreign_;  // the open elements of an SVG or MathML island
  bool svg_ = false;                  // the island is SVG
  bool table_seen_ = false;
  bool template_seen_ = false;
  std::size_t templates_ = 0;  // open <template>s
  // Open tables outside templates: exact, or (once a <table> came in a table) at least as
  // many as there are.
  std::size_t tables_ = 0;
  bool tables_exact_ = true;
  bool form_open_ = false;  // the tree builder's form element pointer is set
};

}  // namespace corocrawl
