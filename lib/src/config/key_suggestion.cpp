#include "config/key_suggestion.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "config/config_detail.hpp"
#include "text/ascii.hpp"

namespace corocrawl {
namespace {

// The fewest insertions, deletions and substitutions that make `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string suggestion_for(std::string_view key, std::span<const std::string_view> candidates) {
  const std::string lowered = ascii::to_lower(key);
  std::string_view best;
  std::size_t best_distance = 3;
  for (const std::string_view known : candidates) {
    const std::size_t d = edit_distance(lowered, known);
    if (d < best_distance) {
      best = known;
      best_distance = d;
    }
  }
  return best.empty() ? std::string{} : " (did you mean " + detail::quoted(best) + "?)";
}

}  // namespace corocrawl
