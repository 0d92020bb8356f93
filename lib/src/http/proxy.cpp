// HTTP proxies: the proxy URL forms curl and the http_proxy variables accept, and the
// no_proxy rules (loopback always direct, then names, IP literals and IPv4 CIDR blocks).

#include "http/proxy.hpp"

#include <boost/url/ipv4_address.hpp>
#include <boost/url/ipv6_address.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <cstddef>
#include <optional>
#include <string>

#include "corocrawl/errors.hpp"
#include "http/request_headers.hpp"
#include "text/ascii.hpp"
#include "url/host.hpp"
#include "url/url.hpp"

namespace corocrawl {
namespace {

namespace urls = boost::urls;

constexpr std::uint16_t kDefaultProxyPort = 1080;  // curl's default for a proxy without port

// The value as echoed in an error: one line (control bytes escaped) and without the password,
// which the user may have taken from a variable and would not want in a log.
std::string printable_value(std::string_view url) {
  std::string redacted(url);
  const std::size_t scheme_end = redacted.find("://");
  const std::size_t authority_begin = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  const std::size_t authority_end = redacted.find_first_of("/?#", authority_begin);
  const std::size_t at = redacted.rfind('@', authority_end);
  if (at != std::string::npos && at >= authority_begin) {
    const std::size_t colon = redacted.find(':', authority_begin);
    if (colon < at) redacted.replace(colon + 1, at - colon - 1, "***");
  }
  return ascii::escape_controls(redacted);
}

[[noreturn]] void fail(std::string_view name, std::string_view url, std::string_view problem) {
  throw config_error(std::string(name) + ": \"" + printable_value(url) +
                     "\": " + std::string(problem));
}

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

proxy_endpoint parse_proxy(std::string_view name, std::string_view url) {
  // A scheme only when "://" follows it: "h:80/?u=http://x" is a host, a port and a path.
  const auto scheme = scheme_of(url);
  const bool has_scheme = scheme && url.substr(scheme->size() + 1).starts_with("//");
  if (has_scheme && *scheme != "http") fail(name, url, "only http:// proxies are supported");
  const std::string text = has_scheme ? std::string(url) : "http://" + std::string(url);
  const auto parsed = urls::parse_uri(text);
  if (!parsed) fail(name, url, "not a valid proxy URL");
  const urls::url_view u = *parsed;

  if (!u.encoded_path().empty() && u.encoded_path() != "/") {
    fail(name, url, "a proxy URL cannot have a path");
  }
  if (u.has_query() || u.has_fragment())
    fail(name, url, "a proxy URL cannot have a query or fragment");

  proxy_endpoint endpoint;
  if (u.encoded_host().empty()) fail(name, url, "no host");
  if (u.host_type() == urls::host_type::ipv4) {
    endpoint.host = u.host_ipv4_address().to_string();
  } else if (u.host_type() == urls::host_type::ipv6) {
    endpoint.host = u.host_ipv6_address().to_string();  // canonical: lower-case, "::" folded
  } else if (u.host_type() == urls::host_type::name) {
    endpoint.host = ascii::to_lower(u.host_name());
    if (!is_host_name(endpoint.host)) fail(name, url, "not a valid host name");
  } else {
    fail(name, url, "unsupported host");  // IPvFuture "[v1.x]"
  }

  endpoint.port = kDefaultProxyPort;
  if (u.has_port()) {
    // Boost.URL accepts any digits here and wraps larger numbers.
    const auto port = parse_port(u.port());
    if (!port || *port == 0) fail(name, url, "the port must be a number from 1 to 65535");
    endpoint.port = *port;
  }

  if (u.has_userinfo()) {
    if (u.encoded_userinfo().empty()) fail(name, url, "empty user name and password before '@'");
    const std::string user = u.user();
    // RFC 7617: the user-id cannot contain ':' (an escaped "%3A" would end it early).
    if (user.find(':') != std::string::npos) fail(name, url, "the user name contains ':'");
    endpoint.authorization = basic_authorization(user + ":" + u.password());
  }
  return endpoint;
}

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
