#pragma once
// The attributes a tag scanner keeps of each tag (html_scan.hpp), and how one is found by
// its name.

#include <cstddef>
#include <iterator>
#include <string_view>

namespace corocrawl::html {

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

/// The index in kKeptAttributes of the attribute `name` (ASCII case-insensitive), or
/// std::size(kKeptAttributes) for an attribute not kept.
std::size_t kept_index(std::string_view name);

}  // namespace corocrawl::html
