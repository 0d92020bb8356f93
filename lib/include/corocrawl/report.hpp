#pragma once
// What a crawl's result says to people (text report) and to programs (JSON summary).

#include <cstdint>
#include <map>
#include <ostream>
#include <string>

#include "corocrawl/crawl.hpp"
#include "corocrawl/options.hpp"
#include "corocrawl/record.hpp"

namespace corocrawl {

/// The chapter's report categories: urls, html, html_bytes, other, other_bytes, redirect, error,
/// error_bytes, fail and rate_limited, with external (records of other sites) and cached
/// (records taken from the cache), are always present; status_NNN and fail_<kind> only when
/// non-zero.
std::map<std::string, std::uint64_t> compute_stats(const record_list& records);

/// compute_stats(result.records) and the crawl's own counters: unchecked and skipped (URLs)
/// and frontier_peak (the most URLs waiting at once). The JSON summary's "stats".
std::map<std::string, std::uint64_t> result_stats(const crawl_result& result);

/// Writes the corocrawl-summary/1 JSON document (see README) followed by a newline. Every
/// string is written as valid UTF-8 (ill-formed bytes become U+FFFD). Stops early when `out`
/// fails; the caller checks it.
void write_json_summary(std::ostream& out, const crawl_result& result,
                        const crawl_options& options);

/// Writes the human report: one line per URL (only broken ones when `errors_only`), the
/// broken links with the pages that link to them, the first unchecked and (unless
/// `errors_only`) skipped URLs, the counters and a one-line verdict. Text from outside is
/// made safe for a terminal: no control characters, no ill-formed UTF-8.
void write_text_report(std::ostream& out, const crawl_result& result, const crawl_options& options,
                       bool errors_only);

}  // namespace corocrawl
