#pragma once
// The attributes a tag scanner keeps of each tag (html_scan.hpp), and how one is found by
// its name.

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "text/ascii.hpp"

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

namespace detail {

// On the hot path, a lookup for each attribute of each tag: no two kept names share a size
// and a first letter, so those pick the one name to compare.
inline constexpr std::size_t kLongestKept = 10;  // "xlink:href", "http-equiv"

constexpr std::array<std::array<std::uint8_t, 32>, kLongestKept + 1> make_kept_candidates() {
  std::array<std::array<std::uint8_t, 32>, kLongestKept + 1> candidates{};
  for (std::size_t k = 0; k < std::size(kKeptAttributes); ++k) {
    const std::string_view name = kKeptAttributes[k];
    candidates[name.size()][static_cast<unsigned char>(name[0]) & 31] =
        static_cast<std::uint8_t>(k + 1);
  }
  return candidates;
}

inline constexpr auto kKeptCandidates = make_kept_candidates();

constexpr bool kept_candidates_unique() {
  for (std::size_t k = 0; k < std::size(kKeptAttributes); ++k) {
    const std::string_view name = kKeptAttributes[k];
    if (name.size() > kLongestKept ||
        kKeptCandidates[name.size()][static_cast<unsigned char>(name[0]) & 31] != k + 1) {
      return false;
    }
  }
  return true;
}
static_assert(kept_candidates_unique());

}  // namespace detail

/// The index in kKeptAttributes of the attribute `name` (ASCII case-insensitive), or
/// std::size(kKeptAttributes) for an attribute not kept. Inline: the tag scanner asks it of
/// every attribute of every tag.
inline std::size_t kept_index(std::string_view name) {
  constexpr std::size_t none = std::size(kKeptAttributes);
  if (name.empty() || name.size() > detail::kLongestKept) return none;
  const std::size_t candidate =
      detail::kKeptCandidates[name.size()][static_cast<unsigned char>(name[0]) & 31];
  if (candidate == 0) return none;
  // The last letter first: "class" is not "color", nor "sizes" "style".
  const std::string_view kept = kKeptAttributes[candidate - 1];
  if (ascii::to_lower(name.back()) != kept.back() || !ascii::iequals(name, kept)) return none;
  return candidate - 1;
}

}  // namespace corocrawl::html
