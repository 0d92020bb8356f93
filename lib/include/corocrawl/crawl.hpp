#pragma once
// Running a whole crawl: the library's entry point for programs other than the CLI.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corocrawl/options.hpp"
#include "corocrawl/plan.hpp"
#include "corocrawl/record.hpp"

namespace corocrawl {

/// A URL discovered but never checked: the crawl stopped (signal, max_time, max_urls) first,
/// or its origin's robots.txt could not be read.
struct unchecked_url {
  std::string url;
  std::optional<std::string> referrer;  ///< the first page that linked here; none for a root
  std::optional<std::string> reason;    ///< why, when not a stop: "robots.txt of ... answered 503"
};

/// A URL not fetched because a rule refused it: a crawler-trap rule, or robots.txt.
struct skipped_url {
  std::string url;
  std::string reason;                   ///< which rule, in words; "robots.txt" for robots.txt
  std::optional<std::string> referrer;  ///< the first page that linked here
  std::vector<std::string> referrers;   ///< sorted
  std::vector<link_source> sources;     ///< sorted by page, line and column
};

/// A folder root as it was served for the crawl.
struct served_folder {
  std::string url;                  ///< "http://127.0.0.1:PORT/" (with --base-url's path)
  std::filesystem::path directory;  ///< absolute and canonical
};

/// How a crawl's broken URLs compare with a baseline's (crawl_options::baseline). A URL is
/// compared by its name in reports: its file in folder mode (stable from run to run), else
/// the URL.
struct baseline_comparison {
  std::string file;                ///< the baseline's path, as given
  std::vector<std::string> known;  ///< broken now and in the baseline, as broken_link::url; sorted
  std::vector<std::string> fixed;  ///< broken in the baseline and not now, by name; sorted
};

struct crawl_result {
  std::vector<std::string> roots;      ///< root URLs crawled (directories as served)
  std::vector<served_folder> folders;  ///< the folder roots, in the order given
  record_list records;                 ///< one per URL fetched, sorted by url
  broken_list broken;                  ///< sorted by url
  broken_list rate_limited;            ///< still answering 429 at the end; sorted by url
  /// Statuses that a --warn rule makes warnings: reported, never failing; sorted by url.
  broken_list warnings;
  built_list<unchecked_url> unchecked;  ///< discovered, never checked; sorted by url
  built_list<skipped_url> skipped;      ///< not fetched by a rule; sorted by url
  /// URLs a sitemap lists that no crawled page links to; sorted.
  std::vector<std::string> orphans;
  std::uint64_t frontier_peak = 0;  ///< the most URLs waiting to be fetched at once
  bool interrupted = false;         ///< stopped by a signal before the end
  bool timed_out = false;           ///< stopped by max_time before the end
  /// Why the crawl could not go on, when the environment failed it midway (memory, file
  /// descriptors, threads ran out): the rest of the result says what it did until then.
  std::optional<std::string> failure;
  std::chrono::duration<double> elapsed{0};
  std::uint64_t requests = 0;     ///< HTTP requests sent, retries included
  std::uint64_t connections = 0;  ///< connections opened: requests / connections is the reuse
  /// With a baseline: which broken URLs it knew, and which it had that are fixed.
  std::optional<baseline_comparison> baseline;
};

/// Whether broken URL `url` is known from the baseline (so does not fail the crawl).
bool is_known(const crawl_result& result, std::string_view url);

/// The broken URLs the baseline did not know: those that fail the crawl.
std::size_t new_broken_count(const crawl_result& result);

/// How far a crawl has got, as a progress display shows it.
struct crawl_progress {
  std::uint64_t checked = 0;   ///< URLs finished
  std::uint64_t queued = 0;    ///< URLs waiting to be fetched
  std::uint64_t broken = 0;    ///< URLs finished broken so far
  std::uint64_t requests = 0;  ///< HTTP requests sent
  std::chrono::duration<double> elapsed{0};
};

/// Called with the crawl's progress as it starts and every `every` while it runs, on the
/// crawl's thread: it must return quickly.
struct progress_listener {
  std::function<void(const crawl_progress&)> on_progress;
  std::chrono::milliseconds every{250};
};

/// True when nothing is broken but what the baseline knew (a missing fragment is broken too),
/// nothing was left unchecked and the crawl ran to its end (not interrupted, timed out or
/// failed); with `fail_on_rate_limit`, nothing may be rate limited either. Skipped URLs, warnings
/// and orphans do not count.
bool passed(const crawl_result& result, bool fail_on_rate_limit = false);

/// Crawls `options.roots` to the end on a fresh io_context in the calling thread. Directory
/// roots are served on 127.0.0.1 for the duration of the crawl. With `stop_on_signals`,
/// SIGINT or SIGTERM ends the crawl early with `interrupted` set; `max_time` ends it with
/// `timed_out` set. Throws config_error for invalid options (before anything is fetched), and
/// std::exception when the crawl cannot start (a directory cannot be served, no thread can be
/// started); a failure midway ends the crawl with `failure` set.
///
/// With `cache`, the cache file is read before the crawl and rewritten after it, also when
/// the crawl was interrupted, timed out or failed midway; a file that cannot be read or is
/// not a cache, and a save that fails, are logged as warnings and change neither the result
/// nor what is thrown.
///
/// Logging: what the crawl does (warnings on broken pages, retries, limits reached; more at
/// debug level) goes to spdlog's default logger, which writes to stdout unless the program
/// sets another with spdlog::set_default_logger (the CLI's writes to stderr, as
/// examples/embed's does).
///
/// SIGABRT: gumbo, the HTML parser, assert()s on some hostile markup, so the crawl guards its
/// parses with a SIGABRT handler of its own (process-wide, as all signal actions are). As a crawl
/// starts, unless that handler is SIGABRT's action already, the action in place is kept and the
/// handler installed; it stays installed after the crawl. A SIGABRT that a thread raises while
/// inside a parse ends only that parse (a warning names the page, whose links are missed). Any
/// other SIGABRT goes to the action kept: a handler is called with its sa_mask blocked (and
/// with the siginfo_t and context when installed with SA_SIGINFO; SA_NODEFER and SA_RESETHAND
/// are not followed) and the guard stays; with SIG_DFL the process ends as it would have;
/// SIG_IGN ignores it. So a handler installed before a crawl keeps working, and one installed
/// during a crawl replaces the guard (it gets gumbo's asserts too) until the next crawl starts:
/// it then becomes the action kept, and must not pass SIGABRT on to the action it replaced, the
/// guard, which would pass it back. SIGABRT's action must not change on another thread while a
/// crawl starts.
crawl_result run_crawl(const crawl_options& options);

/// run_crawl for options already worked out into a plan (plan.hpp): they are not checked
/// again.
crawl_result run_crawl(const crawl_plan& plan);

/// run_crawl(plan), telling `listener` how far it has got as it goes.
crawl_result run_crawl(const crawl_plan& plan, const progress_listener& listener);

}  // namespace corocrawl
