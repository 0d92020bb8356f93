#include "corocrawl/record.hpp"

#include <ostream>

namespace corocrawl {

bool is_redirect_status(unsigned status) {
  return status == 300 || status == 301 || status == 302 || status == 303 || status == 307 ||
         status == 308;
}

bool is_broken(const fetch_record& r) {
  if (!r.status) return true;  // every try failed
  if (is_rate_limited(r)) return false;
  if (is_redirect_status(*r.status)) return r.error.has_value();  // limit, no Location...
  return *r.status >= 400;  // a page over max_body has an error but is not broken
}

bool is_rate_limited(const fetch_record& r) {
  return r.status == 429u;
}

std::ostream& operator<<(std::ostream& out, fetch_failure kind) {
  return out << failure_name(kind);
}

}  // namespace corocrawl
