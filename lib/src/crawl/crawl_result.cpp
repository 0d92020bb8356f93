// The verdict on a crawl's result. Pure logic on crawl_result, in the core library so that
// the reports (which print it) do not depend on the networking engine.

#include "corocrawl/crawl.hpp"

namespace corocrawl {

bool passed(const crawl_result& result, bool fail_on_rate_limit) {
  return result.broken.empty() && result.unchecked.empty() && !result.interrupted &&
         !result.timed_out && !result.failure &&
         !(fail_on_rate_limit && !result.rate_limited.empty());
}

}  // namespace corocrawl
