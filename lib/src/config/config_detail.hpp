// Helpers shared by the value parsers (config.cpp), the corocrawl.toml reader (toml_values.cpp)
// and make_plan (plan.cpp): all three must word their errors alike and apply the same
// range checks, whether a value came from the command line, the file or the settings object.
// Internal: not part of the library's interface.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "config/value_parsers.hpp"
#include "corocrawl/config.hpp"
#include "corocrawl/errors.hpp"
#include "text/ascii.hpp"

namespace corocrawl::detail {

[[noreturn]] inline void fail(std::string message) {
  throw config_error(std::move(message));
}

inline std::string quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

inline std::string name_of(std::string_view name) {
  return std::string(name) + ": ";
}

/// "a positive integer" for min 1, "a non-negative integer" for min 0.
inline std::string count_requirement(std::int64_t min) {
  if (min == 1) return "a positive integer";
  if (min == 0) return "a non-negative integer";
  return "an integer >= " + std::to_string(min);
}

/// A count from corocrawl.toml or the settings within `range`, worded as parse_count words it
/// for text.
inline void check_count(std::string_view name, std::int64_t value, count_range range) {
  if (value < range.min) {
    fail(name_of(name) + "expected " + count_requirement(range.min) + ", got " +
         std::to_string(value));
  }
  if (value > range.max) {
    fail(name_of(name) + std::to_string(value) + " is too large (at most " +
         std::to_string(range.max) + ")");
  }
}

/// The size of a byte count as a message shows a bound: "1GiB" for whole GiB, else bytes.
inline std::string shown_size(std::uint64_t bytes) {
  constexpr std::uint64_t gib = std::uint64_t{1} << 30;
  if (bytes % gib == 0) return std::to_string(bytes / gib) + "GiB";
  return std::to_string(bytes);
}

/// A byte size from corocrawl.toml or the settings: 1 to `max` bytes.
inline void check_byte_size(std::string_view name, std::uint64_t bytes, std::uint64_t max) {
  if (bytes < 1) fail(name_of(name) + "expected a size in bytes >= 1, got 0");
  if (bytes > max) {
    fail(name_of(name) + std::to_string(bytes) + " is too large (at most " + shown_size(max) + ")");
  }
}

/// Bytes of the header line "Name: value" (without CRLF).
inline std::size_t header_line_size(std::string_view name, std::size_t value_size) {
  return name.size() + 2 + value_size;
}

/// Bytes of the Basic credentials value ("Basic " and base64) that "user:password" becomes.
inline std::size_t basic_credentials_size(std::size_t user_colon_password_size) {
  return 6 + (user_colon_password_size + 2) / 3 * 4;
}

/// Fails when a header line of `size` bytes is longer than servers accept. `what` says which
/// header line, such as "the User-Agent header line"; the value is never echoed.
inline void check_header_line(std::string_view name, std::string_view what, std::size_t size) {
  if (size > max_header_line) {
    fail(name_of(name) + std::string(what) + " would be " + std::to_string(size) +
         " bytes, more than the " + std::to_string(max_header_line) + " servers accept");
  }
}

/// Letters, digits, '-', '.' and '_': a host name as --resolve and [hosts."NAME"] take it.
inline bool valid_host_name(std::string_view host) {
  return !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
    return ascii::is_alpha(c) || ascii::is_digit(c) || c == '-' || c == '.' || c == '_';
  });
}

/// A number as TOML gave it, for messages: "0", "1.5", "nan".
inline std::string shown_number(double value) {
  std::ostringstream shown;
  shown << value;
  return shown.str();
}

/// Seconds to milliseconds, rounded up so that any positive value stays positive.
inline std::chrono::milliseconds seconds_to_ms(std::string_view name, double seconds,
                                               std::string_view shown, seconds_range range) {
  if (!std::isfinite(seconds) || seconds < 0 || (seconds == 0 && !range.allow_zero)) {
    fail(name_of(name) + "expected a " + (range.allow_zero ? "non-negative" : "positive") +
         " number of seconds, got " + std::string(shown));
  }
  // The bound also keeps the conversion to milliseconds (and later timer arithmetic) far
  // from overflow.
  if (seconds > range.max_seconds) {
    fail(name_of(name) + "at most " + std::to_string(static_cast<std::int64_t>(range.max_seconds)) +
         " seconds, got " + std::string(shown));
  }
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(seconds * 1000.0)));
}

/// A rate in requests per second, from text or TOML.
inline double checked_rate(std::string_view name, double rate, std::string_view shown) {
  if (!std::isfinite(rate) || rate <= 0) {
    fail(name_of(name) + "expected a positive number of requests per second, got " +
         std::string(shown));
  }
  if (rate < min_rate_limit) {
    fail(name_of(name) + "at least " + shown_number(min_rate_limit) + " requests per second, got " +
         std::string(shown));
  }
  return rate;
}

}  // namespace corocrawl::detail
