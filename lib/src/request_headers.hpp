#pragma once
// Which extra headers a request carries: custom headers and credentials go only to the hosts
// they are for, never to another host, not even after a redirect (curl's rule).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "corocrawl/options.hpp"

namespace corocrawl {

/// The extra headers for a request to `host` (lower-case): `options.headers` and, from
/// `options.user`, an "Authorization: Basic ..." header when `host` is one of `root_hosts`
/// (lower-case, exact match: "www." variants and subdomains are other hosts); then the
/// headers `options.host_headers` lists for exactly `host`. A header named again later
/// replaces the earlier one (case-insensitive names) at the earlier one's position; an
/// "Authorization" in `options.headers` replaces the one from `options.user`, as in curl.
std::vector<http_header> headers_for_host(const crawl_options& options,
                                          std::span<const std::string> root_hosts,
                                          std::string_view host);

/// "Basic " followed by the base64 of `user_colon_password` (RFC 7617).
std::string basic_authorization(std::string_view user_colon_password);

/// Base64 (RFC 4648, with padding).
std::string base64(std::string_view bytes);

}  // namespace corocrawl
