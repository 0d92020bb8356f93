#include "report/baseline.hpp"

#include <algorithm>
#include <iterator>

#include "corocrawl/report.hpp"
#include "report/page_files.hpp"

namespace corocrawl {

baseline_comparison compare_with_baseline(const crawl_result& result,
                                          std::span<const std::string> baseline,
                                          const std::filesystem::path& cwd) {
  baseline_comparison comparison;
  std::vector<std::string> broken_now;
  const folder_files files(result, cwd);
  for (const broken_link& link : result.broken) {
    std::string name = files.file(link.url).value_or(link.url);
    if (std::ranges::binary_search(baseline, name)) comparison.known.push_back(link.url);
    broken_now.push_back(std::move(name));
  }
  std::ranges::sort(broken_now);
  std::ranges::set_difference(baseline, broken_now, std::back_inserter(comparison.fixed));
  std::ranges::sort(comparison.known);  // result.broken is sorted already; kept so regardless
  return comparison;
}

}  // namespace corocrawl
