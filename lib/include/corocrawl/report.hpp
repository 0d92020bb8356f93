#pragma once
// What a crawl's result says to people (the text and Markdown reports) and to programs (the
// JSON summary, JUnit XML, SARIF, GitHub workflow commands): the --output formats.

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

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
/// fails; the caller checks it. On a machine of more than one core, a second thread formats
/// part of each long list while this one writes (`out` is written from this thread only).
void write_json_summary(std::ostream& out, const crawl_result& result,
                        const crawl_options& options);

/// The formats a report can be written in, as --output names them.
enum class report_format { text, json, junit, markdown, github, sarif };
inline constexpr std::array<std::string_view, 6> report_format_names{"text",     "json",   "junit",
                                                                     "markdown", "github", "sarif"};

/// How a report names a URL: a page or file served from a folder root as its file path
/// ("site/blog/index.html"), anything else as the URL itself.
using page_locator = std::function<std::string(std::string_view url)>;

/// The file `url` names when it lies under one of `result.folders`: the folder's path (relative
/// to `cwd` when below it) joined with the URL's path, "index.html" added for a directory, the
/// query and fragment kept ("site/a.html#intro"); nullopt for any other URL.
std::optional<std::string> file_of(const crawl_result& result, std::string_view url,
                                   const std::filesystem::path& cwd);

/// The locator every report of `result` uses: file_of(result, url, cwd), else the URL. It
/// refers to `result`, which must outlive it.
page_locator report_locator(const crawl_result& result, std::filesystem::path cwd);

/// How much the text report lists.
enum class text_detail {
  brief,     ///< the problems and the verdict
  problems,  ///< the problems, the counts and the verdict (the default)
  full,      ///< a line per URL, then everything `problems` lists, skipped URLs and orphans
};

/// How the text report is written.
struct text_style {
  text_detail detail = text_detail::problems;
  bool color = false;  ///< ANSI colours for the statuses and the verdict
  page_locator locate = [](std::string_view url) { return std::string(url); };
};

/// Writes the human report: (in `full` detail, one line per URL, then) each broken URL,
/// warning, rate-limited URL and URL left unchecked with the places pages reference it
/// (`page:line:column element attribute`, pages named by `style.locate`), (in `full`
/// detail, the skipped URLs and orphans,) the counts and the one-line verdict. Text from
/// outside is made safe for a terminal: no control characters, no ill-formed UTF-8.
void write_text_report(std::ostream& out, const crawl_result& result, const crawl_options& options,
                       const text_style& style = {});

/// The `github` format: one `::error file=F,line=L,col=C,title=broken link::URL STATUS ERROR
/// (element attribute)` workflow command per source of each broken link (`::warning` for
/// warnings and rate-limited URLs, `::notice` for breakage the baseline knew), one without a
/// place for a problem URL no page references in its markup, and `::error title=corocrawl::`
/// with the verdict for a crawl that fails with nothing new broken (left unchecked, stopped). Text
/// is valid UTF-8, with "%", CR and LF escaped as the runner expects (and ":" and "," in
/// properties), so no page or server can inject a command.
void write_github_annotations(std::ostream& out, const crawl_result& result,
                              const page_locator& locate);

/// Rows listed per Markdown table: a step summary holds at most 1 MiB, and a comment less.
/// The JSON summary lists everything.
inline constexpr std::size_t markdown_rows_at_most = 200;

/// The `markdown` format: the verdict as a heading, then a table (URL, status, where) of the
/// broken links, warnings and rate-limited URLs, each "where" a `page:line:column element
/// attribute` per source, then the unchecked URLs. Text from outside is escaped: no page or
/// server can add markup, links or HTML to the report.
void write_markdown_report(std::ostream& out, const crawl_result& result, bool fail_on_rate_limit,
                           const page_locator& locate);

/// The `junit` format, as GitLab's and Jenkins' test reports read it: one <testsuite> named
/// after the roots with a <testcase> per checked URL (the records, then the missing fragments):
/// a <failure> for a broken one (its status, error and, a line each, the places pages
/// reference it), and for a rate-limited one when `fail_on_rate_limit`; an <error> per URL
/// left unchecked; <skipped> per URL a rule skipped. Warnings pass, their status in
/// <system-out>. Written one test case at a time; all text is valid UTF-8 XML.
void write_junit_report(std::ostream& out, const crawl_result& result, bool fail_on_rate_limit,
                        const page_locator& locate);

/// The `sarif` format: one SARIF 2.1.0 log (`version`, `$schema`, one run whose `tool.driver`
/// is corocrawl with its rules) with a result per place a page references a broken URL (rule
/// "broken-link", or "missing-fragment"; level "error"), a warning or a rate-limited URL
/// (level "warning"), located at that page, line and column. A problem no markup references
/// is located at its first referrer's page, if any. Strings are valid UTF-8.
void write_sarif_report(std::ostream& out, const crawl_result& result, const page_locator& locate);

}  // namespace corocrawl
