// The value parsers the command line and corocrawl.toml share: each checks one option's value
// and throws config_error naming the option, so both sources word their errors alike.

#include "corocrawl/config.hpp"

#include <algorithm>
#include <array>
#include <boost/url/ipv4_address.hpp>
#include <boost/url/ipv6_address.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "config/config_detail.hpp"
#include "config/value_parsers.hpp"
#include "text/ascii.hpp"
#include "url/idna.hpp"
#include "url/proxy_url.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

using namespace detail;  // the helpers config_detail.hpp shares

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), ascii::is_digit);
}

bool has_control(std::string_view text, bool tab_allowed = false) {
  return std::any_of(text.begin(), text.end(),
                     [&](char c) { return ascii::is_control(c) && !(tab_allowed && c == '\t'); });
}

/// RFC 9110 tchar.
constexpr bool is_token_char(char c) {
  return ascii::is_alpha(c) || ascii::is_digit(c) ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

/// A decimal number in text, as from_chars reads it but without a sign, whitespace, "inf" or
/// "nan" (from_chars takes "-1", "inf" and "nan"); nullopt for anything else.
std::optional<double> decimal_number(std::string_view text) {
  if (text.empty() || !(ascii::is_digit(text[0]) || text[0] == '.')) return std::nullopt;
  double value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

/// A decimal count from `min` to `max` in text; the messages of parse_count.
template <typename Count>
Count parse_decimal(std::string_view name, std::string_view text, Count min, Count max) {
  const auto expected = [&] {
    fail(name_of(name) + "expected " + count_requirement(static_cast<std::int64_t>(min)) +
         ", got " + quoted(text));
  };
  // Digits only: from_chars alone would accept "-3" and the digit check also rejects "+8",
  // " 8" and "8x" (from_chars stops at the first non-digit; `ptr != end` catches that too).
  if (!all_digits(text)) expected();
  Count value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range || (ec == std::errc{} && ptr == end && value > max)) {
    fail(name_of(name) + quoted(text) + " is too large (at most " + std::to_string(max) + ")");
  }
  if (ec != std::errc{} || ptr != end || value < min) expected();
  return value;
}

/// Headers the HTTP client writes itself; one given by the user would break the framing of
/// the message or the connection handling.
constexpr std::array managed_headers{"Host", "Content-Length", "Transfer-Encoding", "Connection"};
}  // namespace

int parse_count(std::string_view name, std::string_view text, count_range range) {
  return parse_decimal<int>(name, text, range.min, range.max);
}

int parse_count(std::string_view name, std::string_view text, int min) {
  return parse_count(name, text, count_range{.min = min});
}

std::uint64_t parse_large_count(std::string_view name, std::string_view text, std::uint64_t min) {
  return parse_decimal<std::uint64_t>(name, text, min, std::numeric_limits<std::uint64_t>::max());
}

resolve_override parse_resolve(std::string_view name, std::string_view text) {
  const auto malformed = [&] {
    fail(name_of(name) + "expected HOST:PORT:ADDR[,ADDR...], got " + quoted(text));
  };
  const auto first = text.find(':');
  if (first == std::string_view::npos) malformed();
  const auto second = text.find(':', first + 1);
  if (second == std::string_view::npos) malformed();
  std::string_view host = text.substr(0, first);
  const std::string_view port = text.substr(first + 1, second - first - 1);
  std::optional<std::string> ascii_host;  // an internationalised name, as links give it
  if (needs_idna(host)) {
    ascii_host = host_to_ascii(host);
    if (!ascii_host) {
      fail(name_of(name) + "bad host name " + quoted(host) + " in " + quoted(text) +
           ": not a valid internationalised domain name");
    }
    host = *ascii_host;
  }
  std::string_view addresses = text.substr(second + 1);
  if (host.empty() || port.empty() || addresses.empty()) malformed();

  if (!valid_host_name(host)) {
    fail(name_of(name) + "bad host name " + quoted(host) + " in " + quoted(text));
  }
  int port_number = 0;
  const auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), port_number);
  if (!all_digits(port) || ec != std::errc{} || ptr != port.data() + port.size() ||
      port_number < 1 || port_number > 65535) {
    fail(name_of(name) + "port must be 1..65535, got " + quoted(port) + " in " + quoted(text));
  }

  resolve_override result{ascii::to_lower(host), static_cast<std::uint16_t>(port_number), {}};
  // Each ADDR: IPv4, or IPv6 in brackets as in a URL (the brackets may also be left out: the
  // first two colons already ended HOST and PORT, and IPv6 has no commas).
  while (true) {
    const auto comma = addresses.find(',');
    const std::string_view given = addresses.substr(0, comma);
    std::string_view address = given;
    bool valid = false;
    if (address.starts_with('[')) {
      if (address.size() > 2 && address.ends_with(']')) {
        address = address.substr(1, address.size() - 2);
        valid = bool(boost::urls::parse_ipv6_address(address));
      }
    } else if (address.find(':') != std::string_view::npos) {
      valid = bool(boost::urls::parse_ipv6_address(address));
    } else {
      valid = bool(boost::urls::parse_ipv4_address(address));
    }
    if (!valid) {
      fail(name_of(name) + "ADDR must be an IPv4 or [IPv6] address, got " + quoted(given) + " in " +
           quoted(text));
    }
    result.addresses.emplace_back(address);
    if (comma == std::string_view::npos) break;
    addresses.remove_prefix(comma + 1);
  }
  return result;
}

