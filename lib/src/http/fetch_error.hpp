#pragma once
// How a fetch fails: the HTTP client's own error codes, the kind of each failure
// (fetch_failure, for the records and the "fail_<kind>" statistics), whether it is worth
// another try, and the words a record's error gives it.

#include <boost/system/error_code.hpp>
#include <string>

#include "corocrawl/failure.hpp"

namespace corocrawl {

/// Failures of a fetch that are not system or Beast errors.
enum class fetch_errc {
  body_too_large = 1,  ///< the decoded body exceeded max_body
  bad_address,         ///< a --resolve address that is not an IP literal
  tls,                 ///< the TLS handshake failed: certificate, host name, protocol
  bad_encoding,        ///< a compressed body that does not decode, or an unknown coding
  proxy_refused,       ///< the proxy answered CONNECT with an error status
  bad_status,          ///< a status outside 100-599
  unasked_upgrade,     ///< 101 Switching Protocols, which no request of ours asks for
};
const boost::system::error_category& fetch_category() noexcept;
boost::system::error_code make_error_code(fetch_errc e) noexcept;

/// The category of the fetch_failure error conditions: an error code equals the condition of
/// its failure_kind(), so `ec == fetch_failure::timeout` reads as the classification does.
const boost::system::error_category& failure_category() noexcept;
boost::system::error_condition make_error_condition(fetch_failure kind) noexcept;

/// The kind of a failure (`ec` set): system, Beast, TLS and fetch_errc codes sorted into
/// refused, reset, closed, truncated, timeout, dns, tls, protocol, proxy, body_too_large, and
/// network for everything else.
fetch_failure failure_kind(const boost::system::error_code& ec);

/// True for failures worth another try: the network misbehaved (refused, reset, closed,
/// truncated, timed out) or the resolver could not answer for now (EAI_AGAIN). HTTP statuses
/// are never failures, so never retried here.
bool is_retryable(const boost::system::error_code& ec);

/// The failure in a few words for a record: "connection reset", "bad HTTP response: ...".
std::string describe(const boost::system::error_code& ec);

/// True when the process (or the system) has no file descriptor left for a socket: local
/// back-pressure, not a failure of the URL.
bool is_out_of_descriptors(const boost::system::error_code& ec);

}  // namespace corocrawl

template <>
struct boost::system::is_error_code_enum<corocrawl::fetch_errc> : std::true_type {};
template <>
struct boost::system::is_error_condition_enum<corocrawl::fetch_failure> : std::true_type {};
