#pragma once
// A discovered link after resolve_link: its normalised text, taken apart once into what the
// crawl needs of it (scope, origin, request) by one scan of that text. The scan relies on the
// normal form (lower-case scheme and host, no default port, a path after the authority), so
// it neither parses nor allocates; split_http_url is the reading of URLs in any form.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "url/url.hpp"

namespace corocrawl {

class http_url {
 public:
  /// `normalized`, as normalize_url or resolve_link made it, taken apart; nullopt when it is
  /// not an http(s) URL with a host and a port from 1 to 65535. The result views `normalized`.
  /// For every such URL it agrees with split_http_url (the tests and the url fuzz target
  /// check this).
  static std::optional<http_url> of(std::string_view normalized);

  std::string_view text() const { return text_; }
  bool https() const { return https_; }
  /// As in the URL; an IPv6 literal without its brackets.
  std::string_view host() const { return host_; }
  std::uint16_t port() const { return port_; }
  /// Path and query ("/a/b?x=1"); never empty.
  std::string_view target() const { return text_.substr(target_at_); }
  /// The path alone.
  std::string_view path() const { return target().substr(0, target().find('?')); }

  /// The key of the URL's origin (scheme, host and port), the same for every normalised URL
  /// of that origin: the text up to the path ("https://a.test:8443") when the URL has no
  /// userinfo, else the same without it, written into `scratch`.
  std::string_view origin(std::string& scratch) const;

  /// What a request for this URL needs.
  http_target request() const { return {https_, std::string(host_), port_, std::string(target())}; }

 private:
  std::string_view text_;
  std::string_view host_;
  std::size_t host_and_port_at_ = 0;  // after any userinfo
  std::size_t target_at_ = 0;
  std::uint16_t port_ = 0;
  bool https_ = false;
};

}  // namespace corocrawl
