#pragma once
// What a crawl does: the options every entry point (CLI, config file, library) fills in.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace corocrawl {

/// A fixed address for a host and port, like curl's --resolve HOST:PORT:ADDR.
struct resolve_override {
  std::string host;  ///< lower-case
  std::uint16_t port = 0;
  std::string address;  ///< an IPv4 or IPv6 literal, without brackets
  friend bool operator==(const resolve_override&, const resolve_override&) = default;
};

struct crawl_options {
  /// http(s) URLs, bare hosts ("example.com/docs") or local directories; see classify_root.
  std::vector<std::string> roots;
  int max_tasks = 100;    ///< worker coroutines = concurrent requests
  int max_redirect = 10;  ///< redirects followed in one chain (0: none)
  int max_tries = 4;      ///< attempts per URL on network errors
  /// ECMAScript regular expressions; a URL any of them matches (searched, not fully matched)
  /// is neither fetched nor counted.
  std::vector<std::string> exclude;
  bool strict = true;  ///< host matching; see scope
  std::vector<resolve_override> resolve;
  std::chrono::milliseconds timeout{30'000};  ///< per request: connect + response
  std::uint64_t max_body = 10 * 1024 * 1024;  ///< bytes; larger bodies fail "body too large"
  bool stop_on_signals = false;  ///< run_crawl stops cleanly on SIGINT/SIGTERM when set
};

}  // namespace corocrawl
