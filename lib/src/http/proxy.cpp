// HTTP proxies: the no_proxy rules (loopback always direct, then names, IP literals and IPv4
// CIDR blocks). Proxy URLs are parsed in url/proxy_url.cpp.

#include "http/proxy.hpp"

#include <boost/url/ipv4_address.hpp>
#include <boost/url/ipv6_address.hpp>
#include <cstddef>
#include <optional>
#include <string>

#include "text/ascii.hpp"
#include "url/host.hpp"
#include "url/url.hpp"

namespace corocrawl {
namespace {

namespace urls = boost::urls;

std::string_view strip_trailing_dots(std::string_view s) {
  while (!s.empty() && s.back() == '.')
    s.remove_suffix(1);
  return s;
}

bool ends_with_label(std::string_view host, std::string_view suffix) {
  return host.size() > suffix.size() && host.ends_with(suffix) &&
         host[host.size() - suffix.size() - 1] == '.';
}

// A host or no_proxy entry as compared: an IP literal by its bytes, a name lower-case
// without trailing dots.
struct host_key {
  std::optional<urls::ipv4_address> ipv4;
  std::optional<urls::ipv6_address> ipv6;
  std::string name;  // empty for IP literals, so a name entry never covers one
};

host_key make_host_key(std::string_view host) {
  host = without_brackets(host);
  host_key key;
  if (auto v4 = urls::parse_ipv4_address(host)) {
    key.ipv4 = *v4;
  } else if (auto v6 = urls::parse_ipv6_address(host)) {
    key.ipv6 = *v6;
  } else {
    key.name = ascii::to_lower(strip_trailing_dots(host));
  }
  return key;
}

bool is_loopback(const host_key& host) {
  if (host.ipv4) return (host.ipv4->to_uint() >> 24) == 127;
  if (host.ipv6) {
    if (host.ipv6->is_loopback()) return true;
    // ::ffff:127.x.y.z is IPv4 loopback too.
    const auto bytes = host.ipv6->to_bytes();
    return host.ipv6->is_v4_mapped() && bytes[12] == 127;
  }
  return host.name == "localhost" || ends_with_label(host.name, "localhost");
}

// "a.b.c.d/n" (n 0..32) contains `address`. A malformed block matches nothing: no_proxy is
// often shared with other tools that accept forms this one does not.
bool cidr_contains(std::string_view block, const urls::ipv4_address& address) {
  const std::size_t slash = block.find('/');
  const auto network = urls::parse_ipv4_address(block.substr(0, slash));
  const std::string_view prefix_text = block.substr(slash + 1);
  if (!network || prefix_text.empty() || prefix_text.size() > 2) return false;
  unsigned prefix = 0;
  for (const char c : prefix_text) {
    if (!ascii::is_digit(c)) return false;
    prefix = prefix * 10 + static_cast<unsigned>(c - '0');
  }
  if (prefix > 32) return false;
  if (prefix == 0) return true;
  const std::uint32_t mask = ~std::uint32_t{0} << (32 - prefix);
  return (network->to_uint() & mask) == (address.to_uint() & mask);
}

bool entry_matches(std::string_view entry, const host_key& host) {
  if (entry == "*") return true;
  if (entry.find('/') != std::string_view::npos) {
    return host.ipv4 && cidr_contains(entry, *host.ipv4);
  }
  // Bracketed IPv6, maybe with a port: "[::1]:8080".
  if (entry.front() == '[') {
    const std::size_t close = entry.find(']');
    if (close == std::string_view::npos) return false;
    const auto v6 = urls::parse_ipv6_address(entry.substr(1, close - 1));
    return v6 && host.ipv6 && *v6 == *host.ipv6;
  }
  // A bare IPv6 literal has colons of its own, so it is tried before dropping a ":port".
  if (const auto v6 = urls::parse_ipv6_address(entry)) return host.ipv6 && *v6 == *host.ipv6;
  entry = entry.substr(0, entry.find(':'));
  if (const auto v4 = urls::parse_ipv4_address(entry)) return host.ipv4 && *v4 == *host.ipv4;
  // ".example.com" and "*.example.com" mean the same as "example.com" here.
  if (entry.starts_with("*.")) {
    entry.remove_prefix(2);
  } else if (entry.starts_with('.')) {
    entry.remove_prefix(1);
  }
  const std::string name = ascii::to_lower(strip_trailing_dots(entry));
  if (name.empty()) return false;
  return host.name == name || ends_with_label(host.name, name);
}

}  // namespace

bool bypasses_proxy(std::string_view host, std::string_view no_proxy) {
  const host_key key = make_host_key(host);
  if (is_loopback(key)) return true;
  while (!no_proxy.empty()) {
    const std::size_t comma = no_proxy.find(',');
    // curl trims each entry with isspace, vertical tab included.
    const std::string_view entry = ascii::trim_if(no_proxy.substr(0, comma), ascii::is_c_space);
    if (!entry.empty() && entry_matches(entry, key)) return true;
    if (comma == std::string_view::npos) break;
    no_proxy.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace corocrawl
