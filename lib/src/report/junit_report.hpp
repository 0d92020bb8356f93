#pragma once
// The `junit` output format: JUnit XML as GitLab's and Jenkins' test reports read it, one test
// case per checked URL.

#include <ostream>

#include "corocrawl/crawl.hpp"
#include "report/github_annotations.hpp"

namespace corocrawl {

/// Writes one <testsuite> named after the roots with a <testcase> per checked URL (the
/// records, then the missing fragments, which have no record of their own): a <failure> for
/// a broken one (its status, error and, one per line, the places pages reference it, named by
/// `locate`), and for a rate-limited one when `fail_on_rate_limit`; an <error> per URL left
/// unchecked; <skipped> per URL a rule skipped. Warnings pass, their status in <system-out>.
/// Written one test case at a time; all text is valid UTF-8 XML.
void write_junit_report(std::ostream& out, const crawl_result& result, bool fail_on_rate_limit,
                        const page_locator& locate);

}  // namespace corocrawl
