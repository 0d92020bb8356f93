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
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
/// Inline, as reference_attributes(): the reader asks both of every tag it notes, and most
/// values are URLs of some tens of bytes, tested sixteen at a time where SSE2 is there, the
/// last block ending with the value (its first bytes may have been tested already).
inline bool as_written(std::string_view value) {
#if defined(__SSE2__)
  if (value.size() >= 16) {
    // A byte is refused when below 0x20 as a signed byte (control bytes, and every byte from
    // 0x80 up), 0x7F or '&', unless it is a tab or LF.
    const __m128i space = _mm_set1_epi8(0x20);
    const __m128i del = _mm_set1_epi8(0x7F);
    const __m128i ampersand = _mm_set1_epi8('&');
    const __m128i tab = _mm_set1_epi8('\t');
    const __m128i lf = _mm_set1_epi8('\n');
    const auto refuses = [&](const char* at) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
      const __m128i refused =
          _mm_or_si128(_mm_cmplt_epi8(bytes, space),
                       _mm_or_si128(_mm_cmpeq_epi8(bytes, del), _mm_cmpeq_epi8(bytes, ampersand)));
      const __m128i allowed = _mm_or_si128(_mm_cmpeq_epi8(bytes, tab), _mm_cmpeq_epi8(bytes, lf));
      return _mm_movemask_epi8(_mm_andnot_si128(allowed, refused)) != 0;
    };
    for (std::size_t i = 0; i + 16 < value.size(); i += 16) {
      if (refuses(value.data() + i)) return false;
    }
    return !refuses(value.data() + value.size() - 16);
  }
#endif
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
  // By size first: asked of every tag the reader notes, most of them an <a>.
  switch (name.size()) {
    case 1:
      if (name == "a") return href;
      break;
    case 3:
      if (name == "img") return image;
      break;
    case 4:
      if (name == "area") return href;
      if (name == "link") return link;
      if (name == "meta") return meta;
      break;
    case 5:
      if (name == "embed" || name == "audio" || name == "track") return src;
      if (name == "video") return video;
      if (name == "input") return input;
      break;
    case 6:
      if (name == "source") return image;
      if (name == "script" || name == "iframe") return src;
      if (name == "object") return data;
      break;
    default:
      break;
  }
  return {};
}

/// An SVG <a>'s reference attributes.
inline constexpr std::size_t kSvgAnchorAttributes[] = {html::kHref, html::kXlinkHref};

}  // namespace corocrawl
