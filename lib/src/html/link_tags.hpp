#pragma once
// A page's link tags, listed without a tree where no tree could change which they are.
//
// HTML's tree builder makes an element of every <a>, <area>, <link> and <base> start tag the
// tokenizer reads, wherever it stands: misnested markup is closed, reopened or moved, never
// dropped. It drops such tags only inside <select>, ignores links inside <template>, and
// puts SVG/MathML namespaces on them in foreign content; frameset documents lose the body.
// So for a page without <select>, <template>, <noscript> and <frameset>, the links are the
// hrefs of its link tags, and gumbo needs to read only those. SVG and MathML are allowed as
// islands this reader follows exactly (every end tag closes the element it is in; no HTML
// breaks out, no HTML inside), where only SVG <a> is a link.
//
// The links come in source order. The tree's order differs where misnested markup makes the
// tree builder move elements (a table moves misplaced content in front of itself, formatting
// elements are reopened elsewhere): the same links, in another order. A <base> after a table
// makes the reader give up, since the first <base> in the tree might be another one.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace corocrawl {

struct link_tags {
  std::string base;                 // the first <base> with an href, as markup; or empty
  std::vector<std::string> chunks;  // the link tags, as markup, a bounded number per chunk
  std::size_t count = 0;            // link tags in all chunks
};

/// The link tags of `html`, or nothing when its tree could change which tags are links (then
/// it must be parsed as a whole).
std::optional<link_tags> read_link_tags(std::string_view html);

}  // namespace corocrawl
