#pragma once
// The values of the link tags the link-tag reader lists (html/link_tags.hpp): which attributes
// of an element hold its references, and which values gumbo would give as written or with
// only character references that read the same everywhere, so that a chunk of such tags needs
// no parse.

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "html/html_scan.hpp"

namespace corocrawl {

/// A byte of an attribute value that gumbo gives as written: not the start of a character
/// reference, nothing it replaces (NUL, CR, invalid UTF-8: here anything but printable ASCII,
/// tab and LF).
inline bool read_as_written(char c) {
  const auto u = static_cast<unsigned char>(c);
  return c != '&' && ((u >= 0x20 && u <= 0x7E) || c == '\t' || c == '\n');
}

/// Whether gumbo gives attribute value `value` as written (each byte read_as_written()).
/// Inline, as reference_attributes(): the reader asks both of every tag it notes.
inline bool as_written(std::string_view value) {
  return std::all_of(value.begin(), value.end(), read_as_written);
}

/// Appends `value` to `out` with its character references decoded, when each is amp, lt, gt,
/// quot, apos or a number for printable ASCII, ended by ';', and all else reads as written;
/// else false, `out` as it was.
bool decode_plainly(std::string_view value, std::string& out);

/// The attributes (indexes into html::kKeptAttributes) that hold the references of HTML
/// element `name`, written for it to a chunk; none for other elements.
inline std::span<const std::size_t> reference_attributes(std::string_view name) {
  static constexpr std::size_t href[] = {html::kHref};
  static constexpr std::size_t link[] = {html::kRel, html::kHref};
  static constexpr std::size_t image[] = {html::kSrc, html::kSrcset};
  static constexpr std::size_t src[] = {html::kSrc};
  static constexpr std::size_t data[] = {html::kData};
  static constexpr std::size_t video[] = {html::kSrc, html::kPoster};
  static constexpr std::size_t input[] = {html::kType, html::kSrc};
  static constexpr std::size_t meta[] = {html::kHttpEquiv, html::kContent};
  if (html::is_one_of(name, {"a", "area"})) return href;
  if (name == "link") return link;
  if (html::is_one_of(name, {"img", "source"})) return image;
  if (html::is_one_of(name, {"script", "embed", "audio", "track", "iframe"})) return src;
  if (name == "object") return data;
  if (name == "video") return video;
  if (name == "input") return input;
  if (name == "meta") return meta;
  return {};
}

/// An SVG <a>'s reference attributes.
inline constexpr std::size_t kSvgAnchorAttributes[] = {html::kHref, html::kXlinkHref};

}  // namespace corocrawl
