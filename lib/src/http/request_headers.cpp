// Which extra headers go to which origin, with the Basic credentials they may carry.

#include "http/request_headers.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "corocrawl/errors.hpp"
#include "text/ascii.hpp"
#include "url/root.hpp"

namespace corocrawl {
namespace {

// Adds `header`, or replaces the one of the same name (case-insensitive) where it stands:
// each name appears once, at the position of its first appearance, with the name and value
// of its last appearance.
void set_header(std::vector<http_header>& headers, const http_header& header) {
  const auto same_name = [&](const http_header& h) { return ascii::iequals(h.name, header.name); };
  const auto existing = std::find_if(headers.begin(), headers.end(), same_name);
  if (existing == headers.end()) {
    headers.push_back(header);
  } else {
    *existing = header;
  }
}

bool same_origin(const root_origin& origin, const http_target& target) {
  return origin.https == target.https && origin.host == target.host && origin.port == target.port;
}

// Whether a [hosts."HOST".headers] table may go to `host` over plain http: only when the
// crawl itself goes over plain http (some root is http), and never to a host whose roots are
// all https: a user who gave only https URLs for a host expects its secrets to stay in TLS.
bool plain_http_allowed(std::span<const root_origin> roots, std::string_view host) {
  bool any_http = false;
  bool host_is_a_root = false;
  for (const root_origin& origin : roots) {
    if (origin.host == host) {
      if (!origin.https) return true;
      host_is_a_root = true;
    }
    any_http = any_http || !origin.https;
  }
  return any_http && !host_is_a_root;
}

}  // namespace

std::vector<root_origin> origins_of(const std::vector<url_root>& roots) {
  std::vector<root_origin> origins;
  for (const url_root& given : roots) {
    const auto target = split_http_url(given.url);
    if (!target) continue;  // not http(s): nothing is requested from it
    const auto existing = std::find_if(origins.begin(), origins.end(), [&](const root_origin& o) {
      return same_origin(o, *target);
    });
    if (existing == origins.end()) {
      origins.push_back({target->https, target->host, target->port, given.user});
    } else if (!existing->user) {
      existing->user = given.user;
    } else if (given.user && given.user != existing->user) {
      throw config_error("roots: two roots of " + origin_key(*target) +
                         " name different credentials in their userinfo");
    }
  }
  return origins;
}

std::vector<http_header> headers_for_target(const crawl_options& options,
                                            std::span<const root_origin> roots,
                                            const http_target& target) {
  std::vector<http_header> result;
  const auto origin = std::find_if(roots.begin(), roots.end(),
                                   [&](const root_origin& o) { return same_origin(o, target); });
  if (origin != roots.end()) {
    // The credentials first, so that an explicit "Authorization" header among
    // options.headers wins over them, as curl's -H does over -u.
    if (const auto& user = origin->user ? origin->user : options.user)
      set_header(result, {"Authorization", basic_authorization(*user)});
    for (const http_header& header : options.headers)
      set_header(result, header);
  }
  if (const auto it = options.host_headers.find(target.host);
      it != options.host_headers.end() &&
      (target.https || plain_http_allowed(roots, target.host))) {
    for (const http_header& header : it->second)
      set_header(result, header);
  }
  return result;
}

}  // namespace corocrawl
