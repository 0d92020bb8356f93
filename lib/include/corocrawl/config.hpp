#pragma once
// Settings of a corocrawl run: crawl options plus output choices, from TOML and validation.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "corocrawl/options.hpp"

namespace corocrawl {

enum class report_mode { text, none };

/// Log level and report detail. quiet: errors only in the log and only broken URLs in the
/// text report.
enum class verbosity { quiet, info, debug, trace };

struct settings {
  crawl_options crawl;
  std::optional<std::string> json_path;  ///< "-" is stdout
  report_mode report = report_mode::text;
  enum verbosity verbosity = verbosity::info;
};

/// Reads a corocrawl.toml and overrides `into` with every key it sets. Relative paths in it
/// (local roots, json, ca_file) are taken from the file's directory. Throws config_error, one
/// line naming the file, the key (and line when known) and the problem, for a missing or
/// unreadable file, a TOML syntax error, an unknown key or a value of the wrong type or range.
/// The environment is not read: http_proxy and friends are the CLI's business.
void apply_config_file(const std::filesystem::path& file, settings& into);

/// Parses a count such as "--max-tasks 8": a decimal integer >= `min`. Throws config_error
/// naming `name` otherwise.
int parse_count(std::string_view name, std::string_view text, int min);

/// Parses HOST:PORT:ADDR[,ADDR...]: one or more comma-separated IPv4 or IPv6 addresses (IPv6
/// in brackets, which the result drops). Throws config_error naming `name` and the text when
/// malformed.
resolve_override parse_resolve(std::string_view name, std::string_view text);

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

/// Parses a number of seconds ("30", "0.5") within `range`, rounded up to whole milliseconds
/// so that a positive value stays positive. Throws config_error naming `name`.
std::chrono::milliseconds parse_seconds(std::string_view name, std::string_view text,
                                        seconds_range range = {});

/// Parses a size in bytes >= 1: decimal digits, optionally followed by K, M, G or KiB, MiB,
/// GiB (all powers of 1024), as in "10485760" or "10MiB". Throws config_error naming `name`.
std::uint64_t parse_byte_size(std::string_view name, std::string_view text);

/// The smallest positive rate_limit: one request every 1000 seconds. Smaller rates would make
/// the interval between requests overflow a clock's duration.
inline constexpr double min_rate_limit = 0.001;

/// Parses a request rate per second: a positive number ("2", "0.5") of at least
/// min_rate_limit. Throws config_error naming `name`.
double parse_rate(std::string_view name, std::string_view text);

/// Parses a header as --header gives it, "Name: value"; see checked_header. Throws
/// config_error naming `name`.
http_header parse_header(std::string_view name, std::string_view text);

/// A header from its name and value: the name an RFC 9110 token other than those the client
/// manages itself (Host, Content-Length, Transfer-Encoding, Connection); the value without
/// control characters other than tab, surrounding whitespace trimmed. Throws config_error
/// naming `name` and the header (never echoing the value, which may be a secret).
http_header checked_header(std::string_view name, std::string_view header_name,
                           std::string_view value);

/// Checks a --user value "USER:PASSWORD": a ':' after a non-empty user, no control
/// characters. Returns it unchanged. Throws config_error naming `name`, without echoing it.
std::string parse_user(std::string_view name, std::string_view text);

/// Checks a User-Agent: not empty after trimming surrounding whitespace, no control
/// characters. Returns it trimmed. Throws config_error naming `name`.
std::string parse_user_agent(std::string_view name, std::string_view text);

/// Checks a proxy URL as --proxy, proxy = or http_proxy give it: "" (no proxy) or a URL that
/// proxy.hpp's parse_proxy accepts. Returns it unchanged. Throws config_error naming `name`.
std::string parse_proxy_url(std::string_view name, std::string_view text);

/// Checks --ca-file: `text` (relative paths taken from `base_dir`) must name a readable
/// regular file. Returns its absolute, lexically normal path. Throws config_error naming
/// `name`.
std::string parse_ca_file(std::string_view name, std::string_view text,
                          const std::filesystem::path& base_dir);

/// Parses "text" or "none". Throws config_error naming `name`.
report_mode parse_report_mode(std::string_view name, std::string_view text);

/// Parses "quiet", "info", "debug" or "trace". Throws config_error naming `name`.
enum verbosity parse_verbosity(std::string_view name, std::string_view text);

/// Checks crawl options as a whole: at least one root, every root classifies, every exclude
/// pattern compiles, counts, sizes, rates and times in range, every resolve entry has an
/// address, headers, user, user agent and proxies well-formed and ca_file readable (as the
/// parsers above require), host_headers' hosts lower-case. Throws config_error.
void validate(const crawl_options& options);

/// validate(s.crawl), and the output settings. Throws config_error.
void validate(const settings& s);

}  // namespace corocrawl
