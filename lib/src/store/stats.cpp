#include <algorithm>
#include <string>

#include "corocrawl/report.hpp"

namespace corocrawl {

std::map<std::string, std::uint64_t> compute_stats(const record_list& records) {
  std::map<std::string, std::uint64_t> stats;
  for (const char* always : {"urls", "html", "html_bytes", "other", "other_bytes", "redirect",
                             "error", "error_bytes", "fail", "rate_limited", "external", "cached"})
    stats[always] = 0;

  // The chapter's categories: fail (no response), redirect, error (>= 400), html, other; and
  // rate_limited (429 to the end), which is not an error.
  for (const auto& r : records) {
    ++stats["urls"];
    if (r.external) ++stats["external"];
    if (r.cached) ++stats["cached"];
    if (!r.status) {
      ++stats["fail"];
      ++stats["fail_" + std::string(r.failure ? failure_name(*r.failure) : "unknown")];
    } else if (is_rate_limited(r)) {
      ++stats["rate_limited"];
    } else if (*r.status >= 400) {
      ++stats["error"];
      stats["error_bytes"] += r.size;
      ++stats["status_" + std::to_string(*r.status)];
    } else if (is_redirect_status(*r.status)) {
      ++stats["redirect"];
    } else if (*r.status == 200 && r.content_type == "text/html") {
      ++stats["html"];
      stats["html_bytes"] += r.size;
    } else {
      ++stats["other"];
      stats["other_bytes"] += r.size;
    }
  }
  return stats;
}

std::map<std::string, std::uint64_t> result_stats(const crawl_result& result) {
  auto stats = compute_stats(result.records);
  stats["unchecked"] = result.unchecked.size();
  stats["skipped"] = result.skipped.size();
  stats["warning"] = result.warnings.size();
  stats["orphan"] = result.orphans.size();
  stats["missing_fragment"] = static_cast<std::uint64_t>(std::ranges::count(
      result.broken, std::optional<std::string>("missing fragment"), &broken_link::error));
  stats["frontier_peak"] = result.frontier_peak;
  return stats;
}

}  // namespace corocrawl
