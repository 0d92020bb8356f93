#pragma once
// Which URLs a crawl follows: the chapter's host rules plus exclusion patterns.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "url/http_url.hpp"
#include "url/url_pattern.hpp"

namespace corocrawl {

/// The longest URL a crawl follows. Servers refuse longer request lines (414).
inline constexpr std::size_t max_url_length = 8192;

/// Decides whether a link is in scope of a crawl. A root's host is in scope; strict mode also
/// accepts that host with or without a leading "www."; lenient mode accepts any host whose
/// last two labels match a root's. IP-literal hosts match only literally. Ports and schemes
/// (http vs https) do not matter for the host. Only http and https URLs are ever in scope.
/// The const members may be called from several threads at once.
class scope {
 public:
  /// `root_urls` are absolute URLs; roots without a host are ignored. `exclude` patterns are
  /// searched (not fully matched) in the normalised URL.
  scope(std::span<const std::string> root_urls, bool strict, std::vector<url_pattern> exclude);
  ~scope();
  scope(scope&&) noexcept;
  scope& operator=(scope&&) noexcept;

  /// True when `host` (any case) is one of the crawl's hosts under the strict/lenient rule.
  bool host_allowed(std::string_view host) const;

  /// True when `url` (absolute) is http(s), at most max_url_length bytes long, its host is
  /// allowed and no exclude pattern matches it.
  bool allows(std::string_view url) const;

  /// allows() for a normalised URL already taken apart: no parse.
  bool allows(const http_url& url) const;

  /// True when an exclude pattern matches `url`. A pattern that gives up on `url` (see
  /// url_pattern::search) does not exclude it: a link checker would rather check one URL too
  /// many than hide one, and a backtracking search that runs out of steps has in practice
  /// found no match. The first URL each pattern gives up on is logged as a warning naming the
  /// pattern, later ones at debug level; a pattern is not searched again in a URL it gave up
  /// on (while the record of those URLs stays under 4 MiB).
  bool excluded(std::string_view url) const;

  /// How many searches of an exclude pattern have given up so far.
  std::size_t give_ups() const;

 private:
  struct give_up_record;

  bool strict_;
  std::unordered_set<std::string> root_hosts_;  // lower-case; lenient: last two labels
  std::vector<url_pattern> exclude_;
  std::unique_ptr<give_up_record> give_ups_;
};

}  // namespace corocrawl
