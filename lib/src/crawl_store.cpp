#include "crawl_store.hpp"

#include <algorithm>
#include <numeric>

namespace corocrawl {

void crawl_store::add(url_table::id url, std::optional<url_table::id> referrer,
                      const fetch_record& record) {
  records_.push_back({.url = url,
                      .referrer = referrer.value_or(kNone),
                      .size = record.size,
                      .num_urls = static_cast<std::uint32_t>(record.num_urls),
                      .num_new_urls = static_cast<std::uint32_t>(record.num_new_urls),
                      .tries = record.tries,
                      .status = record.status.value_or(0),
                      .next_url = label(record.next_url),
                      .error = label(record.error),
                      .failure = label(record.failure),
                      .content_type = label(record.content_type),
                      .encoding = label(record.encoding)});
}

void crawl_store::sort_by_url() {
  order_.resize(records_.size());
  std::iota(order_.begin(), order_.end(), 0U);
  std::ranges::sort(order_, {}, [this](std::uint32_t i) { return urls_[records_[i].url]; });
}

fetch_record crawl_store::at(std::size_t index) const {
  const auto& r = records_[order_.empty() ? index : order_[index]];
  fetch_record record{.url = std::string(urls_[r.url]),
                      .next_url = text(r.next_url),
                      .error = text(r.error),
                      .failure = text(r.failure),
                      .tries = r.tries,
                      .size = r.size,
                      .content_type = text(r.content_type),
                      .encoding = text(r.encoding),
                      .num_urls = r.num_urls,
                      .num_new_urls = r.num_new_urls};
  if (r.status != 0) record.status = r.status;
  if (r.referrer != kNone) record.referrer = std::string(urls_[r.referrer]);
  return record;
}

std::uint32_t crawl_store::label(const std::optional<std::string>& text) {
  if (!text) return kNone;
  if (const auto it = label_ids_.find(*text); it != label_ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(labels_.size());
  label_ids_.emplace(labels_.emplace_back(*text), id);
  return id;
}

std::optional<std::string> crawl_store::text(std::uint32_t label) const {
  if (label == kNone) return std::nullopt;
  return labels_[label];
}

}  // namespace corocrawl
