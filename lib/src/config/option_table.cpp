// The library's options, one descriptor each: the command line, corocrawl.toml, --help, the
// JSON summary and docs/options.md all read them from here. This file holds the Crawl and
// Checking groups; option_table_network.cpp the rest.

#include "corocrawl/option_table.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/option_descriptors.hpp"
#include "config/value_parsers.hpp"

namespace corocrawl {
namespace option_descriptors {

void add_crawl_options(std::vector<option<crawl_options>>& t) {
  using k = option_kind;
  std::string_view group = "Crawl";
  // The positional ROOT: --help lists it apart, and its key first among the file's keys.
  t.push_back(member<&crawl_options::roots>(
      {.flag = "ROOT",
       .key = "roots",
       .kind = k::roots,
       .group = group,
       .value_name = "...",
       .help = "URL, bare host or local directory",
       .default_text = "none",
       .meaning = "URLs, bare hosts (`example.com/docs`) or local directories of built HTML",
       .file_note = " = [...]",
       .secret = option_secret::url_userinfo}));
  t.push_back(member<&crawl_options::max_tasks>(
      {.flag = "--max-tasks",
       .key = "max_tasks",
       .kind = k::count,
       .group = group,
       .value_name = "N",
       .help = "Worker coroutines = concurrent requests\n(default: 100)",
       .default_text = "100",
       .meaning = "worker coroutines = the most concurrent requests",
       .counts = max_tasks_range}));
  t.push_back(member<&crawl_options::threads>(
      {.flag = "--threads",
       .key = "threads",
       .kind = k::count,
       .group = group,
       .value_name = "N",
       .help = "Threads that parse pages\n(default: one per core but one)",
       .default_text = "one per core but one",
       .meaning = "threads that parse pages (HTML parsing is the crawl's main CPU cost), at least "
                  "one; the event loop's thread parses a waiting page too when it has nothing "
                  "else to do, which is why the default leaves it a core",
       .counts = threads_range}));
  t.push_back(member<&crawl_options::exclude>(
      {.flag = "--exclude",
       .key = "exclude",
       .kind = k::patterns,
       .group = group,
       .value_name = "REGEX",
       .help = "Skip URLs this ECMAScript regex matches anywhere\n"
               "in: neither fetched nor counted. Repeatable\n(default: none)",
       .default_text = "none",
       .meaning =
           "URLs a pattern matches anywhere (ECMAScript syntax, searched in the normalised URL) "
           "are neither fetched nor counted; see [exclude patterns](usage.md#exclude-patterns)",
       .file_note = " = [...]"}));
  t.push_back(member<&crawl_options::strict>(
      {.flag = "--lenient",
       .key = "strict",
       .kind = k::flag,
       .group = group,
       .help = "Follow any host of the roots' domains (same last\n"
               "two labels), not only the roots' hosts with or\n"
               "without www. (default: strict)",
       .default_text = "strict",
       .meaning = "host matching, see [What is crawled](usage.md#what-is-checked)",
       .file_note = " (false for --lenient)",
       .flag_gives = false}));
  t.push_back(member<&crawl_options::max_time>(
      {.flag = "--max-time",
       .key = "max_time",
       .kind = k::seconds,
       .group = group,
       .value_name = "SECONDS",
       .help = "Stop the whole crawl after this long, may be a\nfraction (default: none)",
       .default_text = "none",
       .meaning = "bound on the whole crawl: when it runs out the crawl stops, the report and "
                  "summary are written with `\"timed_out\": true`, and the exit status is 1",
       .seconds = max_time_range}));
  t.push_back(member<&crawl_options::max_urls>(
      {.flag = "--max-urls",
       .key = "max_urls",
       .kind = k::large_count,
       .group = group,
       .value_name = "N",
       .help = "Check at most N URLs; the rest are reported as\n"
               "unchecked and the crawl fails (default: none)",
       .default_text = "none",
       .meaning = "check at most N URLs; the URLs found but not checked are reported as "
                  "`unchecked` and the crawl does not pass (exit status 1)"}));
  t.push_back(member<&crawl_options::max_depth>(
      {.flag = "--max-depth",
       .key = "max_depth",
       .kind = k::count,
       .group = group,
       .value_name = "N",
       .help = "Follow links at most N hops from a root, 0 for\n"
               "the roots only; redirects add no hop\n(default: none)",
       .default_text = "none",
       .meaning =
           "follow links at most N hops from a root: pages N hops away are checked but their links "
           "are not followed; 0 checks the roots only; redirects do not add a hop",
       .counts = max_depth_range}));
  t.push_back(member<&crawl_options::trap_rules>(
      {.flag = "--no-trap-rules",
       .key = "trap_rules",
       .kind = k::flag,
       .group = group,
       .help = "Fetch URLs whose path repeats a segment more\n"
               "than 3 times in a row or has more than 64\n"
               "segments (default: skip them as crawler traps)",
       .default_text = "on",
       .meaning = "turn off the crawler-trap rules: by default a URL whose path repeats one "
                  "segment more than 3 times in a row (`/a/a/a/a/`), or has more than 64 segments, "
                  "is not fetched and is listed as `skipped` with the reason",
       .file_note = " (false for --no-trap-rules)",
       .flag_gives = false}));

  group = "Checking";
  t.push_back(member<&crawl_options::external>(
      {.flag = "--no-external",
       .key = "external",
       .kind = k::flag,
       .group = group,
       .help = "Do not check links to other sites (default:\n"
               "fetch each once, never crawl them)",
       .default_text = "on",
       .meaning = "turn off checking links to other sites: by default each out-of-scope http(s) "
                  "URL is fetched once, and never crawled",
       .file_note = " (false for --no-external)",
       .flag_gives = false}));
  t.push_back(member<&crawl_options::base_url>(
      {.flag = "--base-url",
       .key = "base_url",
       .kind = k::text,
       .group = group,
       .value_name = "URL",
       .help = "Where the folder root is published: links to\n"
               "URL and below are checked against the folder\n(default: none)",
       .default_text = "none",
       .meaning = "the address the one folder root is published at (`https://example.com/docs/`):"
                  " links to it and below it are checked against the folder, served at that "
                  "path, so a built site's absolute links are checked before it is deployed",
       .check = parse_base_url}));
  t.push_back(member<&crawl_options::cache>(
      {.flag = "--cache",
       .key = "cache",
       .kind = k::state_file,
       .group = group,
       .value_name = "FILE",
       .help = "Keep the successes of links to other sites in\n"
               "FILE and reuse them in later runs, while\n"
               "younger than --cache-max-age (default: none)",
       .default_text = "none",
       .meaning = "keep the successes (2xx, judged OK) of links to other sites in FILE, a JSON "
                  "file, and do not fetch them again while younger than `cache_max_age`; the "
                  "site's own URLs are always fetched. See [the cache](usage.md#the-cache)"}));
  t.push_back(member<&crawl_options::cache_max_age>(
      {.flag = "--cache-max-age",
       .key = "cache_max_age",
       .kind = k::duration,
       .group = group,
       .value_name = "DURATION",
       .help = "How long --cache reuses a success: seconds, or\n"
               "with a unit s, m, h or d as in 12h; 0 reuses\n"
               "nothing (default: 1d)",
       .default_text = "`1d`",
       .meaning = "how long a cached success is reused: seconds, or a number with a unit `s`, "
                  "`m`, `h` or `d` (`90s`, `30m`, `12h`, `1d`); `0` reuses nothing. Older "
                  "entries are dropped from the file",
       .file_note = " (seconds or a string such as \"12h\")",
       .seconds = cache_max_age_range}));
  t.push_back(member<&crawl_options::baseline>(
      {.flag = "--baseline",
       .key = "baseline",
       .kind = k::input_file,
       .group = group,
       .value_name = "FILE",
       .help = "JSON summary of an earlier crawl: what was broken\n"
               "there is known and does not fail (default: none)",
       .default_text = "none",
       .meaning = "a JSON summary of an earlier crawl (`--json FILE`): URLs broken there too are "
                  "reported as known and do not fail the crawl, new ones do, and those fixed "
                  "since are listed; see [baselines](usage.md#baselines)"}));
  t.push_back(member<&crawl_options::fragments>(
      {.flag = "--no-fragments",
       .key = "fragments",
       .kind = k::flag,
       .group = group,
       .help = "Do not check #fragments of links into the site's\n"
               "HTML pages against their ids (default: check)",
       .default_text = "on",
       .meaning = "turn off checking the `#fragment` of links into in-scope HTML pages against "
                  "the ids in those pages",
       .file_note = " (false for --no-fragments)",
       .flag_gives = false}));
  t.push_back(member<&crawl_options::robots>(
      {.flag = "--ignore-robots",
       .key = "robots",
       .kind = k::flag,
       .group = group,
       .help = "Ignore the robots.txt of the origins crawled\n(default: honour it)",
       .default_text = "on",
       .meaning = "ignore robots.txt: by default the robots.txt of each origin crawled is honoured",
       .file_note = " (false for --ignore-robots)",
       .flag_gives = false}));
  t.push_back(member<&crawl_options::sitemaps>(
      {.flag = "--sitemap",
       .key = "sitemaps",
       .kind = k::texts,
       .group = group,
       .value_name = "URL",
       .help = "Crawl the site's URLs a sitemap or sitemap index\n"
               "lists, as roots; \"robots\" for the Sitemap: lines\n"
               "of the roots' robots.txt. Repeatable\n(default: none)",
       .default_text = "none",
       .meaning = "sitemaps or sitemap indexes (absolute http(s) URLs) whose listed in-scope URLs "
                  "are crawled as roots; `robots` stands for the `Sitemap:` lines of the roots' "
                  "robots.txt",
       .file_note = " = [...]",
       .check = parse_sitemap,
       .secret = option_secret::url_userinfo}));
  t.push_back(member<&crawl_options::accept>(
      {.flag = "--accept",
       .key = "accept",
       .kind = k::status_codes,
       .group = group,
       .value_name = "CODES",
       .help = "Statuses that are OK, as 200-299,403 (default:\n"
               "200-399; a followed redirect is judged by where\n"
               "it ends)",
       .default_text = "`200-399`",
       .meaning = "final statuses that count as OK: codes and ranges such as `200-299,403`; in the "
                  "file also an array (`[200, \"300-399\"]`). A redirect that is followed is "
                  "judged by where it ends; see [status rules](usage.md#status-rules)",
       .file_note = " (\"200-299,403\" or an array)"}));
  t.push_back(member<&crawl_options::warn>(
      {.flag = "--warn",
       .key = "warn",
       .kind = k::status_codes,
       .group = group,
       .value_name = "CODES",
       .help = "Statuses reported as warnings, which never fail\n"
               "the crawl; wins over --accept (default: none)",
       .default_text = "none",
       .meaning = "final statuses reported as warnings, which never fail the crawl; a status both "
                  "in `warn` and in `accept` is a warning",
       .file_note = " (as accept)"}));
  t.push_back(member<&crawl_options::rules>(
      {.key = "rules",
       .kind = k::status_rules,
       .group = group,
       .default_text = "none",
       .meaning =
           "status rules, each with `match = \"REGEX\"` and `accept`, `warn` or "
           "`skip = true`: the first rule whose pattern a URL matches skips it (not fetched, "
           "not counted) or gives its accept and warn; see [status "
           "rules](usage.md#status-rules)"}));
}

}  // namespace option_descriptors

std::span<const option<crawl_options>> crawl_option_table() {
  static const std::vector<option<crawl_options>> table = [] {
    std::vector<option<crawl_options>> t;
    option_descriptors::add_crawl_options(t);
    option_descriptors::add_network_options(t);
    return t;
  }();
  return table;
}

}  // namespace corocrawl
