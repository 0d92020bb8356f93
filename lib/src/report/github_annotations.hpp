#pragma once
// The `github` output format: GitHub Actions workflow commands that annotate each place a
// broken link is written (https://docs.github.com/actions/reference/workflow-commands).

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include "corocrawl/crawl.hpp"

namespace corocrawl {

/// How a page is named in a report: its file path in folder mode, else its URL.
using page_locator = std::function<std::string(std::string_view page_url)>;

/// Writes one `::error file=F,line=L,col=C,title=broken link::URL STATUS ERROR (element
/// attribute)` line per source of each broken link (`::warning` for warnings and rate-limited
/// URLs), and one line without a place for a problem URL no page references in its markup.
/// Text is valid UTF-8, with "%", CR and LF escaped as the runner expects (and ":" and ","
/// in properties), so no page or server can inject a workflow command of its own.
void write_github_annotations(std::ostream& out, const crawl_result& result,
                              const page_locator& locate);

}  // namespace corocrawl
