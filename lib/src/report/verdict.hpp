#pragma once
// The one-line verdict every human report ends with ("PASSED: 533 URLs checked, nothing
// broken"), the same in the text and Markdown reports.

#include <string>

#include "corocrawl/crawl.hpp"

namespace corocrawl {

/// "PASSED: ...", "FAILED: ...", "INTERRUPTED: ..." or "TIMED OUT: ...", without a newline;
/// FAILED exactly when passed(result, fail_on_rate_limit) is false for a crawl that ran to
/// its end.
std::string verdict_line(const crawl_result& result, bool fail_on_rate_limit);

}  // namespace corocrawl
