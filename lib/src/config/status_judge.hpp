// What statuses mean, compiled once for the crawl plan: the global accept and warn codes and
// the [[rules]] with their patterns compiled. Internal.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "corocrawl/status_rules.hpp"
#include "url/url_pattern.hpp"

namespace corocrawl {

class status_judge {
 public:
  /// Accepts 200-399 and warns of nothing, with no rules: crawl_options' defaults.
  status_judge();

  /// Checks and compiles the settings: `accept` must not be empty, each rule as
  /// checked_status_rule (value_parsers.hpp) checks it, named "rules[N]" from 1. Throws
  /// config_error naming the option or rule.
  status_judge(status_codes accept, status_codes warn, std::span<const status_rule> rules);

  /// True when a [[rules]] rule with skip = true is the first rule matching `url` (a
  /// normalised URL). Without skip rules, no pattern is searched.
  bool skips(std::string_view url) const;

  /// What `status` (a final status: not a redirect that was followed) of `url` (a normalised
  /// URL) means: the first matching rule's accept and warn where it gives them, else the
  /// global ones; a status in both warn and accept is a warning. Anything neither accepts nor
  /// warns of is broken (the crawler may still call a 429 "rate limited"). Without rules that
  /// give codes, no pattern is searched.
  status_verdict judge(std::string_view url, unsigned status) const;

  /// How many rules there are.
  std::size_t rules() const noexcept { return rules_.size(); }

 private:
  struct compiled_rule {
    url_pattern pattern;
    std::optional<status_codes> accept;
    std::optional<status_codes> warn;
    bool skip = false;
  };

  /// The first rule whose pattern is found in `url`; a search that gives up (see url_pattern)
  /// counts as no match.
  const compiled_rule* first_match(std::string_view url) const;

  status_codes accept_;
  status_codes warn_;
  std::vector<compiled_rule> rules_;
  bool any_skip_ = false;   ///< some rule skips
  bool any_codes_ = false;  ///< some rule gives accept or warn
};

}  // namespace corocrawl
