#include "corocrawl/record.hpp"

#include "corocrawl/crawl.hpp"

namespace corocrawl {

bool is_redirect_status(unsigned status) {
  return status == 300 || status == 301 || status == 302 || status == 303 || status == 307 ||
         status == 308;
}

bool is_broken(const fetch_record& r) {
  if (!r.status) return true;                      // every try failed
  return *r.status >= 400 || r.error.has_value();  // e.g. "redirect limit reached"
}

bool passed(const crawl_result& result) {
  return result.broken.empty() && !result.interrupted;
}

}  // namespace corocrawl
