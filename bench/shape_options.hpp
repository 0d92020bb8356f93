#pragma once
// What gen_site and page_server share on their command lines: the site's shape, read as
// plain decimal numbers, and their exit statuses.

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "synthetic_site.hpp"

namespace corocrawl::bench {

inline constexpr int exit_failure = 1;
inline constexpr int exit_usage = 2;

// CLI11 would read "-3" as 2^64 - 3, "010" as octal and too many digits as 2^64 - 1: numbers
// here are plain decimals that fit.
inline const CLI::Validator decimal_number(
    [](const std::string& text) {
      const bool digits_only =
          !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
      if (digits_only && text.size() <= 19 && (text.size() == 1 || text.front() != '0'))
        return std::string();
      return "must be a decimal number (no sign, no leading zeros, at most 19 digits), not \"" +
             text + "\"";
    },
    "");

/// Adds --pages (required), --min-bytes and --max-bytes, read into `shape`.
inline void add_shape_options(CLI::App& app, site_shape& shape) {
  app.add_option("--pages", shape.pages, "Number of pages")->required()->check(decimal_number);
  app.add_option("--min-bytes", shape.min_bytes, "Smallest page size")
      ->check(decimal_number)
      ->capture_default_str();
  app.add_option("--max-bytes", shape.max_bytes, "Largest page size")
      ->check(decimal_number)
      ->capture_default_str();
}

/// Parses the command line and checks the shape. Returns the status to exit with when that
/// is all there is to do: after --help, or a usage error (printed as "`tool`: message").
inline std::optional<int> parse_or_exit(CLI::App& app, int argc, char** argv,
                                        const site_shape& shape, std::string_view tool) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : exit_usage;
  }
  try {
    validate(shape);
  } catch (const std::invalid_argument& e) {
    std::cerr << tool << ": " << e.what() << '\n';
    return exit_usage;
  }
  return std::nullopt;
}

}  // namespace corocrawl::bench
