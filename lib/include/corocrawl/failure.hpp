#pragma once
// Why a fetch got no response: the kind a record carries, a "fail_<kind>" statistic counts,
// and the retry decision reads.

#include <iosfwd>
#include <string_view>

namespace corocrawl {

/// The kind of a failed fetch (no HTTP status came). Values start at 1: inside the library
/// each is also an error condition that error codes compare equal to (see fetch_error.hpp).
enum class fetch_failure {
  refused = 1,     ///< connection refused
  reset,           ///< connection reset or aborted, broken pipe
  closed,          ///< closed before any response
  truncated,       ///< closed in the middle of a response
  timeout,         ///< a connect, write or read took too long
  dns,             ///< the host name did not resolve
  tls,             ///< the TLS handshake failed
  protocol,        ///< the response broke HTTP: bad status line, framing, encoding...
  proxy,           ///< the proxy refused the tunnel
  body_too_large,  ///< the body exceeded max_body, and no status was kept
  network,         ///< any other failure of the network
};

/// The kind's name: "refused", "reset", "closed", "truncated", "timeout", "dns", "tls",
/// "protocol", "proxy", "body_too_large" or "network"; the <kind> of "fail_<kind>".
constexpr std::string_view failure_name(fetch_failure kind) {
  switch (kind) {
    case fetch_failure::refused:
      return "refused";
    case fetch_failure::reset:
      return "reset";
    case fetch_failure::closed:
      return "closed";
    case fetch_failure::truncated:
      return "truncated";
    case fetch_failure::timeout:
      return "timeout";
    case fetch_failure::dns:
      return "dns";
    case fetch_failure::tls:
      return "tls";
    case fetch_failure::protocol:
      return "protocol";
    case fetch_failure::proxy:
      return "proxy";
    case fetch_failure::body_too_large:
      return "body_too_large";
    case fetch_failure::network:
      return "network";
  }
  return "unknown";
}

/// Writes failure_name(kind).
std::ostream& operator<<(std::ostream& out, fetch_failure kind);

}  // namespace corocrawl
