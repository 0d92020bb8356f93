#pragma once
// Settings of a corocrawl run: crawl options plus output choices, from TOML and validation.

#include <chrono>
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
/// (local roots, json) are taken from the file's directory. Throws config_error, one line
/// naming the file, the key (and line when known) and the problem, for a missing or
/// unreadable file, a TOML syntax error, an unknown key or a value of the wrong type or range.
void apply_config_file(const std::filesystem::path& file, settings& into);

/// Parses a count such as "--max-tasks 8": a decimal integer >= `min`. Throws config_error
/// naming `name` otherwise.
int parse_count(std::string_view name, std::string_view text, int min);

/// Parses HOST:PORT:ADDR (ADDR may be a bracketed IPv6 literal). Throws config_error naming
/// `name` and the text when malformed.
resolve_override parse_resolve(std::string_view name, std::string_view text);

/// Parses a positive number of seconds ("30", "0.5"). Throws config_error naming `name`.
std::chrono::milliseconds parse_seconds(std::string_view name, std::string_view text);

/// Parses "text" or "none". Throws config_error naming `name`.
report_mode parse_report_mode(std::string_view name, std::string_view text);

/// Parses "quiet", "info", "debug" or "trace". Throws config_error naming `name`.
enum verbosity parse_verbosity(std::string_view name, std::string_view text);

/// Checks crawl options as a whole: at least one root, every root classifies, every exclude
/// pattern compiles, counts and the timeout in range. Throws config_error.
void validate(const crawl_options& options);

/// validate(s.crawl), and the output settings. Throws config_error.
void validate(const settings& s);

}  // namespace corocrawl
