// What a crawl plan holds: the options worked out for the crawler and the HTTP client.
// Internal: the types here are the library's own.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/status_judge.hpp"
#include "corocrawl/options.hpp"
#include "corocrawl/plan.hpp"
#include "http/client_options.hpp"
#include "http/request_headers.hpp"
#include "url/url_pattern.hpp"

namespace corocrawl {

struct crawl_plan::details {
  crawl_options options;  ///< as given, checked
  /// A root as the crawl starts from it: a URL, or a directory to serve.
  struct root_to_crawl {
    std::string url;  ///< normalised, without userinfo; empty for a directory
    std::optional<std::filesystem::path> directory;  ///< absolute, canonical
    /// A directory's published address (base_url, normalised, ending with '/'): it is served
    /// at that address's path, and links to the address are taken as links to it.
    std::string published_at;
  };
  std::vector<root_to_crawl> roots;  ///< in the order given
  /// The baseline's broken URLs by name (read_baseline), when there is one.
  std::optional<std::vector<std::string>> baseline;
  /// The origins of the URL roots with their userinfo credentials (origins_of); a served
  /// directory's origin is added when it is served.
  std::vector<root_origin> root_origins;
  std::vector<url_pattern> exclude;  ///< compiled
  /// The HTTP client's settings: proxies parsed, the user agent defaulted. max_connections is
  /// left 0 here: it depends on the file descriptor limit when the crawl starts.
  http_client_options http;
  unsigned threads = 1;  ///< parse threads: `options.threads`, or one per core but one
  /// The sitemaps' URLs, normalised, in the order given, without repeats and without "robots".
  std::vector<std::string> sitemap_urls;
  /// "robots" was among the sitemaps: the Sitemap: lines of the roots' robots.txt are read.
  bool sitemaps_from_robots = false;
  /// accept, warn and [[rules]], compiled: which URLs rules skip and what statuses mean.
  status_judge status;
};

}  // namespace corocrawl
