#include "html/kept_attributes.hpp"

#include <array>
#include <cstdint>

#include "text/ascii.hpp"

namespace corocrawl::html {
namespace {

// On the hot path, a lookup for each attribute of each tag: no two kept names share a size
// and a first letter, so those pick the one name to compare.
constexpr std::size_t kLongestKept = 10;  // "xlink:href", "http-equiv"

constexpr std::array<std::array<std::uint8_t, 32>, kLongestKept + 1> make_kept_candidates() {
  std::array<std::array<std::uint8_t, 32>, kLongestKept + 1> candidates{};
  for (std::size_t k = 0; k < std::size(kKeptAttributes); ++k) {
    const std::string_view name = kKeptAttributes[k];
    candidates[name.size()][static_cast<unsigned char>(name[0]) & 31] =
        static_cast<std::uint8_t>(k + 1);
  }
  return candidates;
}

constexpr auto kKeptCandidates = make_kept_candidates();

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

}  // namespace

std::size_t kept_index(std::string_view name) {
  constexpr std::size_t none = std::size(kKeptAttributes);
  if (name.empty() || name.size() > kLongestKept) return none;
  const std::size_t candidate =
      kKeptCandidates[name.size()][static_cast<unsigned char>(name[0]) & 31];
  if (candidate == 0) return none;
  // The last letter first: "class" is not "color", nor "sizes" "style".
  const std::string_view kept = kKeptAttributes[candidate - 1];
  if (ascii::to_lower(name.back()) != kept.back() || !ascii::iequals(name, kept)) return none;
  return candidate - 1;
}

}  // namespace corocrawl::html
