#pragma once
// robots.txt (RFC 9309): which URLs of a site its owner lets one crawler fetch, and where the
// site's sitemaps are. Parsing and matching only: fetching the file, and what an unreachable
// one or a 5xx answer means for the crawl, are the caller's.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace corocrawl {

/// The most of a robots.txt parse reads, in bytes: RFC 9309 2.5 lets a crawler stop at 500 KiB.
/// A line the limit cuts in two is not read either.
inline constexpr std::size_t max_robots_txt_size = 500 * 1024;

/// The longest allow or disallow pattern parse keeps, in bytes after normalisation (as the
/// octets matching compares); longer rules are ignored. Google's parser reads 16 KiB of a
/// line; no real rule comes near.
inline constexpr std::size_t max_robots_pattern_length = 16 * 1024;

/// The rules of one robots.txt for one crawler (RFC 9309). Cheap to query from several
/// threads at once: every member function is const after parse.
class robots_rules {
 public:
  /// Allows everything (no robots.txt, or one answered with a 4xx status).
  robots_rules() = default;

  /// Parses `text` (any bytes; only the first max_robots_txt_size are read) for the crawler
  /// whose product token is `agent` ("corocrawl"; only its leading [A-Za-z_-] part counts, so
  /// "corocrawl/1.0" works too). The groups whose user-agent lines name that token (ASCII
  /// case-insensitively) apply, merged; with none, the "*" groups, merged; with none of those
  /// either, everything is allowed. A group for the crawler with no rules allows everything.
  ///
  /// Lines end with LF, CRLF or CR; a leading UTF-8 BOM, '#' comments and whitespace around
  /// keys and values are skipped; keys are case-insensitive; lines without ':' and keys other
  /// than user-agent, allow, disallow and sitemap are ignored (an ignored key still ends a run
  /// of user-agent lines, as in Google's parser). Allow and disallow lines before any
  /// user-agent line, with an empty value, with a value starting with neither '/' nor '*'
  /// (no path could match it), or longer than max_robots_pattern_length are ignored.
  static robots_rules parse(std::string_view text, std::string_view agent);

  /// Whether the crawler may fetch the URL whose path and query (as in the request line,
  /// percent-encoded: "/a/b?x=1") is `target`. The longest matching pattern (in octets,
  /// after normalisation) decides, Allow winning a tie; with none, the target is allowed.
  /// "*" in a pattern matches any run of octets and a final "$" anchors it at the target's
  /// end. Patterns and targets are compared after percent-encoding normalisation: octets
  /// that are neither unreserved nor reserved (RFC 3986) are percent-encoded, existing %xx
  /// are upper-cased and decoded when they stand for an unreserved character, so "/caf%c3%a9"
  /// and "/café" are the same, and "%2A" and "%24" in a pattern match a literal '*' and '$'.
  /// A target not starting with '/' gets one; a '#' and what follows is dropped.
  /// "/robots.txt" itself is always allowed. Takes time linear in the pattern and target
  /// lengths for each rule, whatever the patterns.
  bool allows(std::string_view target) const;

  /// The Sitemap: lines (in any group, or none), values as written but trimmed, in file order,
  /// without duplicates or empty values. Not checked as URLs, nor made safe to print.
  const std::vector<std::string>& sitemaps() const noexcept { return sitemaps_; }

  /// For messages: the rule deciding `target` as allows() reads it, "Disallow: /private" or
  /// "Allow: /private/open" (canonical key, value as written but trimmed, not made safe to
  /// print), or nullopt when no rule matches (so the target is allowed) and for "/robots.txt".
  std::optional<std::string> deciding_rule(std::string_view target) const;

 private:
  // One allow or disallow line.
  struct rule {
    bool allow = false;
    std::string written;  // the value as in the file, trimmed
    // The normalised pattern: '*' matches any run of octets, a '$' at its end anchors it.
    std::string pattern;
    // For each octet of `pattern` in a run of literal octets, the Knuth-Morris-Pratt failure
    // value within its run (the longest proper border of the run up to it); empty without '*'.
    std::vector<std::uint32_t> borders;
  };

  // The rule for an allow or disallow line's value; nullopt when its pattern is too long.
  static std::optional<rule> make_rule(bool allow, std::string_view value);
  static bool matches(const rule& r, std::string_view normal_target);
  const rule* deciding(std::string_view target) const;

  std::vector<rule> rules_;  // longest pattern first, Allow before Disallow for the same length
  std::vector<std::string> sitemaps_;
};

}  // namespace corocrawl
