#include "crawl_store.hpp"

#include <algorithm>

namespace corocrawl {

static_assert(sizeof(crawl_store::url_id) == 4);

crawl_store::url_id crawl_store::add_url(std::string_view url, std::optional<url_id> referrer) {
  const url_id id = urls_.add(url);
  auto& added = entries_.emplace_back();
  if (referrer) {
    added.referrer = *referrer;
    referrer_lists_.add(added.referrers, *referrer);
  }
  return id;
}

void crawl_store::note_link(url_id from, url_id to) {
  auto& target = entries_[to];
  if (!target.finished || target.keeps_referrers) referrer_lists_.add(target.referrers, from);
}

void crawl_store::finish(url_id id, const fetch_record& record, bool keep_referrers) {
  auto& done = entries_[id];
  done.finished = true;
  done.keeps_referrers = keep_referrers;
  if (!keep_referrers) referrer_lists_.clear(done.referrers);
  done.size_low = static_cast<std::uint32_t>(record.size);
  done.size_high = static_cast<std::uint32_t>(record.size >> 32);
  done.num_urls = static_cast<std::uint32_t>(record.num_urls);
  done.num_new_urls = static_cast<std::uint32_t>(record.num_new_urls);
  done.tries = record.tries;
  done.status = static_cast<std::uint16_t>(record.status.value_or(0));
  done.next_url = label(record.next_url);
  done.error = label(record.error);
  done.kind = kind_of(record);
}

std::vector<std::string> crawl_store::referrers(url_id id) const {
  std::vector<std::string> pages;
  for (const url_id page : referrer_lists_.ids(entries_[id].referrers))
    pages.emplace_back(urls_[page]);
  std::ranges::sort(pages);
  pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
  return pages;
}

void crawl_store::sort_by_url() {
  order_.clear();
  for (url_id id = 0; id < entries_.size(); ++id) {
    if (entries_[id].finished) order_.push_back(id);
  }
  std::ranges::sort(order_, {}, [this](url_id id) { return urls_[id]; });
}

fetch_record crawl_store::at(std::size_t index) const {
  const url_id id = order_[index];
  const auto& e = entries_[id];
  const record_kind kind = e.kind == kNone ? record_kind{kNone, kNone, kNone} : kinds_[e.kind];
  fetch_record record{.url = std::string(urls_[id]),
                      .next_url = text(e.next_url),
                      .error = text(e.error),
                      .failure = text(kind.failure),
                      .tries = e.tries,
                      .size = (std::uint64_t{e.size_high} << 32) | e.size_low,
                      .content_type = text(kind.content_type),
                      .encoding = text(kind.encoding),
                      .num_urls = e.num_urls,
                      .num_new_urls = e.num_new_urls};
  if (e.status != 0) record.status = e.status;
  if (e.referrer != kNone) record.referrer = std::string(urls_[e.referrer]);
  return record;
}

std::uint32_t crawl_store::label(const std::optional<std::string>& text) {
  if (!text) return kNone;
  if (const auto it = label_ids_.find(*text); it != label_ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(labels_.size());
  label_ids_.emplace(labels_.emplace_back(*text), id);
  return id;
}

std::uint32_t crawl_store::kind_of(const fetch_record& record) {
  const record_kind kind{label(record.content_type), label(record.encoding), label(record.failure)};
  // Few kinds (text/html; utf-8, image/png, a failure...): a linear search is enough, but a
  // server that sends a new content type each time must not make it quadratic.
  const auto recent = kinds_.size() > 64 ? kinds_.end() - 64 : kinds_.begin();
  if (const auto it = std::find(recent, kinds_.end(), kind); it != kinds_.end())
    return static_cast<std::uint32_t>(it - kinds_.begin());
  kinds_.push_back(kind);
  return static_cast<std::uint32_t>(kinds_.size() - 1);
}

std::optional<std::string> crawl_store::text(std::uint32_t label) const {
  if (label == kNone) return std::nullopt;
  return labels_[label];
}

}  // namespace corocrawl
