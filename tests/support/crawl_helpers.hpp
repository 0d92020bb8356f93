#pragma once
// Small helpers the integration tests share: options for a crawl of test servers, and finding
// a URL's record in a result.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "corocrawl/crawl.hpp"

namespace corocrawl::testing {

/// True in a build with sanitizers (COROCRAWL_SANITIZERS, set by the asan and tsan presets;
/// the corocrawl binary is built the same way as the tests): several times slower, and with
/// runtimes that need file descriptors of their own (UBSan's checks open pipes), so tests of
/// running out of descriptors mean nothing there.
inline constexpr bool sanitized_build = COROCRAWL_SANITIZED;

/// Options for a crawl of `roots`, with a per-request time limit that no test should reach.
/// robots.txt and links to other sites are off: they have tests of their own
/// (robots_sitemap_test.cpp, references_test.cpp, which turn them on), and elsewhere a test's
/// server sees only the requests the test is about.
inline crawl_options options_for(std::vector<std::string> roots) {
  crawl_options options;
  options.roots = std::move(roots);
  options.timeout = std::chrono::seconds(10);
  options.robots = false;
  options.external = false;
  return options;
}

/// options_for(roots) with robots.txt and links to other sites on, as by default, and the
/// other site "ext.test" at 127.0.0.1:`port` (--resolve): for the tests of those checks.
inline crawl_options checking_options_for(std::vector<std::string> roots, std::uint16_t port) {
  crawl_options options = options_for(std::move(roots));
  options.robots = crawl_options{}.robots;
  options.external = crawl_options{}.external;
  options.resolve.push_back({"ext.test", port, {"127.0.0.1"}});
  return options;
}

/// The record of `url`, if there is one.
inline std::optional<fetch_record> find_record(const crawl_result& result, const std::string& url) {
  const auto it = std::ranges::find(result.records, url, &fetch_record::url);
  if (it == result.records.end()) return std::nullopt;
  return *it;
}

/// The record of `url`; fails the test (and gives an empty record) when there is none.
inline fetch_record record(const crawl_result& result, const std::string& url) {
  if (auto found = find_record(result, url)) return std::move(*found);
  ADD_FAILURE() << "no record for " << url;
  return {};
}

/// The URLs of the records, in the result's order (sorted).
inline std::vector<std::string> urls(const crawl_result& result) {
  std::vector<std::string> all;
  for (const auto& r : result.records)
    all.push_back(r.url);
  return all;
}

}  // namespace corocrawl::testing
