// Proxy URLs: the forms curl and the http_proxy variables accept.

#include "url/proxy_url.hpp"

#include <boost/url/ipv4_address.hpp>
#include <boost/url/ipv6_address.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <cstddef>
#include <optional>
#include <string>

#include "corocrawl/errors.hpp"
#include "text/ascii.hpp"
#include "text/base64.hpp"
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

}  // namespace corocrawl
