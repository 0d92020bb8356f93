#include "corocrawl/record.hpp"

#include <ostream>
#include <stdexcept>
#include <string>

namespace corocrawl {

namespace {

class vector_source final : public record_source {
 public:
  explicit vector_source(std::vector<fetch_record> records) : records_(std::move(records)) {}
  std::size_t size() const override { return records_.size(); }
  fetch_record at(std::size_t index) const override { return records_[index]; }

 private:
  std::vector<fetch_record> records_;
};

}  // namespace

record_list::record_list(std::vector<fetch_record> records)
    : source_(std::make_shared<vector_source>(std::move(records))) {}

record_list::record_list(std::initializer_list<fetch_record> records)
    : record_list(std::vector<fetch_record>(records)) {}

record_list::record_list(std::shared_ptr<const record_source> source)
    : source_(std::move(source)) {}

fetch_record record_list::at(std::size_t index) const {
  if (index >= size())
    throw std::out_of_range("record_list::at: no record " + std::to_string(index));
  return (*this)[index];
}

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
