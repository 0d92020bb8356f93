#include "report/verdict.hpp"

#include <string_view>

namespace corocrawl {

namespace {

std::string count_of(std::size_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

}  // namespace

std::string verdict_line(const crawl_result& result, bool fail_on_rate_limit) {
  const auto urls = result.records.size();
  const auto broken = new_broken_count(result);
  // With a baseline, what it knew is counted apart: only new breakage fails.
  const std::string known =
      result.baseline ? " (" + std::to_string(result.baseline->known.size()) + " known)" : "";
  const auto limited = result.rate_limited.size();
  const auto unchecked = result.unchecked.size();
  const std::string and_unchecked =
      unchecked > 0 ? ", " + std::to_string(unchecked) + " left unchecked" : "";
  const std::string so_far =
      count_of(urls, "URL") + ", " + std::to_string(broken) + " broken so far" + and_unchecked;
  if (result.failure) return "FAILED: the crawl could not go on after " + so_far;
  if (result.interrupted) return "INTERRUPTED: stopped after " + so_far;
  if (result.timed_out) return "TIMED OUT: stopped by --max-time after " + so_far;
  if (broken > 0)
    return "FAILED: " + count_of(broken, result.baseline ? "new broken URL" : "broken URL") +
           known + " of " + std::to_string(urls) + " checked" + and_unchecked;
  if (unchecked > 0)
    return "FAILED: " + count_of(unchecked, "URL") + " left unchecked, " + std::to_string(urls) +
           " checked, nothing broken";
  if (fail_on_rate_limit && limited > 0)
    return "FAILED: " + count_of(limited, "rate-limited URL") + " of " + std::to_string(urls) +
           " checked";
  return "PASSED: " + count_of(urls, "URL") + " checked, nothing " +
         (result.baseline ? "new broken" + known : std::string("broken")) +
         (limited > 0 ? " (" + std::to_string(limited) + " rate limited)" : "");
}

}  // namespace corocrawl
