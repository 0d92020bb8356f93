// Hosts and ports as URLs, proxies and Host headers write them: one reading of a port, what
// a host name may hold, and the brackets around an IPv6 literal taken off and put back.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "text/ascii.hpp"

namespace corocrawl {

/// A port written in decimal: one or more ASCII digits (leading zeros allowed, as browsers
/// and curl read them) with a value up to 65535; nullopt for anything else, the empty text
/// included. 0 is returned as 0: each caller says whether it is a port it accepts. Boost.URL
/// 1.81 gives no such reading: its port_number() wraps past 65535, and its unsigned_rule
/// refuses leading zeros.
inline std::optional<std::uint16_t> parse_port(std::string_view digits) {
  std::uint16_t value = 0;
  const char* const end = digits.data() + digits.size();
  const auto [stop, ec] = std::from_chars(digits.data(), end, value);
  if (ec != std::errc{} || stop != end) return std::nullopt;
  return value;
}

/// Letters, digits, '-', '_' and '.', at least one: a name a resolver can look up. Anything
/// else (a space or '/' smuggled in with percent-escapes) is a typo, not a host.
constexpr bool is_host_name(std::string_view host) {
  if (host.empty()) return false;
  for (const char c : host) {
    if (!ascii::is_alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

/// `host` without the brackets around it ("[::1]" is "::1"); any other host unchanged.
constexpr std::string_view without_brackets(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    return host.substr(1, host.size() - 2);
  return host;
}

/// `host` as a URL's authority or a Host header writes it: an IPv6 literal (the only hosts
/// with a ':' but IPvFuture ones, which keep their brackets: "[v1.:]") in brackets, any other
/// host unchanged.
inline std::string bracketed(std::string_view host) {
  if (host.find(':') == std::string_view::npos || host.starts_with('[')) return std::string(host);
  std::string out;
  out.reserve(host.size() + 2);
  out += '[';
  out += host;
  out += ']';
  return out;
}

/// "host:port" with an IPv6 host in brackets ("[::1]:8080"): a CONNECT target, and the
/// authority part of origins and Host headers.
inline std::string host_and_port(std::string_view host, std::uint16_t port) {
  return bracketed(host) + ':' + std::to_string(port);
}

}  // namespace corocrawl
