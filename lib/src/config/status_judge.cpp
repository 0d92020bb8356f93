// The compiled status rules: which URLs are skipped and what a status means for a URL.

#include "config/status_judge.hpp"

#include <string>
#include <utility>

#include "config/config_detail.hpp"
#include "config/value_parsers.hpp"

namespace corocrawl {

status_judge::status_judge() : accept_{{200, 399}} {}

status_judge::status_judge(status_codes accept, status_codes warn,
                           std::span<const status_rule> rules)
    : accept_(std::move(accept)), warn_(std::move(warn)) {
  if (accept_.empty()) detail::fail("accept: expected at least one status code");
  rules_.reserve(rules.size());
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const status_rule& rule = rules[i];
    url_pattern pattern = checked_status_rule("rules[" + std::to_string(i + 1) + "]", rule);
    rules_.push_back({std::move(pattern), rule.accept, rule.warn, rule.skip});
    any_skip_ = any_skip_ || rule.skip;
    any_codes_ = any_codes_ || rule.accept || rule.warn;
  }
}

const status_judge::compiled_rule* status_judge::first_match(std::string_view url) const {
  for (const compiled_rule& rule : rules_)
    if (rule.pattern.search(url) == search_outcome::match) return &rule;
  return nullptr;
}

bool status_judge::skips(std::string_view url) const {
  if (!any_skip_) return false;
  const compiled_rule* rule = first_match(url);
  return rule != nullptr && rule->skip;
}

status_verdict status_judge::judge(std::string_view url, unsigned status) const {
  const status_codes* accept = &accept_;
  const status_codes* warn = &warn_;
  if (any_codes_) {
    if (const compiled_rule* rule = first_match(url)) {
      if (rule->accept) accept = &*rule->accept;
      if (rule->warn) warn = &*rule->warn;
    }
  }
  if (warn->contains(status)) return status_verdict::warning;
  if (accept->contains(status)) return status_verdict::ok;
  return status_verdict::broken;
}

}  // namespace corocrawl
