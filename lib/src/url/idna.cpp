#include "url/idna.hpp"

#include <idn2.h>

#include <boost/url/pct_string_view.hpp>
#include <cstdlib>
#include <memory>

#include "text/ascii.hpp"

namespace corocrawl {

bool needs_idna(std::string_view host) {
  for (const char c : host) {
    if (static_cast<unsigned char>(c) >= 0x80 || c == '%') return true;
  }
  return false;
}

std::optional<std::string> host_to_ascii(std::string_view host) {
  std::string decoded(host);
  if (host.find('%') != std::string_view::npos) {
    const auto escaped = boost::urls::make_pct_string_view(host);
    if (!escaped) return std::nullopt;
    decoded = escaped->decode();
  }
  if (decoded.empty() || decoded.find('\0') != std::string::npos) return std::nullopt;
  char* output = nullptr;
  const int rc = idn2_to_ascii_8z(decoded.c_str(), &output, IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
  const std::unique_ptr<char, decltype(&std::free)> owned(output, &std::free);
  if (rc != IDN2_OK || output == nullptr) return std::nullopt;
  return ascii::to_lower(std::string_view(output));
}

bool make_host_ascii(std::string& url) {
  const std::size_t slashes = url.find("//");
  if (slashes == std::string::npos || url.find_first_of("/?#") < slashes) return true;
  const std::size_t authority = slashes + 2;
  const std::size_t end = std::min(url.find_first_of("/?#\\", authority), url.size());
  std::size_t host_begin = authority;
  if (const std::size_t at = std::string_view(url).substr(authority, end - authority).rfind('@');
      at != std::string_view::npos)
    host_begin = authority + at + 1;
  if (host_begin < end && url[host_begin] == '[') return true;  // an IP literal
  std::size_t host_end = url.find(':', host_begin);
  if (host_end == std::string::npos || host_end > end) host_end = end;
  const std::string_view host = std::string_view(url).substr(host_begin, host_end - host_begin);
  if (!needs_idna(host)) return true;
  const auto converted = host_to_ascii(host);
  if (!converted) return false;
  url.replace(host_begin, host_end - host_begin, *converted);
  return true;
}

std::optional<std::string> with_ascii_host(std::string_view url) {
  std::string copy(url);
  if (!make_host_ascii(copy)) return std::nullopt;
  return copy;
}

}  // namespace corocrawl
