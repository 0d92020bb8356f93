// The crawl store's problems: the broken links, warnings and rate-limited URLs, each built
// from the tables when a report reads it, with the references to missing fragments grouped
// into broken links of their own.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <utility>

#include "store/crawl_store.hpp"

namespace corocrawl {

namespace {

constexpr std::uint32_t kFragmentGroup = 0x8000'0000;  // an item that is a fragment group

}  // namespace

// Compares without joining the pieces.
bool crawl_store::joined_less(const joined_url& a, const joined_url& b) {
  std::size_t ia = 0;
  std::size_t ib = 0;
  std::string_view ra = a[0];
  std::string_view rb = b[0];
  for (;;) {
    while (ra.empty() && ++ia < a.size())
      ra = a[ia];
    while (rb.empty() && ++ib < b.size())
      rb = b[ib];
    if (ra.empty() || rb.empty()) return ra.empty() && !rb.empty();
    const std::size_t n = std::min(ra.size(), rb.size());
    if (const int c = std::memcmp(ra.data(), rb.data(), n); c != 0) return c < 0;
    ra.remove_prefix(n);
    rb.remove_prefix(n);
  }
}

// The problems of one verdict as a list's source: the store's items, sorted by URL.
class crawl_store::problem_source final : public item_source<broken_link> {
 public:
  problem_source(std::shared_ptr<const crawl_store> store, verdict meaning)
      : store_(std::move(store)), items_(store_->problem_items(meaning)) {}
  std::size_t size() const override { return items_.size(); }
  broken_link at(std::size_t index) const override { return store_->problem_item(items_[index]); }

 private:
  std::shared_ptr<const crawl_store> store_;
  std::vector<std::uint32_t> items_;  // url ids, or kFragmentGroup | a fragment group
};

broken_list crawl_store::problems(std::shared_ptr<const crawl_store> store, verdict meaning) {
  return broken_list(std::make_shared<problem_source>(std::move(store), meaning));
}

void crawl_store::group_missing_fragments() {
  fragments_.sort_missing();
  const auto& all = fragments_.missing_fragments();
  const auto starts_group = [&all](std::uint32_t k) {
    return k == 0 || all[k].target != all[k - 1].target || all[k].fragment != all[k - 1].fragment;
  };
  std::size_t groups = 0;
  for (std::uint32_t k = 0; k < all.size(); ++k)
    groups += starts_group(k) ? 1 : 0;
  fragment_groups_.clear();
  fragment_groups_.reserve(groups);  // exactly: there may be millions
  for (std::uint32_t k = 0; k < all.size(); ++k) {
    if (starts_group(k)) fragment_groups_.emplace_back(k, k);
    fragment_groups_.back().second = k + 1;
  }
  std::ranges::sort(fragment_groups_, [this](const auto& a, const auto& b) {
    return joined_less(group_url(a), group_url(b));
  });
}

crawl_store::joined_url crawl_store::group_url(const fragment_group& group) const {
  const auto& first = fragments_.missing_fragments()[group.first];
  return {urls_[first.target], "#", fragments_.fragment(first.fragment)};
}

std::vector<std::uint32_t> crawl_store::problem_items(verdict meaning) const {
  std::vector<std::uint32_t> ids;
  for (const url_id id : order_) {  // by URL
    if (entries_[id].keeps_referrers && this->meaning(id) == meaning) ids.push_back(id);
  }
  if (meaning != verdict::broken || fragment_groups_.empty()) return ids;
  // Missing fragments are broken links too, merged in by their text ("page#fragment").
  std::vector<std::uint32_t> items;
  items.reserve(ids.size() + fragment_groups_.size());
  std::size_t next_id = 0;
  for (std::uint32_t group = 0; group < fragment_groups_.size(); ++group) {
    const joined_url url = group_url(fragment_groups_[group]);
    while (next_id < ids.size() && joined_less({urls_[ids[next_id]]}, url))
      items.push_back(ids[next_id++]);
    items.push_back(kFragmentGroup | group);
  }
  items.insert(items.end(), ids.begin() + static_cast<std::ptrdiff_t>(next_id), ids.end());
  return items;
}

broken_link crawl_store::problem_item(std::uint32_t item) const {
  if ((item & kFragmentGroup) == 0) return problem(item);
  const auto& [begin, end] = fragment_groups_[item & ~kFragmentGroup];
  const auto& all = fragments_.missing_fragments();
  const auto& first = all[begin];
  broken_link link{.url = std::string(urls_[first.target]) + "#" +
                          std::string(fragments_.fragment(first.fragment)),
                   .error = "missing fragment"};
  const auto page = page_state_of(first.target).page;
  if (entries_[page].status != 0) link.status = entries_[page].status;
  link.sources.reserve(end - begin);
  for (std::uint32_t k = begin; k < end; ++k)
    link.sources.push_back(source_of(all[k].source));
  std::ranges::sort(link.sources);
  for (const auto& source : link.sources) {
    if (link.referrers.empty() || link.referrers.back() != source.page)
      link.referrers.push_back(source.page);
  }
  return link;
}

link_source crawl_store::source_of(const stored_source& source) const {
  const auto& [element, attribute] = tags_[source.tag];
  return {.page = std::string(urls_[source.page]),
          .element = element,
          .attribute = attribute,
          .line = source.line,
          .column = source.column};
}

std::vector<link_source> crawl_store::sources(url_id id) const {
  std::vector<link_source> all;
  for (const stored_source& source : source_lists_.entries(entries_[id].sources))
    all.push_back(source_of(source));
  std::ranges::sort(all);
  return all;
}

broken_link crawl_store::problem(url_id id) const {
  const auto& e = entries_[id];
  broken_link link{.url = std::string(urls_[id]),
                   .error = text(e.error),
                   .referrers = referrers(id),
                   .sources = sources(id),
                   .external = e.external};
  if (e.status != 0) link.status = e.status;
  return link;
}

std::vector<std::string> crawl_store::referrers(url_id id) const {
  std::vector<std::string> pages;
  for (const url_id page : referrer_lists_.ids(entries_[id].referrers))
    pages.emplace_back(urls_[page]);
  std::ranges::sort(pages);
  pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
  return pages;
}

}  // namespace corocrawl
