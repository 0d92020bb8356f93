#pragma once
// The text markup_limiter writes in place of a page's text: text runs shrunk to what steers
// the tree builder, and CDATA sections written as the same text in markup.

#include <string>
#include <string_view>

namespace corocrawl::html {

/// What a run of text shrinks to. Text steers the tree builder by being there and not all
/// whitespace: before the body, such text starts it (and so decides, say, whether a
/// <noscript> is read as in the head or in the body). So whitespace goes (""), and other
/// text becomes "x". Text made of only whitespace, letters, digits and character references
/// might be whitespace once decoded ("&#32;"), and NULs are dropped in some places: those
/// stay as they are (`text` itself).
std::string_view compacted_text(std::string_view text);

/// The text of a CDATA section, `section` from just after "<![CDATA[" through its "]]>" (or
/// the input's end), as markup that reads as the same text.
std::string escaped_cdata(std::string_view section);

}  // namespace corocrawl::html
