#pragma once
// The values options take: their ranges and limits, reading a corocrawl.toml, and checking
// options as a whole. The parsers of single values are the library's own, reached through the
// option table (option_table.hpp); parse_proxy_url and parse_choice are here for a program's
// own values (proxies from its environment, choices of its own options).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "corocrawl/options.hpp"

namespace corocrawl {

/// Reads a corocrawl.toml and overrides `into` with every key of the library's options
/// (option_table.hpp) it sets. Relative paths in it (local roots, ca_file, cache) are taken
/// from the file's directory. Throws config_error, one line naming the file, the key (and line
/// when known) and the problem, for a missing or unreadable file, a directory, a file over
/// max_config_file_size (such as /dev/zero), a TOML syntax error, an unknown key or a value of
/// the wrong type or range; `into` is then untouched. Opening never waits: a pipe (bash's
/// <(...)) is read until its writer closes it, and a FIFO that gives nothing (no writer yet)
/// is an error. The environment is not read: http_proxy and friends are the CLI's business.
/// A program with options of its own reads the file with its own table (option_table.hpp).
void apply_config_file(const std::filesystem::path& file, crawl_options& into);

/// Config files are read up to this size; a larger one (or an endless device such as
/// /dev/zero) is an error. Real configs are a few KiB.
inline constexpr std::uint64_t max_config_file_size = 1024 * 1024;

/// The values a count may take.
struct count_range {
  int min = 1;
  int max = std::numeric_limits<int>::max();
};

// Upper bounds keep a typo or a "very large" value from allocating without bound or running
// for ever; each is far above any useful setting.
/// max_tasks: every worker is a coroutine allocated at the start, and each holds a request,
/// and so a socket, open: 10,000 is more than one event loop thread drives usefully, and more
/// than the descriptors a process gets by default.
inline constexpr count_range max_tasks_range{.max = 10'000};
/// threads (unset: one per core but one): threads beyond the cores only add memory; no common
/// machine has 1,024 cores.
inline constexpr count_range threads_range{.max = 1'024};
/// max_per_host: more than max_tasks' bound can never be reached.
inline constexpr count_range max_per_host_range{.max = max_tasks_range.max};
/// max_redirect: browsers follow 20 redirects, curl 50; a chain is kept in memory.
inline constexpr count_range max_redirect_range{.min = 0, .max = 1'000};
/// max_tries: every try may wait up to max_retry_wait; 100 tries already take hours.
inline constexpr count_range max_tries_range{.max = 100};
/// max_depth: 0 checks the roots only.
inline constexpr count_range max_depth_range{.min = 0};

/// What parse_seconds accepts besides positive numbers, and its upper bound.
struct seconds_range {
  bool allow_zero = false;
  double max_seconds = 24 * 60 * 60;
};

/// timeout: positive, at most a day.
inline constexpr seconds_range timeout_range{};
/// max_time: positive, at most 30 days.
inline constexpr seconds_range max_time_range{.max_seconds = 30.0 * 24 * 60 * 60};
/// max_retry_wait: 0 allowed (Retry-After is not waited for), at most a day.
inline constexpr seconds_range retry_wait_range{.allow_zero = true};
/// cache_max_age: 0 allowed (nothing is reused), at most a year.
inline constexpr seconds_range cache_max_age_range{.allow_zero = true,
                                                   .max_seconds = 365.0 * 24 * 60 * 60};

/// The largest max_body: a body is held in memory whole (the HTTP reader reserves a
/// Content-Length up front) and a page is parsed in memory, so larger bodies cannot work.
inline constexpr std::uint64_t max_body_limit = std::uint64_t{1} << 30;

/// The smallest positive rate_limit: one request every 1000 seconds. Smaller rates would make
/// the interval between requests overflow a clock's duration.
inline constexpr double min_rate_limit = 0.001;

/// The longest request header line ("Name: value", without CRLF) a value may make: Apache
/// (LimitRequestFieldSize) and nginx (large_client_header_buffers, 8 KiB with CRLF) reject
/// longer lines by default. Applies to headers, user_agent, user (as the Authorization header
/// it becomes) and a proxy's credentials (as Proxy-Authorization).
inline constexpr std::size_t max_header_line = 8190;

/// The most bytes of header lines the settings may add to one request: user_agent, user's
/// Authorization, headers and the largest [hosts] table's headers together. Common servers
/// accept less by default (nginx 32 KiB for the whole request head, Node.js 16 KiB); it is
/// also the most our own client accepts in a response.
inline constexpr std::size_t max_request_headers = 64 * 1024;

/// Checks a proxy URL as --proxy, proxy = or http_proxy give it: "" (no proxy) or
/// "[http://][USER:PASS@]HOST[:PORT][/]" as curl accepts it (port 1080 when left out), whose
/// credentials' Proxy-Authorization header line fits in max_header_line. Returns it unchanged.
/// Throws config_error naming `name`.
std::string parse_proxy_url(std::string_view name, std::string_view text);

/// Parses one of `choices` and returns its index. Throws config_error naming `name` and
/// listing the choices ("expected \"a\", \"b\" or \"c\", got ...") otherwise.
int parse_choice(std::string_view name, std::string_view text,
                 std::span<const std::string_view> choices);

/// Checks crawl options as a whole, as make_plan (plan.hpp) does, without keeping the plan:
/// at least one root, every root classifies, every exclude pattern compiles, every sitemap is
/// "robots" or an absolute http(s) URL without userinfo, accept is not empty, every [[rules]]
/// rule has a match that compiles and does something (status_rule), counts, sizes,
/// rates and times in the ranges above, every resolve entry has an address, headers, user,
/// user agent and proxies well-formed, ca_file readable and the cache a file that can be
/// written (its directory exists; not "" or "-") (as the parsers above require),
/// host_headers' hosts lower-case, and all the header lines one request gets from the
/// settings at most max_request_headers bytes. Throws config_error.
void validate(const crawl_options& options);

}  // namespace corocrawl
