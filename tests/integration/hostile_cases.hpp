#pragma once
// The rows of the hostile-server table (hostile_server_test.cpp): what a server sends for one
// URL, and what the crawl must make of it. Each case crawls "/", a healthy page linking to
// "/case" (the scripted answer) and then to "/after" (healthy), one request at a time on one
// keep-alive connection where the server allows it; "/" and "/after" must be 200 whatever
// "/case" did, for what one answer leaves on a connection never becomes the next URL's answer.
//
// To add a case, add a row to a table (http_cases() for HTTP, or a table of your own given
// to an INSTANTIATE_TEST_SUITE_P in hostile_server_test.cpp).

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "corocrawl/crawl.hpp"
#include "hostile_server.hpp"

namespace corocrawl::testing::hostile {

/// What the crawl must say about "/case". `error` ending in "*" is a prefix.
struct expected {
  std::optional<unsigned> status;
  std::optional<std::string> error;
  std::optional<std::string> failure;  ///< kind, when every try failed
  int tries = 1;
  std::optional<std::uint64_t> size;  ///< checked when set
  std::optional<std::string> encoding = std::nullopt;
};

struct hostile_case {
  std::string name;
  script steps;  ///< the answer to every request for "/case"
  expected want;
  bool passed = false;
  bool binary = false;  ///< also run through the corocrawl binary
  /// Changes to the options: a crawl of "/" with one request at a time, max_tries 2 and a
  /// 2 s time limit per request. The crawl must end within max_tries * timeout + a few
  /// seconds.
  std::function<void(crawl_options&)> adjust = {};
  /// More assertions on the crawl, e.g. on which connection each request came.
  std::function<void(const crawl_result&, const hostile_server&)> check = {};
  std::function<void(hostile_server&)> setup = {};  ///< more paths, for multi-URL cases
};

void PrintTo(const hostile_case& c, std::ostream* out);

/// Slow servers, resets and truncation at every stage, bad lengths and chunking, interim
/// responses, bytes nobody asked for, giant headers, garbage status lines, impossible
/// statuses, compression bombs, odd charsets.
std::vector<hostile_case> http_cases();

/// Whole crawls: redirect loops, crawler traps, --max-depth, --max-urls, markup that takes
/// gumbo minutes.
std::vector<hostile_case> crawl_cases();

}  // namespace corocrawl::testing::hostile
