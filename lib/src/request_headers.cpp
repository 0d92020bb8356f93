// Which extra headers go to which host, and the Basic credentials they may carry.

#include "request_headers.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "ascii.hpp"

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

}  // namespace

std::vector<http_header> headers_for_host(const crawl_options& options,
                                          std::span<const std::string> root_hosts,
                                          std::string_view host) {
  std::vector<http_header> result;
  if (std::find(root_hosts.begin(), root_hosts.end(), host) != root_hosts.end()) {
    // The credentials first, so that an explicit "Authorization" header among
    // options.headers wins over options.user, as curl's -H does over -u.
    if (options.user) set_header(result, {"Authorization", basic_authorization(*options.user)});
    for (const http_header& header : options.headers)
      set_header(result, header);
  }
  if (const auto it = options.host_headers.find(std::string(host));
      it != options.host_headers.end()) {
    for (const http_header& header : it->second)
      set_header(result, header);
  }
  return result;
}

std::string basic_authorization(std::string_view user_colon_password) {
  return "Basic " + base64(user_colon_password);
}

std::string base64(std::string_view bytes) {
  constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  const auto byte_at = [&](std::size_t k) -> std::uint32_t {
    return k < bytes.size() ? static_cast<unsigned char>(bytes[k]) : 0U;
  };
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t group = byte_at(i) << 16 | byte_at(i + 1) << 8 | byte_at(i + 2);
    const std::size_t present = bytes.size() - i;  // 1, 2, or 3 and more
    out += kAlphabet[(group >> 18) & 0x3F];
    out += kAlphabet[(group >> 12) & 0x3F];
    out += present > 1 ? kAlphabet[(group >> 6) & 0x3F] : '=';
    out += present > 2 ? kAlphabet[group & 0x3F] : '=';
  }
  return out;
}

}  // namespace corocrawl
