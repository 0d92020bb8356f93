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
#include "url/url_syntax.hpp"

namespace corocrawl {
namespace {

namespace urls = boost::urls;

constexpr char kHexDigits[] = "0123456789ABCDEF";

int hex_value(char c) {
  if (ascii::is_digit(c)) return c - '0';
  return ascii::to_lower(c) - 'a' + 10;
}

}  // namespace

namespace url_syntax {

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
  // Most paths have no "." or ".." segment, and stay as they are: only a '.' after a '/' starts
  // one. (A search of each segment's end with std::string::find was a memchr call each.)
  bool dot_after_slash = false;
  for (std::size_t i = start + 1; i < s.size() && !dot_after_slash; ++i)
    dot_after_slash = s[i] == '.' && s[i - 1] == '/';
  if (!dot_after_slash) return;
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

}  // namespace url_syntax

namespace {

using namespace url_syntax;  // NOLINT: this file is where they are used most

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
  // A host decoded may start as an IPv4 address and go on ("12%2e8.0.0.1" is 12.8.0.0.1),
  // which Boost.URL 1.81 reads back as the address and a path after it: no URL then, as for
  // the same host written so.
  if (u.has_authority() && u.encoded_host().find('%') != std::string_view::npos) {
    const auto again = urls::parse_uri(out);
    if (!again || !path_follows_authority(*again)) return std::nullopt;
  }
  return out;
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
