#pragma once
// Resolving and normalising URLs: the normalised form is the key of the crawler's seen-set.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace corocrawl {

/// The scheme that starts `ref`, lower-cased: RFC 3986 scheme syntax (a letter, then letters,
/// digits, '+', '-' or '.') up to the first ':'; nullopt when `ref` does not start so (a
/// relative reference, "1a:b", "a b:c").
std::optional<std::string> scheme_of(std::string_view ref);

/// Normalises an absolute URL of any scheme: lower-case scheme and host, default port removed
/// (80 for http, 443 for https; also ws, wss, ftp), empty path of an http(s) URL becomes "/",
/// dot segments removed, percent-encoding normalised (upper-case hex digits, unreserved
/// characters decoded), fragment removed, an internationalised host of a special scheme
/// (http, https, ws, wss, ftp) written with its A-labels. Path and query case are kept. Returns
/// nullopt when `url` is not an absolute URL, or is an http(s) URL without a host or with a port >
/// 65535.
std::optional<std::string> normalize_url(std::string_view url);

/// Resolves `link`, an attribute value as written in a page (possibly relative, possibly
/// with surrounding whitespace, spaces or non-ASCII characters, as browsers accept), against
/// the absolute URL `base`, and normalises the result. An empty or fragment-only link is
/// `base` itself, as in browsers. Returns nullopt when the link cannot be made into an
/// absolute URL (unparseable, no host or a bad port for http(s), or `base` is not absolute).
std::optional<std::string> resolve_link(std::string_view base, std::string_view link);

/// Resolves links against one base URL as resolve_link does, faster: the base is parsed once,
/// and the buffers it works in keep their capacity from link to link, so that resolving a
/// page's links allocates little more than the URLs returned. Not copyable or movable (it
/// keeps views into its base).
class link_resolver {
 public:
  explicit link_resolver(std::string base);
  link_resolver(const link_resolver&) = delete;
  link_resolver& operator=(const link_resolver&) = delete;

  /// resolve_link(base(), link).
  std::optional<std::string> resolve(std::string_view link);
  /// The same URL as resolve(), without a string of its own: the view is valid until the next
  /// call.
  std::optional<std::string_view> resolve_in_place(std::string_view link);
  const std::string& base() const { return base_; }

  /// What RFC 3986 5.2.2 reads of the base: views into base().
  struct base_parts {
    std::string_view scheme, authority, path, query;
    bool has_authority = false, has_query = false;
  };

 private:
  // The fast paths, given a link without its fragment. A link of letters, digits and "-._~/",
  // or an empty one (a fragment alone), against a normalised http(s) base (origin_length_ is
  // set): the same URL as the general path, without parsing. False when the link is not such
  // a link.
  bool resolve_plain(std::string_view link, std::string& out) const;
  // An absolute http(s) link written as normalisation leaves it but for its dot segments:
  // "http://" or "https://", a lower-case host of letters, digits and "-._~", perhaps a port
  // that is not the scheme's default, a path of "-._~/", letters and digits, and a query of
  // what a query keeps. The same URL as the general path, without parsing. False when the
  // link is not such a link.
  static bool resolve_absolute(std::string_view link, std::string& out);

  // Parses base_ into parts_ once, when the constructor or a link first needs them; false
  // when base_ is not an absolute URL.
  bool parse_base();

  std::string base_;
  std::optional<base_parts> parts_;  // none until parsed, or when base_ is not absolute
  bool base_parsed_ = false;
  // With the fast path: the length of base_'s "scheme://authority", and of that and its
  // path up to the last '/'; 0 without it.
  std::size_t origin_length_ = 0;
  std::size_t directory_length_ = 0;
  std::string scheme_;  // lower-cased
  std::string href_, ref_, resolved_;
  std::string out_;  // resolve_in_place()'s answer
};

/// The parts of a normalised http(s) URL that a request needs.
struct http_target {
  bool https = false;
  std::string host;        ///< as in the URL; IPv6 literals without brackets
  std::uint16_t port = 0;  ///< explicit or the scheme's default
  std::string target;      ///< path and query, e.g. "/a/b?x=1"; never empty
  friend bool operator==(const http_target&, const http_target&) = default;
};

/// Splits an absolute http(s) URL into what a request needs; nullopt for other URLs.
std::optional<http_target> split_http_url(std::string_view url);

/// "scheme://host:port" with the port always written (IPv6 hosts bracketed): the origin a
/// request to `target` belongs to, which keys connection pools and per-host limits.
std::string origin_key(const http_target& target);

}  // namespace corocrawl
