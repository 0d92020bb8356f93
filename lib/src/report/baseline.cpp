#include "report/baseline.hpp"

#include <algorithm>
#include <iterator>

#include "corocrawl/report.hpp"

namespace corocrawl {

baseline_comparison compare_with_baseline(const crawl_result& result,
                                          std::span<const std::string> baseline,
                                          const std::filesystem::path& cwd) {
  baseline_comparison comparison;
  std::vector<std::string> broken_now;
  for (const broken_link& link : result.broken) {
    std::string name = file_of(result, link.url, cwd).value_or(link.url);
    if (std::ranges::binary_search(baseline, name)) comparison.known.push_back(link.url);
    broken_now.push_back(std::move(name));
  }
  std::ranges::sort(broken_now);
  std::ranges::set_difference(baseline, broken_now, std::back_inserter(comparison.fixed));
  std::ranges::sort(comparison.known);  // result.broken is sorted already; kept so regardless
  return comparison;
}

}  // namespace corocrawl
