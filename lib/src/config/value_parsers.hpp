#pragma once
// The parsers of single option values, shared by the command line (option_words.cpp),
// corocrawl.toml (toml_values.cpp) and make_plan (plan.cpp), so that every source words its
// errors alike. Each throws config_error naming the option (`name`: its flag or key).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "corocrawl/config.hpp"
#include "corocrawl/options.hpp"
#include "corocrawl/status_rules.hpp"
#include "url/url_pattern.hpp"

namespace corocrawl {

/// Parses a count such as "--max-tasks 8": a decimal integer within `range`. Throws
/// config_error naming `name` otherwise.
int parse_count(std::string_view name, std::string_view text, count_range range);

/// parse_count with no upper bound but int's.
int parse_count(std::string_view name, std::string_view text, int min);

/// Parses a count that may exceed int, such as "--max-urls 5000000000": a decimal integer
/// >= `min` that fits in 64 bits. Throws config_error naming `name` otherwise.
std::uint64_t parse_large_count(std::string_view name, std::string_view text,
                                std::uint64_t min = 1);

/// Parses HOST:PORT:ADDR[,ADDR...]: one or more comma-separated IPv4 or IPv6 addresses (IPv6
/// in brackets, which the result drops). Throws config_error naming `name` and the text when
/// malformed.
resolve_override parse_resolve(std::string_view name, std::string_view text);

/// Parses a number of seconds ("30", "0.5") within `range`, rounded up to whole milliseconds
/// so that a positive value stays positive. Throws config_error naming `name`.
std::chrono::milliseconds parse_seconds(std::string_view name, std::string_view text,
                                        seconds_range range = {});

/// Parses a duration within `range`: a number of seconds as parse_seconds takes it, or a
/// number followed by a unit s, m, h or d ("90s", "30m", "1.5h", "1d"), rounded up to whole
/// milliseconds. Throws config_error naming `name`.
std::chrono::milliseconds parse_duration(std::string_view name, std::string_view text,
                                         seconds_range range = {});

/// A duration in seconds as parse_duration reads it back: "365d", "12h", "90s".
std::string shown_duration(double seconds);

/// Parses a size in bytes from 1 to `max`: decimal digits, optionally followed by K, M, G or
/// KiB, MiB, GiB (all powers of 1024), as in "10485760" or "10MiB". Throws config_error
/// naming `name`.
std::uint64_t parse_byte_size(std::string_view name, std::string_view text,
                              std::uint64_t max = std::numeric_limits<std::uint64_t>::max());

/// Parses a request rate per second: a positive number ("2", "0.5") of at least
/// min_rate_limit. Throws config_error naming `name`.
double parse_rate(std::string_view name, std::string_view text);

/// Parses a header as --header gives it, "Name: value"; see checked_header. Throws
/// config_error naming `name`.
http_header parse_header(std::string_view name, std::string_view text);

/// A header from its name and value: the name an RFC 9110 token other than those the client
/// manages itself (Host, Content-Length, Transfer-Encoding, Connection); the value without
/// control characters other than tab, surrounding whitespace trimmed; the line at most
/// max_header_line bytes. Throws config_error
/// naming `name` and the header (never echoing the value, which may be a secret).
http_header checked_header(std::string_view name, std::string_view header_name,
                           std::string_view value);

/// Checks a --user value "USER:PASSWORD": a ':' after a non-empty user, no control
/// characters, short enough for its Authorization header line to fit in max_header_line.
/// Returns it unchanged. Throws config_error naming `name`, without echoing it.
std::string parse_user(std::string_view name, std::string_view text);

/// Checks a User-Agent: not empty after trimming surrounding whitespace, no control
/// characters, its header line at most max_header_line bytes. Returns it trimmed. Throws
/// config_error naming `name`.
std::string parse_user_agent(std::string_view name, std::string_view text);

/// Checks --ca-file: `text` (relative paths taken from `base_dir`) must name a readable
/// regular file. Returns its absolute, lexically normal path. Throws config_error naming
/// `name`.
std::string parse_ca_file(std::string_view name, std::string_view text,
                          const std::filesystem::path& base_dir);

/// Parses status codes as --accept and accept = give them: comma-separated codes and
/// inclusive ranges LOW-HIGH ("200-299,403"), with spaces allowed around the items, each code
/// from 100 to 599. Overlapping and repeated codes are merged. Throws config_error naming
/// `name` for an empty text or item, a code out of range or a range that goes down.
status_codes parse_status_codes(std::string_view name, std::string_view text);

/// One status code as a config file's array gives it as a number: 100 to 599. Throws
/// config_error naming `name` otherwise.
unsigned checked_status_code(std::string_view name, std::int64_t code);

/// Checks one sitemap as --sitemap and sitemaps = give it: "robots", or an absolute http(s)
/// URL without userinfo. Returns "robots" or the URL normalised (normalize_url). Throws
/// config_error naming `name`, never showing a userinfo.
std::string normalized_sitemap(std::string_view name, std::string_view text);

/// normalized_sitemap as an option's check: returns `text` as given.
std::string parse_sitemap(std::string_view name, std::string_view text);

/// Checks --base-url: an absolute http(s) URL without userinfo, query or fragment. Returns it
/// normalised, its path ending with '/' ("https://example.com/docs/"). Throws config_error
/// naming `name`.
std::string parse_base_url(std::string_view name, std::string_view text);

/// Checks a [[rules]] rule as a whole (`name` such as "rules[2]"): a non-empty match that
/// compiles as url_pattern compiles it, and accept, warn or skip = true, but not skip with
/// accept or warn; accept, when given, not empty (an empty warn warns of nothing). Returns the
/// compiled pattern.
/// Throws config_error naming `name` or its key ("rules[2].match").
url_pattern checked_status_rule(std::string_view name, const status_rule& rule);

}  // namespace corocrawl
