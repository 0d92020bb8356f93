// Fuzzes URL resolution and normalisation (corocrawl/url.hpp) and checks their contracts,
// not only that they do not crash.
//
// Input: "BASE\nLINK", an absolute base URL and a link as written in a page; without a
// newline the whole input is a link on an http page. The whole input, the base and the link
// are each normalised too.

#include <boost/url/parse.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.hpp"
#include "text/ascii.hpp"
#include "url/http_url.hpp"
#include "url/url.hpp"

namespace {

using corocrawl::normalize_url;
using corocrawl::resolve_link;

constexpr std::string_view kPage = "http://example.com/dir/page.html";

constexpr corocrawl::fuzz::checker check{"url"};

std::string_view scheme_of(std::string_view url) {
  return url.substr(0, url.find(':'));
}

bool is_http(std::string_view url) {
  return scheme_of(url) == "http" || scheme_of(url) == "https";
}

// What normalize_url and resolve_link promise of every URL they give.
void check_normal(const std::string& url) {
  const auto parsed = boost::urls::parse_uri(url);
  check(parsed.has_value(), "not an absolute URL", url);
  check(!parsed->has_fragment(), "has a fragment", url);
  check(normalize_url(url) == url, "normalising again changes it", url);
  check(resolve_link(url, "") == url, "an empty link on it is not itself", url);
  check(corocrawl::ascii::to_lower(parsed->scheme()) == parsed->scheme(), "scheme not lower-case",
        url);

  if (!is_http(url)) {
    check(!corocrawl::http_url::of(url), "http_url takes apart a URL that is not http(s)", url);
    return;
  }
  check(parsed->has_authority() && !parsed->encoded_host().empty(), "http(s) without a host", url);
  check(resolve_link(kPage, url) == url, "an absolute link does not resolve to itself", url);
  const auto target = corocrawl::split_http_url(url);
  // Port 0 is a valid URL (and a broken link), but nothing a request can go to.
  if (parsed->has_port() && parsed->port_number() == 0 && !parsed->port().empty()) return;
  check(target.has_value(), "cannot split a normalised http(s) URL", url);
  // The crawl's own reading of a normalised URL (one scan, no parse) agrees.
  const auto parts = corocrawl::http_url::of(url);
  check(parts.has_value(), "http_url cannot take apart a normalised http(s) URL", url);
  check(parts->request() == *target, "http_url disagrees with split_http_url", url);
  std::string scratch;
  const auto expected_origin =
      std::string(parsed->scheme()) + "://" + std::string(parsed->encoded_host_and_port());
  check(parts->origin(scratch) == expected_origin,
        "http_url's origin is not the URL's scheme, host and port", url);
  check(target->https == (scheme_of(url) == "https"), "split: wrong scheme", url);
  check(!target->host.empty() && target->port != 0, "split: no host or port", url);
  check(target->target.starts_with('/'), "split: target not starting with '/'", url);
  check(url.ends_with(target->target), "split: target is not the URL's end", url);
  const std::string port =
      parsed->has_port() ? std::string(parsed->port()) : std::to_string(target->port);
  check(corocrawl::origin_key(*target) == std::string(parsed->scheme()) + "://" +
                                              std::string(parsed->encoded_host()) + ":" + port,
        "origin is not the URL's scheme, host and port", url);
}

void check_normalized(std::string_view input) {
  if (const auto url = normalize_url(input)) check_normal(*url);
}

void check_resolved(std::string_view base, std::string_view link) {
  const auto url = resolve_link(base, link);
  if (!url) return;
  check_normal(*url);
  // A link without a scheme (no ':' at all) keeps the base's scheme.
  const auto normal_base = normalize_url(base);
  if (link.find(':') == std::string_view::npos && normal_base) {
    check(scheme_of(*url) == scheme_of(*normal_base), "a relative link changed the scheme", *url);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  check_normalized(input);
  check_resolved(kPage, input);
  const std::size_t newline = input.find('\n');
  if (newline != std::string_view::npos) {
    const std::string_view base = input.substr(0, newline);
    const std::string_view link = input.substr(newline + 1);
    check_normalized(base);
    check_normalized(link);
    check_resolved(base, link);
  }
  return 0;
}
