#include "url/idna.hpp"

#include <idn2.h>

#include <algorithm>
#include <boost/url/pct_string_view.hpp>
#include <cstdlib>
#include <memory>
#include <utility>

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
  // Only what a URL holds as written (RFC 3986 reg-name: letters, digits, "-._~" and
  // "!$&'()*+,;="). Anything else would be written percent-encoded and read back as another
  // host; the URL standard forbids most of it in a domain anyway ("%0A" decoded is no host).
  const std::string_view name(output);
  if (!std::ranges::all_of(name, [](char c) {
        return ascii::is_alpha(c) || ascii::is_digit(c) ||
               std::string_view("-._~!$&'()*+,;=").find(c) != std::string_view::npos;
      }))
    return std::nullopt;
  return ascii::to_lower(name);
}

namespace {

// Where the host of the authority of `url` is: [begin, end); nullopt without an authority or
// for an IP literal.
std::optional<std::pair<std::size_t, std::size_t>> host_of(std::string_view url) {
  const std::size_t slashes = url.find("//");
  if (slashes == std::string_view::npos || url.find_first_of("/?#") < slashes) return std::nullopt;
  const std::size_t authority = slashes + 2;
  const std::size_t end = std::min(url.find_first_of("/?#\\", authority), url.size());
  std::size_t begin = authority;
  if (const std::size_t at = url.substr(authority, end - authority).rfind('@');
      at != std::string_view::npos)
    begin = authority + at + 1;
  if (begin < end && url[begin] == '[') return std::nullopt;  // an IP literal
  std::size_t host_end = url.find(':', begin);
  if (host_end == std::string_view::npos || host_end > end) host_end = end;
  return std::pair{begin, host_end};
}

}  // namespace

bool host_needs_idna(std::string_view url) {
  const auto host = host_of(url);
  return host && needs_idna(url.substr(host->first, host->second - host->first));
}

bool make_host_ascii(std::string& url) {
  const auto host = host_of(url);
  if (!host) return true;
  const auto [begin, end] = *host;
  const std::string_view name = std::string_view(url).substr(begin, end - begin);
  if (!needs_idna(name)) return true;
  const auto converted = host_to_ascii(name);
  if (!converted) return false;
  url.replace(begin, end - begin, *converted);
  return true;
}

std::optional<std::string> with_ascii_host(std::string_view url) {
  std::string copy(url);
  if (!make_host_ascii(copy)) return std::nullopt;
  return copy;
}

}  // namespace corocrawl
