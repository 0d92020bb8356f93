#pragma once
// Proxy URLs as --proxy, the proxy key and the http_proxy variables give them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace corocrawl {

/// Where to connect to reach a proxy, and how to authenticate to it.
struct proxy_endpoint {
  std::string host;  ///< lower-case; IPv6 literals without brackets
  std::uint16_t port = 0;
  std::optional<std::string> authorization;  ///< Proxy-Authorization value, e.g. "Basic ..."
  friend bool operator==(const proxy_endpoint&, const proxy_endpoint&) = default;
};

/// Parses a proxy URL as curl and the http_proxy variables accept it: "http://host:port",
/// "host:port" (http assumed), "http://user:pass@host:port" (percent-escapes in the user
/// and password decoded, sent as Basic authorization); the default port is 1080 as in curl;
/// a path of "/" is allowed, anything else after the authority is not. Throws config_error
/// naming `name` (the option or variable) for anything else, including https://, socks
/// proxies and an empty host.
proxy_endpoint parse_proxy(std::string_view name, std::string_view url);

}  // namespace corocrawl
