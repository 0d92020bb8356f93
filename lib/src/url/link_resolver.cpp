// link_resolver: links resolved as a browser resolves them (the WHATWG URL parser's cleaning
// and special-scheme rules in front of RFC 3986 5.2.2 on Boost.URL), then normalised. Plain
// relative links against a normalised http(s) base, most of a page's, take a fast path that
// joins paths without parsing, and absolute http(s) links written as normalised another.

#include <algorithm>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <new>

#include "text/ascii.hpp"
#include "url/idna.hpp"
#include "url/url.hpp"
#include "url/url_syntax.hpp"

namespace corocrawl {
namespace {

namespace urls = boost::urls;
using namespace url_syntax;  // NOLINT: the syntax this file reads

bool is_c0_or_space(char c) {
  return static_cast<unsigned char>(c) <= 0x20;
}

// What the WHATWG URL parser does to an href before parsing: trim C0 controls and spaces,
// drop tabs and newlines anywhere. The fragment is dropped too: the crawler never keeps it.
void clean_href(std::string_view link, std::string& out) {
  link = ascii::trim_if(link, is_c0_or_space);
  out.clear();
  for (const char c : link) {
    if (c == '#') break;
    if (c != '\t' && c != '\n' && c != '\r') out += c;
  }
}

// Whether `host` starts with an IPv4 address (four decimal octets of 0-255 without leading
// zeros) and goes on past it ("1.2.3.4a", "1.2.3.4.5"): Boost.URL 1.81 reads the address as
// the host and then fails on the rest, where a browser reads a domain.
bool ipv4_then_more(std::string_view host) {
  std::size_t at = 0;
  for (int octet = 0; octet < 4; ++octet) {
    if (octet > 0) {
      if (at >= host.size() || host[at] != '.') return false;
      ++at;
    }
    const std::size_t start = at;
    unsigned value = 0;
    while (at < host.size() && ascii::is_digit(host[at]) && at - start < 4)
      value = value * 10 + static_cast<unsigned>(host[at++] - '0');
    const std::size_t digits = at - start;
    if (digits == 0 || digits > 3 || (digits > 1 && host[start] == '0') || value > 255)
      return false;
  }
  return at < host.size();
}

// Whether `path` holds only unreserved bytes and '/': what neither the WHATWG parser nor
// normalisation changes.
bool is_plain_path(std::string_view path) {
  return std::ranges::all_of(path, [](char c) { return is_unreserved(c) || c == '/'; });
}

std::string strip_leading_slashes(std::string_view s) {
  const std::size_t first = s.find_first_not_of('/');
  return std::string(first == std::string_view::npos ? std::string_view{} : s.substr(first));
}

// Rewrites an href so that Boost.URL's RFC 3986 parser reads it the way a browser would:
// browser-only syntax of special schemes is translated, and bytes RFC 3986 forbids but
// browsers accept (spaces, non-ASCII, "|", a lone "%" ...) are percent-encoded.
// An internationalised host becomes its ASCII form, as browsers send it (nullopt when it
// cannot), into `out`; false when it cannot. `ref` is rewritten on the way.
bool browser_to_rfc3986(std::string& ref, std::string_view base_scheme, std::string& out) {
  const auto scheme = scheme_of(ref);
  const std::string effective = scheme ? *scheme : std::string(base_scheme);
  const bool special = is_special(effective);

  if (special) {
    // "\" is a path separator in special URLs, but not in their query.
    const std::size_t query = ref.find('?');
    for (std::size_t i = 0; i < ref.size() && i < query; ++i) {
      if (ref[i] == '\\') ref[i] = '/';
    }
    if (scheme) {
      const std::string_view rest = std::string_view(ref).substr(scheme->size() + 1);
      if (*scheme == base_scheme && !rest.starts_with("//")) {
        ref = std::string(rest);                  // "http:foo" against an http base is relative
        if (scheme_of(ref)) ref.insert(0, "./");  // "http:a:b" is the path "a:b"
      } else {
        ref = *scheme + "://" + strip_leading_slashes(rest);  // "https:/h" is "https://h"
      }
    } else if (ref.starts_with("//")) {
      ref = "//" + strip_leading_slashes(ref);  // "///h/x" is "//h/x"
    }
    if (!make_host_ascii(ref)) return false;
  }
  if (!scheme_of(ref) && !ref.starts_with('/')) {
    // A ':' in the first segment of a relative path would read as a scheme ("1a:b").
    const std::size_t colon = ref.find(':');
    if (colon != std::string::npos && colon < ref.find_first_of("/?")) ref.insert(0, "./");
  }

  const auto final_scheme = scheme_of(ref);
  const std::size_t prefix = final_scheme ? final_scheme->size() + 1 : 0;
  std::size_t authority_end = prefix;
  if (std::string_view(ref).substr(prefix).starts_with("//")) {
    authority_end = std::min(ref.find_first_of("/?", prefix + 2), ref.size());
  }

  out.assign(ref, 0, prefix);
  bool in_query = false;
  for (std::size_t i = prefix; i < ref.size(); ++i) {
    const char c = ref[i];
    if (c == '?') in_query = true;
    const bool in_authority = i < authority_end;
    bool allowed = is_unreserved(c) || is_sub_delim(c) || c == ':' || c == '@' || c == '/';
    if (c == '?') allowed = in_query;
    if (c == '[' || c == ']') allowed = in_authority;
    if (c == '%') allowed = is_valid_triplet(ref, i);
    if (allowed) {
      out += c;
    } else {
      append_pct(out, static_cast<unsigned char>(c));
    }
  }
  return true;
}

// RFC 3986 5.2.2 into `out` (dot segments are left to normalize_view). `ref` has no fragment.
void resolve_reference(const link_resolver::base_parts& base, urls::url_view ref,
                       std::string& out) {
  if (ref.has_scheme()) {
    out = ref.buffer();
    return;
  }
  out = base.scheme;
  out += ':';
  if (ref.has_authority()) {
    out += ref.buffer();  // "//authority/path?query"
    return;
  }
  if (base.has_authority) {
    out += "//";
    out += base.authority;
  }
  const std::size_t path = out.size();
  const std::string_view ref_path = ref.encoded_path();
  if (ref_path.empty()) {
    out += base.path;
  } else if (ref_path.front() == '/') {
    out += ref_path;
  } else {
    const std::string_view base_path = base.path;
    if (base.has_authority && base_path.empty()) {
      out += '/';
    } else {
      const std::size_t slash = base_path.rfind('/');
      if (slash != std::string_view::npos) out += base_path.substr(0, slash + 1);
    }
    out += ref_path;
  }
  // Without an authority a path starting with "//" would read back as one.
  if (!base.has_authority && std::string_view(out).substr(path).starts_with("//"))
    out.insert(path, "/.");
  if (ref.has_query()) {
    out += '?';
    out += ref.encoded_query();
  } else if (ref_path.empty() && base.has_query) {
    out += '?';
    out += base.query;
  }
}
}  // namespace

link_resolver::link_resolver(std::string base) : base_(std::move(base)) {
  // The fast paths need a normalised http(s) base with a host: resolving against it then
  // only joins paths. A base written as resolve_absolute() takes it (most pages' own URL)
  // is one, seen without parsing it (out_ serves as scratch): its parts are parsed when a
  // link first needs them.
  if (resolve_absolute(base_, out_) && out_ == base_) {
    scheme_ = base_.starts_with("https:") ? "https" : "http";
    origin_length_ = base_.find('/', scheme_.size() + 3);  // its path starts with '/'
    const std::size_t query = std::min(base_.find('?', origin_length_), base_.size());
    directory_length_ = base_.rfind('/', query - 1) + 1;
    return;
  }
  if (!parse_base()) return;
  if (parts_->has_authority && (scheme_ == "http" || scheme_ == "https") &&
      normalize_url(base_) == base_) {
    origin_length_ = static_cast<std::size_t>(parts_->path.data() - base_.data());
    directory_length_ = origin_length_ + parts_->path.rfind('/') + 1;
  }
}

bool link_resolver::parse_base() {
  if (parts_) return true;
  if (base_parsed_) return false;  // it is not an absolute URL
  base_parsed_ = true;
  const auto parsed = urls::parse_uri(base_);
  if (!parsed) return false;
  const urls::url_view u = *parsed;
  parts_ = base_parts{.scheme = u.scheme(),
                      .authority = u.encoded_authority(),
                      .path = u.encoded_path(),
                      .query = u.encoded_query(),
                      .has_authority = u.has_authority(),
                      .has_query = u.has_query()};
  scheme_ = ascii::to_lower(u.scheme());
  return true;
}

bool link_resolver::resolve_plain(std::string_view link, std::string& out) const {
  if (link.empty()) {
    out.assign(base_);  // the page itself: its base is normalised, without a fragment
    return true;
  }
  if (link.starts_with("//") || !is_plain_path(link)) return false;
  const bool absolute = link.front() == '/';
  const std::size_t kept = absolute ? origin_length_ : directory_length_;
  out.assign(base_, 0, kept).append(link);
  remove_dot_segments(out, origin_length_);
  return true;
}

bool link_resolver::resolve_absolute(std::string_view link, std::string& out) {
  std::uint16_t default_port = 80;
  std::size_t at = 0;  // past "scheme://"
  if (link.starts_with("http://")) {
    at = 7;
  } else if (link.starts_with("https://")) {
    at = 8;
    default_port = 443;
  } else {
    return false;
  }
  const auto is_host_byte = [](char c) {
    return ascii::is_digit(c) || (c >= 'a' && c <= 'z') || c == '-' || c == '.' || c == '_' ||
           c == '~';
  };
  const std::size_t host = at;
  while (at < link.size() && is_host_byte(link[at]))
    ++at;
  if (at == host || ipv4_then_more(link.substr(host, at - host))) return false;
  if (at < link.size() && link[at] == ':') {
    // Digits without a leading zero, below 65536, not the default: written as normalised.
    const std::size_t digits = ++at;
    std::uint32_t port = 0;
    while (at < link.size() && ascii::is_digit(link[at]) && at - digits < 5)
      port = port * 10 + static_cast<std::uint32_t>(link[at++] - '0');
    if (at == digits || link[digits] == '0' || port > 65535 || port == default_port) return false;
  }
  const std::size_t path = at;
  if (at < link.size() && link[at] != '/' && link[at] != '?') return false;
  const std::size_t query = std::min(link.find('?', path), link.size());  // its '?', or the end
  if (!is_plain_path(link.substr(path, query - path))) return false;
  for (const char c : link.substr(query)) {
    if (!is_unreserved(c) && !is_sub_delim(c) && c != ':' && c != '@' && c != '/' && c != '?')
      return false;
  }
  out.assign(link, 0, path);
  if (query == path) {
    out += '/';  // an empty path is "/"
  } else {
    out.append(link, path, query - path);
    remove_dot_segments(out, path);
  }
  out.append(link, query);
  return true;
}

std::optional<std::string> link_resolver::resolve(std::string_view link) {
  const auto url = resolve_in_place(link);
  if (!url) return std::nullopt;
  return std::string(*url);
}

std::optional<std::string_view> link_resolver::resolve_in_place(std::string_view link) {
  // The fast paths take the link without its fragment, which no URL keeps.
  const std::string_view written = link.substr(0, link.find('#'));
  if (origin_length_ != 0 && (resolve_plain(written, out_) || resolve_absolute(written, out_)))
    return out_;
  if (!parse_base()) return std::nullopt;
  try {
    clean_href(link, href_);
    if (!browser_to_rfc3986(href_, scheme_, ref_)) return std::nullopt;
    const auto ref = urls::parse_uri_reference(ref_);
    if (!ref) return std::nullopt;
    resolve_reference(*parts_, *ref, resolved_);
    auto normalized = normalize_url(resolved_);
    if (!normalized) return std::nullopt;
    out_ = std::move(*normalized);
    return out_;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::string> resolve_link(std::string_view base, std::string_view link) {
  return link_resolver(std::string(base)).resolve(link);
}

}  // namespace corocrawl
