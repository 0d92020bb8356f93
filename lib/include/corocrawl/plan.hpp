#pragma once
// A crawl plan: crawl options checked as a whole and worked out once, before anything is
// fetched: roots classified, exclude patterns and status rules compiled, sitemaps
// normalised, proxies parsed, the user agent and the number of parse threads settled. run_crawl
// (crawl.hpp) runs a plan; the parts of the library that crawl take what they need from it instead
// of reading options again.

#include <memory>

#include "corocrawl/options.hpp"

namespace corocrawl {

class crawl_plan {
 public:
  /// What the plan holds; defined inside the library (config/plan_details.hpp).
  struct details;

  /// The options the plan was made from, checked.
  const crawl_options& options() const;

  /// The worked-out parts, for the library's crawler.
  const details& get() const { return *details_; }

 private:
  explicit crawl_plan(std::shared_ptr<const details> made) : details_(std::move(made)) {}
  friend crawl_plan make_plan(const crawl_options& options);

  std::shared_ptr<const details> details_;  // shared: copies of a plan are cheap
};

/// Checks `options` as validate (config.hpp) describes and works them out into a plan.
/// Directory roots are classified (they must exist), not served yet. Throws config_error,
/// naming the option, for anything invalid, including two roots of one origin whose URLs name
/// different credentials.
crawl_plan make_plan(const crawl_options& options);

}  // namespace corocrawl
