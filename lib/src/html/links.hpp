#pragma once
// Link extraction from HTML with a real HTML5 parser (gumbo).

#include <chrono>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace corocrawl {

/// How a parse ended.
enum class parse_outcome {
  complete,     ///< every link of the page was found
  gave_up,      ///< one of gumbo's assert()s fired: none or only some links were found
  over_budget,  ///< the parse took longer than its budget and was abandoned
  stopped,      ///< the parse was abandoned because a stop was requested
};

/// What bounds a parse of a page handed over to extract_links_taking. gumbo's cost is not
/// always linear in the page (some hostile nestings are quadratic in it): whatever the page,
/// a parse ends within a few milliseconds of `stop` being requested or of `budget` running
/// out, having found none or only some of the links then.
struct parse_limits {
  std::stop_token stop;
  std::chrono::steady_clock::duration budget = std::chrono::seconds(10);
};

/// The links of a page handed over to extract_links_taking.
struct page_links {
  std::vector<std::string> links;
  parse_outcome outcome = parse_outcome::complete;
};

/// The links of a page handed over (see extract_links below for which links: it is the same
/// reading compact): the page is freed as soon as its link tags or shrunk copy are read, so a
/// large page and its parse tree are not in memory at once. Says whether the parse completed
/// (else it found none or only some links).
page_links extract_links_taking(std::string&& html, std::string_view page_url,
                                const parse_limits& limits = {});

/// Makes the assert guard SIGABRT's action, unless it is already: the action in place is kept as
/// the one every SIGABRT but an assert inside a parse goes to (run_crawl in corocrawl/crawl.hpp
/// states the contract). A crawl calls it as it starts, and the first parse of the process too.
/// One system call when the guard is in place, two when it is not; thread-safe, but not against
/// the program changing SIGABRT's action on another thread at the same time.
void install_abort_guard();

// ---- For tests, benchmarks and fuzzers --------------------------------------------------
// The crawl reads pages with extract_links_taking only. extract_links, and the markup_reading
// it takes, let the tests and fuzzers check that the three readings find the same links, and
// the benchmarks time each one.

/// How much of a page gumbo parses. All three give the same links (the tests compare them);
/// extract_links_taking always reads compact.
/// - compact (the default): only the page's link tags, where nothing on the page lets HTML's
///   tree builder change which tags are links (no <select>, <template>, <noscript> or
///   <frameset>, SVG and MathML simply nested); else as shrunk. Its memory stays small
///   however large the page.
/// - shrunk: a shrunk copy of the page, several times faster to parse and smaller in memory
///   than the page: text runs, comments and attributes that cannot change which links the
///   page has are reduced or left out.
/// - whole: the page as it is.
enum class markup_reading { compact, shrunk, whole };

/// Parses `html` and returns the distinct links of the page, in document order (reading
/// link tags, compact gives source order, which differs where misnested markup makes the tree
/// builder move elements): the href of every <a>, <area> and <link> element, resolved against the
/// page's <base href> (itself resolved against `page_url`) or `page_url`, and normalised (see
/// resolve_link). Nothing in comments, <script>, <style>, <template> or text is a link. Any scheme
/// is returned (mailto:, ftp: ...); hrefs that cannot be resolved are skipped. Never throws on
/// malformed markup or invalid UTF-8; a page that still trips one of gumbo's assert()s gives no
/// links (gumbo prints the assertion to stderr).
std::vector<std::string> extract_links(std::string_view html, std::string_view page_url,
                                       markup_reading reading = markup_reading::compact);

}  // namespace corocrawl
