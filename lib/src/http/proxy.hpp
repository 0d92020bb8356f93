#pragma once
// HTTP proxies: which hosts bypass them (no_proxy). Proxy URLs: url/proxy_url.hpp.

#include <string_view>

#include "url/proxy_url.hpp"

namespace corocrawl {

/// True when requests to `host` (lower-case; IPv6 without brackets) go directly rather than
/// through a proxy: a loopback host (localhost, *.localhost, 127.0.0.0/8, ::1), or one that
/// `no_proxy` names. `no_proxy` is a comma-separated list of entries, whitespace allowed:
/// "*" matches every host; a name matches itself and its subdomains ("example.com" and
/// ".example.com" both match "example.com" and "a.example.com", not "badexample.com"); an IP
/// literal matches itself; IPv4 CIDR blocks ("10.0.0.0/8") match their addresses. A
/// ":port" suffix on an entry is ignored. Case-insensitive.
bool bypasses_proxy(std::string_view host, std::string_view no_proxy);

}  // namespace corocrawl
