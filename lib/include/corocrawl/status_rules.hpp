#pragma once
// What the HTTP statuses of checked URLs mean: the status codes counted as OK (accept) and as
// warnings (warn), and [[rules]] that change them, or skip URLs, by URL pattern. crawl_options
// (options.hpp) holds them; make_plan (plan.hpp) checks and compiles them.

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace corocrawl {

/// A set of HTTP status codes, as "200-299,403": inclusive ranges of codes from
/// status_codes::min_code to status_codes::max_code, kept sorted and merged, so that two sets
/// of the same codes compare equal and print alike.
class status_codes {
 public:
  static constexpr unsigned min_code = 100;
  static constexpr unsigned max_code = 599;

  /// Codes `low` to `high`, both included; one code when they are equal.
  struct range {
    unsigned low = 0;
    unsigned high = 0;
    friend bool operator==(const range&, const range&) = default;
  };

  /// No codes.
  status_codes() = default;
  /// The codes of `ranges`, in any order, overlapping or not. Throws config_error for a code
  /// outside min_code..max_code or a range whose low is above its high.
  status_codes(std::initializer_list<range> ranges);
  explicit status_codes(std::vector<range> ranges);

  bool contains(unsigned status) const;
  bool empty() const noexcept { return ranges_.empty(); }
  /// Sorted, merged (no two overlap or touch).
  const std::vector<range>& ranges() const noexcept { return ranges_; }
  /// "200-299,403"; "" for none. Parsing it gives the same codes back.
  std::string to_string() const;

  friend bool operator==(const status_codes&, const status_codes&) = default;

 private:
  std::vector<range> ranges_;
};

/// A [[rules]] table of corocrawl.toml: for the URLs `match` finds, what their statuses mean,
/// or that they are skipped.
struct status_rule {
  /// ECMAScript regular expression, searched in the normalised URL as exclude patterns are.
  std::string match;
  std::optional<status_codes> accept;  ///< replaces crawl_options::accept for these URLs
  std::optional<status_codes> warn;    ///< replaces crawl_options::warn for these URLs
  /// Not fetched and not counted, as if excluded. Goes with neither accept nor warn.
  bool skip = false;
  friend bool operator==(const status_rule&, const status_rule&) = default;
};

/// What a final status means for a checked URL.
enum class status_verdict {
  ok,       ///< accepted
  warning,  ///< reported, but does not fail the crawl
  broken,   ///< fails the crawl
};

}  // namespace corocrawl
