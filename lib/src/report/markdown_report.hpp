#pragma once
// The `markdown` output format: the problems as GitHub-flavoured Markdown tables, for
// $GITHUB_STEP_SUMMARY and merge-request comments.

#include <cstddef>
#include <ostream>

#include "corocrawl/crawl.hpp"
#include "report/github_annotations.hpp"

namespace corocrawl {

/// Rows listed per table: a step summary holds at most 1 MiB, and a comment less. The JSON
/// summary lists everything.
inline constexpr std::size_t markdown_rows_at_most = 200;

/// Writes the verdict as a heading, then a table (URL, status, where) of the broken links,
/// warnings and rate-limited URLs, each "where" a `page:line:column element attribute` per
/// source (pages named by `locate`), then the unchecked URLs. Text from outside is escaped:
/// no page or server can add markup, links or HTML to the report.
void write_markdown_report(std::ostream& out, const crawl_result& result, bool fail_on_rate_limit,
                           const page_locator& locate);

}  // namespace corocrawl
