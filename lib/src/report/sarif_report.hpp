#pragma once
// The `sarif` output format: SARIF 2.1.0 (OASIS), the format code-scanning dashboards read.

#include <ostream>

#include "corocrawl/crawl.hpp"
#include "report/github_annotations.hpp"

namespace corocrawl {

/// Writes one SARIF 2.1.0 log (`version`, `$schema`, one run whose `tool.driver` is corocrawl
/// with its rules): a result per place a page references a broken URL (rule "broken-link", or
/// "missing-fragment" for a missing #fragment; level "error"), a warning, or a rate-limited
/// URL (level "warning"), located at that page (named by `locate`), line and column. A problem
/// no markup references is located at its first referrer's page, if any. Strings are valid
/// UTF-8.
void write_sarif_report(std::ostream& out, const crawl_result& result, const page_locator& locate);

}  // namespace corocrawl
