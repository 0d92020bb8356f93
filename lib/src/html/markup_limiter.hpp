#pragma once
// The markup gumbo is given when a page is parsed as one tree. gumbo 0.10.1 has weaknesses
// that untrusted pages can reach, so the markup is limited first:
// - Some tree-construction steps scan the whole stack of open elements, and attribute
//   de-duplication compares every pair: 100000 nested <div> take 14 s, 50000 nested
//   <template><tr> minutes, one tag with 50000 attributes 4 s. markup_limiter removes start
//   tags nested deeper than kMaxDepth (browsers cap the depth too; Chromium at 512) but those
//   that decide which elements are links, keeps at most a few dozen <template>s open there,
//   and trims tags with too many attributes to their href.
// - assert()s abort the process on SVG/MathML elements named like HTML table or select
//   elements ("<table><svg><select><title><select><td>") and on CDATA sections in an HTML
//   integration point in a table ("<table><svg><desc><![CDATA[x]]>y"). markup_limiter
//   removes such SVG/MathML start tags, and turns CDATA sections into the same text
//   written as character references. To know where gumbo reads a CDATA section, it follows
//   SVG/MathML closely: integration points by namespace, end tags popping only what the
//   tree builder pops, <frameset> and late <html>/<head>/<body> not tracked. (An assert it
//   still misses ends only that parse: see parse_guarded in parse_guard.cpp.)
// - After "</>" (which is no token at all) gumbo reads the next end tag as a start tag:
//   markup_limiter removes it.
// markup_limiter never removes a tag that decides whether an element is a link, but a
// <template> nested more than kMaxDepth deep in more than dozens of others. A start tag it
// removes for its depth but that has an id or style attribute is written as a <wbr> with
// those attributes, so the anchors and inline CSS of the page stay (at the same place).

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace corocrawl {

/// Where the text of a limited copy comes from in the page: (offset in the copy, offset in
/// the page) where each replacement starts and ends, in order. Empty when the copy is the page.
using offset_map = std::vector<std::pair<std::size_t, std::size_t>>;

/// The page offset of the copy's offset `at`: exact for a tag's '<', whether the tag was
/// copied or rewritten.
std::size_t page_offset(const offset_map& map, std::size_t at);

/// What gumbo should parse of `html`: `html` itself, or a limited copy written to `storage`.
/// With `shrink`, also a shrunk copy: text runs, comments and attributes that cannot change
/// which links the page has are reduced or left out (but <style> text, and the attributes
/// extract_references reads). `map`, when given, is filled to map the copy back to `html`.
std::string_view limit_markup(std::string_view html, bool shrink, std::string& storage,
                              offset_map* map = nullptr);

}  // namespace corocrawl
