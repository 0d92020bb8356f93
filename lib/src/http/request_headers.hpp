#pragma once
// Which extra headers a request carries. The crawl's own headers and credentials are scoped by
// origin (scheme, host and port), as curl does since 7.83 (CVE-2022-27774, CVE-2022-27776):
// they go only to the roots' origins, never to another port or scheme of the same host, not
// even after a redirect, and so credentials given for https never travel over plain http.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "corocrawl/options.hpp"
#include "text/base64.hpp"
#include "url/url.hpp"

namespace corocrawl {

struct url_root;  // url/root.hpp, not included: its `root` would shadow names here

/// The origin of a root, and the credentials a root URL's userinfo names for it.
struct root_origin {
  bool https = false;
  std::string host;  ///< as http_target::host: lower-case, IPv6 literals without brackets
  std::uint16_t port = 0;
  std::optional<std::string> user;  ///< "USER:PASSWORD" from a root URL's userinfo
};

/// The distinct origins of `roots` (normalised http(s) URLs), in order of first appearance,
/// each with the credentials of its roots' userinfo. Throws config_error when two roots of
/// one origin name different credentials; the message names the origin, never credentials.
std::vector<root_origin> origins_of(const std::vector<url_root>& roots);

/// The extra headers for a request to `target`:
///  - to one of `roots`' origins: "Authorization: Basic ..." from that origin's userinfo
///    credentials, or else from `options.user`; then `options.headers`;
///  - to `target.host` on any port (the table names a host): `options.host_headers` of
///    exactly that host, over https always, and over plain http only when the crawl goes
///    over plain http itself: some root is an http URL and, when `target.host` is the host
///    of a root, one of that host's roots is an http URL.
/// A header named again later replaces the earlier one (case-insensitive names) at the
/// earlier one's position: an "Authorization" among the headers replaces the credentials'.
std::vector<http_header> headers_for_target(const crawl_options& options,
                                            std::span<const root_origin> roots,
                                            const http_target& target);

}  // namespace corocrawl