std::chrono::milliseconds parse_seconds(std::string_view name, std::string_view text,
                                        seconds_range range) {
  // decimal_number rejects a sign and whitespace; seconds_to_ms the range.
  const std::optional<double> seconds = decimal_number(text);
  if (!seconds) {
    fail(name_of(name) + "expected a " + (range.allow_zero ? "non-negative" : "positive") +
         " number of seconds, got " + quoted(text));
  }
  return seconds_to_ms(name, *seconds, quoted(text), range);
}

std::string shown_duration(double seconds) {
  constexpr std::pair<char, double> units[] = {{'d', 86400}, {'h', 3600}, {'m', 60}};
  for (const auto& [unit, size] : units) {
    if (seconds >= size && std::fmod(seconds, size) == 0)
      return shown_number(seconds / size) + unit;
  }
  return shown_number(seconds) + 's';
}

std::chrono::milliseconds parse_duration(std::string_view name, std::string_view text,
                                         seconds_range range) {
  const auto unit_at = text.find_first_of("smhd");
  const std::string_view unit = unit_at == std::string_view::npos ? "" : text.substr(unit_at);
  double unit_seconds = 0;  // 0: not a unit
  if (unit.empty() || unit == "s") {
    unit_seconds = 1;
  } else if (unit == "m") {
    unit_seconds = 60;
  } else if (unit == "h") {
    unit_seconds = 60 * 60;
  } else if (unit == "d") {
    unit_seconds = 24 * 60 * 60;
  }
  // decimal_number rejects a sign, whitespace, "inf" and "nan".
  const std::optional<double> number = decimal_number(text.substr(0, unit_at));
  if (!number || unit_seconds == 0) {
    fail(name_of(name) + "expected a duration such as 90s, 30m, 12h or 1d, got " + quoted(text));
  }
  const double seconds = *number * unit_seconds;
  if (seconds == 0 && !range.allow_zero) {
    fail(name_of(name) + "expected a positive duration, got " + quoted(text));
  }
  // The bound also keeps the conversion to milliseconds far from overflow.
  if (seconds > range.max_seconds) {
    fail(name_of(name) + "at most " + shown_duration(range.max_seconds) + ", got " + quoted(text));
  }
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(seconds * 1000.0)));
}

std::uint64_t parse_byte_size(std::string_view name, std::string_view text, std::uint64_t max) {
  const auto not_a_size = [&] {
    fail(name_of(name) + "expected a size in bytes >= 1 such as 1048576 or 10MiB " +
         "(units K, M, G, KiB, MiB, GiB: powers of 1024), got " + quoted(text));
  };
  const auto digits = static_cast<std::size_t>(
      std::find_if_not(text.begin(), text.end(), ascii::is_digit) - text.begin());
  if (digits == 0) not_a_size();
  const std::string_view unit = text.substr(digits);
  int shift = 0;
  if (unit.empty()) {
    shift = 0;
  } else if (unit == "K" || unit == "KiB") {
    shift = 10;
  } else if (unit == "M" || unit == "MiB") {
    shift = 20;
  } else if (unit == "G" || unit == "GiB") {
    shift = 30;
  } else {
    not_a_size();
  }
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + digits, value);
  const bool too_large =
      ec == std::errc::result_out_of_range ||
      (ec == std::errc{} && value > (std::numeric_limits<std::uint64_t>::max() >> shift));
  const auto at_most = [&] {
    return max == std::numeric_limits<std::uint64_t>::max() ? std::string{}
                                                            : " (at most " + shown_size(max) + ")";
  };
  if (too_large) fail(name_of(name) + quoted(text) + " is too large" + at_most());
  if (ec != std::errc{} || ptr != text.data() + digits || value == 0) not_a_size();
  if ((value << shift) > max) fail(name_of(name) + quoted(text) + " is too large" + at_most());
  return value << shift;
}

