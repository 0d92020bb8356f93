// The verdict on a crawl's result. Pure logic on crawl_result, in the core library so that
// the reports (which print it) do not depend on the networking engine.

#include <algorithm>

#include "corocrawl/crawl.hpp"

namespace corocrawl {

bool is_known(const crawl_result& result, std::string_view url) {
  return result.baseline && std::ranges::binary_search(result.baseline->known, url);
}

std::size_t new_broken_count(const crawl_result& result) {
  return result.broken.size() - (result.baseline ? result.baseline->known.size() : 0);
}

bool passed(const crawl_result& result, bool fail_on_rate_limit) {
  return new_broken_count(result) == 0 && result.unchecked.empty() && !result.interrupted &&
         !result.timed_out && !result.failure &&
         !(fail_on_rate_limit && !result.rate_limited.empty());
}

}  // namespace corocrawl
