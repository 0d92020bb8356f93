#pragma once
// Exclude patterns: regular expressions from users, searched in URLs from servers. Neither a
// hostile pattern nor a hostile URL can crash the process or keep a search running for long.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace corocrawl {

/// The longest pattern compile_patterns accepts, in bytes; no real exclude pattern comes near.
inline constexpr std::size_t max_pattern_length = 4096;

/// The deepest nesting of groups, "(" in "((a)b)", a pattern may have. The regex compiler
/// recurses once per level; 50 levels need well under 32 KiB of stack.
inline constexpr std::size_t max_pattern_nesting = 50;

/// The most steps (states of the backtracking matcher) a search of one URL may take before it
/// gives up: a pathological search gives up within tens of milliseconds. Boost.Regex's own
/// limit is lowered to this: on an 8 KiB URL it allows 64 million steps (a second or more),
/// and more without bound as the pattern grows.
inline constexpr std::size_t max_search_steps = 1'000'000;

enum class search_outcome {
  no_match,
  match,
  gave_up,  ///< more than max_search_steps: neither a match nor its absence was found
};

/// A compiled exclude pattern: ECMAScript syntax (Boost.Regex's Perl-compatible dialect, which
/// also accepts Perl's extensions such as "(?i)"), searched anywhere in a URL. Copies share
/// the compiled form; search may be called from several threads at once.
class url_pattern {
 public:
  /// Compiles `pattern`. Throws config_error naming `option` and the pattern (shortened when
  /// long) when it is invalid, longer than max_pattern_length or nested deeper than
  /// max_pattern_nesting.
  url_pattern(std::string_view pattern, std::string_view option);

  /// The pattern as given.
  const std::string& text() const noexcept { return text_; }

  /// Whether the pattern matches anywhere in `url`. Uses no stack in proportion to the URL or
  /// the pattern, and gives up after max_search_steps.
  search_outcome search(std::string_view url) const;

 private:
  struct compiled;
  std::string text_;
  std::shared_ptr<const compiled> compiled_;
};

/// Compiles exclusion patterns, each as url_pattern does.
std::vector<url_pattern> compile_patterns(std::span<const std::string> patterns,
                                          std::string_view option);

/// `text` (a pattern or URL) for a one-line message: control characters escaped, and when
/// longer than `keep` bytes, its first bytes, "..." and its length.
std::string shortened_for_message(std::string_view text, std::size_t keep = 60);

}  // namespace corocrawl
