#pragma once
// What a crawl does: the options every entry point (CLI, config file, library) fills in.
// option_table.hpp describes each; make_plan (plan.hpp) checks them against the ranges in
// config.hpp and works them out once.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "corocrawl/status_rules.hpp"

namespace corocrawl {

/// Fixed addresses for a host and port, like curl's --resolve HOST:PORT:ADDR[,ADDR...].
struct resolve_override {
  std::string host;  ///< lower-case
  std::uint16_t port = 0;
  std::vector<std::string> addresses;  ///< IPv4 or IPv6 literals, without brackets; tried in order
  friend bool operator==(const resolve_override&, const resolve_override&) = default;
};

/// A request header such as {"Accept-Language", "en"}.
struct http_header {
  std::string name;
  std::string value;
  friend bool operator==(const http_header&, const http_header&) = default;
};

/// Where requests go when a proxy is used. Each proxy is "http://[user:pass@]host[:port]"
/// (empty: none); https URLs are tunnelled through it with CONNECT. The library does not read
/// the environment: the CLI fills these in from --proxy or http_proxy/https_proxy/no_proxy.
struct proxy_options {
  std::string http_proxy;   ///< for http:// URLs
  std::string https_proxy;  ///< for https:// URLs
  /// Hosts reached directly: comma-separated names (a name also covers its subdomains; a
  /// leading "." is allowed), IP literals, or "*" for all. Loopback hosts (localhost,
  /// 127.0.0.0/8, ::1) are always reached directly.
  std::string no_proxy;
  friend bool operator==(const proxy_options&, const proxy_options&) = default;
};

struct crawl_options {
  /// http(s) URLs, bare hosts ("example.com/docs") or local directories; see classify_root.
  std::vector<std::string> roots;
  int max_tasks = 100;  ///< worker coroutines = concurrent requests
  /// Threads that parse pages while the event loop's thread keeps the sockets busy (1 to
  /// threads_range.max); the event loop's thread parses too when it has nothing else to do.
  /// Unset: one per core but one (std::thread::hardware_concurrency() - 1, at least 1).
  std::optional<int> threads;
  int max_redirect = 10;  ///< redirects followed in one chain (0: none)
  int max_tries = 4;      ///< attempts per URL on network errors, 429 and 503
  /// ECMAScript regular expressions; a URL any of them matches (searched, not fully matched)
  /// is neither fetched nor counted.
  std::vector<std::string> exclude;
  bool strict = true;  ///< host matching; see scope
  std::vector<resolve_override> resolve;
  std::chrono::milliseconds timeout{30'000};  ///< per request: connect + request + response
  /// The whole crawl; when it runs out the crawl stops and its result says timed_out.
  std::optional<std::chrono::milliseconds> max_time;
  /// At most this many URLs are checked (>= 1); the others found are listed as unchecked and
  /// the crawl does not pass. nullopt: no limit.
  std::optional<std::uint64_t> max_urls;
  /// Link hops from a root (>= 0; 0: the roots only). A page this many hops away is checked
  /// but its links are not followed; redirects do not add a hop. nullopt: no limit.
  std::optional<int> max_depth;
  /// Crawler-trap rules: a URL whose path repeats one segment more than 3 times in a row, or
  /// has more than 64 segments, is not fetched and is listed as skipped with the reason.
  bool trap_rules = true;
  /// Bytes of a decoded body; a larger body fails with "body too large" and is not parsed.
  std::uint64_t max_body = 10 * 1024 * 1024;

  // Checking: what is checked besides the site's own pages, and what a status means.
  /// Links to other sites (out-of-scope http(s) URLs) are checked: fetched once, never crawled.
  bool external = true;
  /// A file in which the successes (2xx, judged OK) of external URLs are kept between runs:
  /// an external URL found OK less than cache_max_age ago is not fetched again, and its record
  /// says `cached`. The file need not exist, its directory must; run_crawl rewrites it at the
  /// end, under a lock on FILE.lock. nullopt: no cache.
  std::optional<std::string> cache;
  /// How long a cached success is reused (0: never; the file is still written).
  std::chrono::milliseconds cache_max_age{std::chrono::hours(24)};
  /// The #fragments of links into in-scope HTML pages are checked against the ids in the pages.
  bool fragments = true;
  /// The address a folder root is published at ("https://example.com/docs/"): links to it and
  /// below it are checked against the folder, served at the same path. Needs exactly one
  /// folder root.
  std::optional<std::string> base_url;
  /// A JSON summary of an earlier crawl: URLs broken there too are reported as known and do
  /// not fail the crawl; those broken there and not now are reported as fixed.
  std::optional<std::string> baseline;
  /// The robots.txt of each origin crawled is honoured.
  bool robots = true;
  /// Sitemaps and sitemap indexes whose in-scope URLs are crawled as roots: absolute http(s)
  /// URLs, or "robots" for the Sitemap: lines of the roots' robots.txt.
  std::vector<std::string> sitemaps;
  /// Final statuses that count as OK. Redirects that are followed are judged by where they
  /// end, never by this.
  status_codes accept{{200, 399}};
  /// Final statuses reported as warnings, which never fail the crawl; wins over accept.
  status_codes warn;
  /// The first rule whose pattern a URL matches decides for it: skipped, or its accept and
  /// warn instead of the ones above.
  std::vector<status_rule> rules;

  // Politeness, per origin (scheme, host and port).
  int max_per_host = 16;  ///< concurrent requests, and so connections, to one origin
  double rate_limit = 0;  ///< requests per second to one origin; 0: unlimited
  std::chrono::milliseconds max_retry_wait{60'000};  ///< longest wait a Retry-After gets
  bool fail_on_rate_limit = false;  ///< URLs still answering 429 at the end fail the crawl

  // TLS.
  bool insecure = false;  ///< skip certificate and host name verification
  std::string ca_file;    ///< PEM file of CA certificates trusted besides the system's

  // Identity.
  std::string user_agent;            ///< empty: "corocrawl/<version> (+<project URL>)"
  std::vector<http_header> headers;  ///< sent to the roots' origins only
  std::map<std::string, std::vector<http_header>> host_headers;  ///< lower-case host → headers
  std::optional<std::string> user;  ///< "USER:PASS": basic auth, sent up front to root origins

  proxy_options proxy;

  bool stop_on_signals = false;  ///< run_crawl stops cleanly on SIGINT/SIGTERM when set
};

}  // namespace corocrawl
