#include "url/http_url.hpp"

#include "url/host.hpp"

namespace corocrawl {

std::optional<http_url> http_url::of(std::string_view normalized) {
  http_url u;
  u.text_ = normalized;
  std::size_t at = 0;
  if (normalized.starts_with("https://")) {
    u.https_ = true;
    at = 8;
  } else if (normalized.starts_with("http://")) {
    at = 7;
  } else {
    return std::nullopt;
  }
  u.target_at_ = normalized.find_first_of("/?#", at);
  if (u.target_at_ == std::string_view::npos || normalized[u.target_at_] != '/')
    return std::nullopt;  // not in normal form: the path "/" is always written
  std::string_view authority = normalized.substr(at, u.target_at_ - at);
  if (const auto userinfo_end = authority.find('@'); userinfo_end != std::string_view::npos) {
    at += userinfo_end + 1;
    authority.remove_prefix(userinfo_end + 1);
  }
  u.host_and_port_at_ = at;

  // A port follows the last ':' after the host; an IP literal's ':'s are inside brackets.
  std::string_view host = authority;
  std::string_view port;
  const auto bracket = authority.rfind(']');
  const auto colon = authority.rfind(':');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  // An IPv6 literal loses its brackets; IPvFuture ("[v1.x]") keeps them, as in Boost.URL.
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']' && host[1] != 'v' &&
      host[1] != 'V')
    host = without_brackets(host);
  if (host.empty()) return std::nullopt;
  u.host_ = host;
  u.port_ = u.https_ ? 443 : 80;
  if (!port.empty()) {
    const auto number = parse_port(port);
    if (!number || *number == 0) return std::nullopt;
    u.port_ = *number;
  }
  return u;
}

std::string_view http_url::origin(std::string& scratch) const {
  const std::size_t scheme_end = https_ ? 8 : 7;
  if (host_and_port_at_ == scheme_end) return text_.substr(0, target_at_);
  scratch.assign(text_.substr(0, scheme_end));
  scratch += text_.substr(host_and_port_at_, target_at_ - host_and_port_at_);
  return scratch;
}

}  // namespace corocrawl
