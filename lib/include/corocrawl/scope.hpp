#pragma once
// Which URLs a crawl follows: the seed's host rules plus exclusion patterns.

#include <cstddef>
#include <regex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace corocrawl {

/// The longest URL a crawl follows. Servers refuse longer request lines (414), and
/// std::regex's recursive matcher can overflow the stack on much longer input.
inline constexpr std::size_t max_url_length = 8192;

/// Decides whether a link is in scope of a crawl. A root's host is in scope; strict mode also
/// accepts that host with or without a leading "www."; lenient mode accepts any host whose
/// last two labels match a root's. IP-literal hosts match only literally. Ports and schemes
/// (http vs https) do not matter for the host. Only http and https URLs are ever in scope.
class scope {
 public:
  /// `root_urls` are absolute URLs; roots without a host are ignored. `exclude` patterns are
  /// searched (not fully matched) in the normalised URL.
  scope(std::span<const std::string> root_urls, bool strict, std::vector<std::regex> exclude);

  /// True when `host` (any case) is one of the crawl's hosts under the strict/lenient rule.
  bool host_allowed(std::string_view host) const;

  /// True when `url` (normalised, absolute) is http(s), at most max_url_length bytes long,
  /// its host is allowed and no exclude pattern matches it.
  bool allows(std::string_view url) const;

  /// True when an exclude pattern matches `url`.
  bool excluded(std::string_view url) const;

 private:
  bool strict_;
  std::unordered_set<std::string> root_hosts_;  // lower-case; lenient: last two labels
  std::vector<std::regex> exclude_;
};

/// Compiles exclusion patterns (ECMAScript syntax). Throws config_error naming `option` and
/// the pattern when one does not compile.
std::vector<std::regex> compile_patterns(std::span<const std::string> patterns,
                                         std::string_view option);

}  // namespace corocrawl