double parse_rate(std::string_view name, std::string_view text) {
  const std::optional<double> rate = decimal_number(text);
  if (!rate) {
    fail(name_of(name) + "expected a positive number of requests per second, got " + quoted(text));
  }
  return checked_rate(name, *rate, quoted(text));
}

http_header parse_header(std::string_view name, std::string_view text) {
  const auto colon = text.find(':');
  // The text is not echoed: it may be a credential with a typo in it.
  if (colon == std::string_view::npos) {
    fail(name_of(name) + "expected \"Name: value\", but there is no ':' in it");
  }
  return checked_header(name, text.substr(0, colon), text.substr(colon + 1));
}

http_header checked_header(std::string_view name, std::string_view header_name,
                           std::string_view value) {
  if (header_name.empty()) fail(name_of(name) + "the header name is empty");
  if (!std::all_of(header_name.begin(), header_name.end(), is_token_char)) {
    fail(name_of(name) + quoted(header_name) +
         " is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)");
  }
  for (const char* managed : managed_headers) {
    if (ascii::iequals(header_name, managed)) {
      fail(name_of(name) + "header " + quoted(header_name) +
           " is set by corocrawl itself and cannot be given");
    }
  }
  // CR and LF would start a new header (request smuggling); NUL and other controls are
  // invalid in a field value. Tab is legal whitespace.
  if (has_control(value, /*tab_allowed=*/true)) {
    fail(name_of(name) + "the value of header " + quoted(header_name) +
         " contains a control character");
  }
  const std::string_view kept = ascii::trim(value);
  check_header_line(name, "the " + quoted(header_name) + " header line",
                    header_line_size(header_name, kept.size()));
  return http_header{std::string(header_name), std::string(kept)};
}

std::string parse_user(std::string_view name, std::string_view text) {
  // Never echoed: it holds a password.
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    fail(name_of(name) + "expected USER:PASSWORD, but there is no ':' in it");
  }
  if (colon == 0) fail(name_of(name) + "expected USER:PASSWORD, but USER is empty");
  if (has_control(text)) fail(name_of(name) + "contains a control character");
  check_header_line(name, "the Authorization header line it becomes",
                    header_line_size("Authorization", basic_credentials_size(text.size())));
  return std::string(text);
}

std::string parse_user_agent(std::string_view name, std::string_view text) {
  const std::string_view agent = ascii::trim(text);
  if (agent.empty()) fail(name_of(name) + "expected a non-empty string, got " + quoted(text));
  if (has_control(agent)) fail(name_of(name) + "contains a control character");
  check_header_line(name, "the User-Agent header line",
                    header_line_size("User-Agent", agent.size()));
  return std::string(agent);
}

std::string parse_proxy_url(std::string_view name, std::string_view text) {
  if (text.empty()) return {};
  const proxy_endpoint proxy = parse_proxy(name, text);
  if (proxy.authorization) {
    check_header_line(name, "the Proxy-Authorization header line its credentials become",
                      header_line_size("Proxy-Authorization", proxy.authorization->size()));
  }
  return std::string(text);
}

std::string parse_ca_file(std::string_view name, std::string_view text,
                          const std::filesystem::path& base_dir) {
  if (text.empty()) fail(name_of(name) + "expected a file name, got \"\"");
  const fs::path file = fs::absolute(base_dir / fs::path(text)).lexically_normal();
  std::error_code ec;
  const auto status = fs::status(file, ec);
  if (status.type() == fs::file_type::not_found) {
    fail(name_of(name) + "no such file " + quoted(text));
  }
  if (fs::is_directory(status)) fail(name_of(name) + quoted(text) + " is a directory, not a file");
  if (!fs::is_regular_file(status)) {
    fail(name_of(name) + "cannot use " + quoted(text) +
         (ec ? ": " + ec.message() : std::string(": not a regular file")));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(name_of(name) + "cannot read " + quoted(text));
  return file.string();
}

int parse_choice(std::string_view name, std::string_view text,
                 std::span<const std::string_view> choices) {
  const auto found = std::find(choices.begin(), choices.end(), text);
  if (found != choices.end()) return static_cast<int>(found - choices.begin());
  std::string expected;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) expected += i + 1 == choices.size() ? " or " : ", ";
    expected += quoted(choices[i]);
  }
  fail(name_of(name) + "expected " + expected + ", got " + quoted(text));
}

}  // namespace corocrawl
