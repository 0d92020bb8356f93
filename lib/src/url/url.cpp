// URL normalisation and browser-like link resolution on top of Boost.URL.
//
// Boost.URL 1.81 parses; it does not normalise or resolve here: its url::normalize() and
// resolve() decode reserved characters ("%2F" becomes "/", another resource) and keep ".."
// segments above the root. So components are normalised and references resolved
// (RFC 3986 5.2.2) in this file.

#include "url/url.hpp"

#include <algorithm>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <new>

#include "text/ascii.hpp"
#include "url/host.hpp"
#include "url/idna.hpp"

namespace corocrawl {
namespace {

namespace urls = boost::urls;

constexpr char kHexDigits[] = "0123456789ABCDEF";

int hex_value(char c) {
  if (ascii::is_digit(c)) return c - '0';
  return ascii::to_lower(c) - 'a' + 10;
}

bool is_unreserved(char c) {
  return ascii::is_alpha(c) || ascii::is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

bool is_sub_delim(char c) {
  switch (c) {
    case '!':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':
    case ';':
    case '=':
      return true;
    default:
      return false;
  }
}

bool is_valid_triplet(std::string_view s, std::size_t i) {
  return s[i] == '%' && i + 2 < s.size() && ascii::is_hex(s[i + 1]) && ascii::is_hex(s[i + 2]);
}

void append_pct(std::string& out, unsigned char byte) {
  out += '%';
  out += kHexDigits[byte >> 4];
  out += kHexDigits[byte & 0xF];
}

// RFC 3986 6.2.2.1-2, appended to `out`: upper-case hex digits, decode unreserved characters
// (only those: a decoded "/" or "?" would change the URL's meaning). Optionally lower-cases
// the rest (hosts).
void append_normalized_percent(std::string& out, std::string_view s, bool lower_case) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (is_valid_triplet(s, i)) {
      const auto decoded = static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      if (is_unreserved(decoded)) {
        out += lower_case ? ascii::to_lower(decoded) : decoded;
      } else {
        out += '%';
        out += ascii::to_upper(s[i + 1]);
        out += ascii::to_upper(s[i + 2]);
      }
      i += 2;
    } else {
      out += lower_case ? ascii::to_lower(s[i]) : s[i];
    }
  }
}

// RFC 3986 5.2.4 for the absolute path that makes up the end of `s` from `start` (where its
// '/' is), in place: "." and ".." segments go, ".." never climbs above "/". The kept segments
// are written back from `start` + 1 on, never past what is still to be read.
void remove_dot_segments(std::string& s, std::size_t start) {
  const std::size_t root = start + 1;  // past the leading '/'
  std::size_t read = root;
  std::size_t write = root;
  std::size_t kept = 0;
  bool trailing_slash = false;
  while (true) {
    const std::size_t found = s.find('/', read);
    const bool last = found == std::string::npos;
    const std::size_t end = last ? s.size() : found;
    const std::string_view segment(s.data() + read, end - read);
    if (segment == ".") {
      trailing_slash = last;
    } else if (segment == "..") {
      if (kept > 0) {
        --kept;
        // The separator before the last kept segment (which has none of its own).
        write = kept == 0 ? root : s.rfind('/', write - 1);
      }
      trailing_slash = last;
    } else {
      if (kept > 0) s[write++] = '/';
      std::char_traits<char>::move(s.data() + write, segment.data(), segment.size());
      write += segment.size();
      ++kept;
      trailing_slash = false;
    }
    if (last) break;
    read = end + 1;
  }
  if (trailing_slash && kept > 0) s[write++] = '/';
  s.resize(write);
}

// The schemes browsers treat as "special": they always have a host, "\" means "/", and they
// have default ports. "file" is special too but has none of the properties we rely on.
std::optional<std::uint16_t> special_default_port(std::string_view scheme) {
  if (scheme == "http" || scheme == "ws") return 80;
  if (scheme == "https" || scheme == "wss") return 443;
  if (scheme == "ftp") return 21;
  return std::nullopt;
}

bool is_special(std::string_view scheme) {
  return special_default_port(scheme).has_value();
}

// After an authority the path is empty or starts with '/' (RFC 3986 3.3). Boost.URL 1.81
// also accepts "http://[::1]x/" and reads "x/" as the path after an IP literal.
bool path_follows_authority(urls::url_view u) {
  return !u.has_authority() || u.encoded_path().empty() || u.encoded_path().starts_with('/');
}

std::optional<std::string> normalize_view(urls::url_view u) {
  const auto default_port = special_default_port(ascii::to_lower(u.scheme()));
  if (default_port && (!u.has_authority() || u.encoded_host().empty())) return std::nullopt;
  if (!path_follows_authority(u)) return std::nullopt;

  std::string out;
  out.reserve(u.buffer().size() + 2);  // never longer, but for "/." or an empty path's "/"
  append_normalized_percent(out, u.scheme(), true);  // a scheme has no '%': lower-cased
  out += ':';
  if (u.has_authority()) {
    out += "//";
    if (u.has_userinfo()) {
      append_normalized_percent(out, u.encoded_userinfo(), false);
      out += '@';
    }
    append_normalized_percent(out, u.encoded_host(), true);
    if (u.has_port() && !u.port().empty()) {
      const auto port = parse_port(u.port());
      if (!port) return std::nullopt;
      if (!default_port || *port != *default_port) {
        out += ':';
        out += std::to_string(*port);  // drops leading zeros, as browsers do
      }
    }
  }

  const std::size_t path = out.size();
  append_normalized_percent(out, u.encoded_path(), false);
  if (out.size() > path && out[path] == '/') remove_dot_segments(out, path);
  if (out.size() == path && default_port) out += '/';
  // Without an authority a path starting with "//" would read back as one (RFC 3986 5.2.2).
  if (!u.has_authority() && std::string_view(out).substr(path).starts_with("//"))
    out.insert(path, "/.");

  if (u.has_query()) {
    out += '?';
    append_normalized_percent(out, u.encoded_query(), false);
  }
  return out;
}

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

std::optional<std::string> scheme_of(std::string_view ref) {
  if (ref.empty() || !ascii::is_alpha(ref.front())) return std::nullopt;
  for (std::size_t i = 1; i < ref.size(); ++i) {
    const char c = ref[i];
    if (c == ':') return ascii::to_lower(ref.substr(0, i));
    if (!ascii::is_alpha(c) && !ascii::is_digit(c) && c != '+' && c != '-' && c != '.')
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> normalize_url(std::string_view url) {
  try {
    // An internationalised host of a special scheme is its A-labels, as resolve_link gives it.
    std::string ascii;
    if (host_needs_idna(url) && is_special(scheme_of(url).value_or(""))) {
      ascii = url;
      if (!make_host_ascii(ascii)) return std::nullopt;
      url = ascii;
    }
    const auto parsed = urls::parse_uri(url);
    if (!parsed) return std::nullopt;
    return normalize_view(*parsed);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

link_resolver::link_resolver(std::string base) : base_(std::move(base)) {
  const auto parsed = urls::parse_uri(base_);
  if (!parsed) return;
  const urls::url_view u = *parsed;
  parts_ = base_parts{.scheme = u.scheme(),
                      .authority = u.encoded_authority(),
                      .path = u.encoded_path(),
                      .query = u.encoded_query(),
                      .has_authority = u.has_authority(),
                      .has_query = u.has_query()};
  scheme_ = ascii::to_lower(u.scheme());
}

std::optional<std::string> link_resolver::resolve(std::string_view link) {
  if (!parts_) return std::nullopt;
  try {
    clean_href(link, href_);
    if (!browser_to_rfc3986(href_, scheme_, ref_)) return std::nullopt;
    const auto ref = urls::parse_uri_reference(ref_);
    if (!ref) return std::nullopt;
    resolve_reference(*parts_, *ref, resolved_);
    return normalize_url(resolved_);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::string> resolve_link(std::string_view base, std::string_view link) {
  return link_resolver(std::string(base)).resolve(link);
}

std::optional<http_target> split_http_url(std::string_view url) {
  const auto parsed = urls::parse_uri(url);
  if (!parsed) return std::nullopt;
  const urls::url_view u = *parsed;
  const std::string scheme = ascii::to_lower(u.scheme());
  if (scheme != "http" && scheme != "https") return std::nullopt;
  if (!u.has_authority() || u.encoded_host().empty() || !path_follows_authority(u))
    return std::nullopt;

  http_target out;
  out.https = scheme == "https";
  // encoded_host_address() is the IPv6 literal without brackets, the host otherwise.
  out.host = u.host_type() == urls::host_type::ipv6 ? std::string(u.encoded_host_address())
                                                    : std::string(u.encoded_host());
  out.port = out.https ? 443 : 80;
  if (u.has_port() && !u.port().empty()) {
    const auto port = parse_port(u.port());
    if (!port || *port == 0) return std::nullopt;
    out.port = *port;
  }
  out.target = u.encoded_path().empty() ? std::string("/") : std::string(u.encoded_path());
  if (u.has_query()) {
    out.target += '?';
    out.target += u.encoded_query();
  }
  return out;
}

std::string origin_key(const http_target& target) {
  return (target.https ? "https://" : "http://") + host_and_port(target.host, target.port);
}

}  // namespace corocrawl
