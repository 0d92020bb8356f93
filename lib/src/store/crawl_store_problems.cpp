// The crawl store's problems: the broken links, warnings and rate-limited URLs, each built
// from the tables when a report reads it, with the references to missing fragments grouped
// into broken links of their own.

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "store/crawl_store.hpp"
#include "store/url_order.hpp"

namespace corocrawl {

namespace {

constexpr std::uint32_t kFragmentGroup = 0x8000'0000;  // an item that is a fragment group

// Up to this many places are sorted as strings: ranking their pages and tags takes vectors
// of its own, and a missing fragment's group has one or two places most often.
constexpr std::size_t kFewPlaces = 16;

// The distinct values of `field` among `places`, sorted as numbers, and each one's rank once
// `order` has sorted them as the report does: of() gives a value's.
class ranks {
 public:
  template <class Order>
  ranks(std::span<const stored_source> places, std::uint32_t stored_source::*field, Order order) {
    for (const stored_source& place : places)
      values_.push_back(place.*field);
    std::ranges::sort(values_);
    values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
    std::vector<std::uint32_t> ordered = values_;
    order(ordered);
    ranks_.resize(values_.size());
    for (std::uint32_t rank = 0; rank < ordered.size(); ++rank)
      ranks_[index_of(ordered[rank])] = rank;
  }
  std::uint32_t of(std::uint32_t value) const { return ranks_[index_of(value)]; }

 private:
  std::size_t index_of(std::uint32_t value) const {
    return static_cast<std::size_t>(std::ranges::lower_bound(values_, value) - values_.begin());
  }
  std::vector<std::uint32_t> values_;
  std::vector<std::uint32_t> ranks_;
};

}  // namespace

// The problems of one verdict as a list's source: the store's items, sorted by URL.
class crawl_store::problem_source final : public item_source<broken_link> {
 public:
  problem_source(std::shared_ptr<const crawl_store> store, verdict meaning)
      : store_(std::move(store)), order_(store_->problem_items(meaning)) {}
  std::size_t size() const override { return order_.size; }
  void read(std::size_t index, broken_link& into) const override {
    store_->problem_item(item_at(index), into);
  }
  void read_without_places(std::size_t index, broken_link& into) const override {
    store_->problem_item(item_at(index), into, false);
  }

 private:
  // A url id, or kFragmentGroup | a fragment group: the groups fill the places between the
  // URLs', in order.
  std::uint32_t item_at(std::size_t index) const {
    if (order_.size == order_.ids.size()) return order_.ids[index];  // no groups
    const auto urls_before = static_cast<std::size_t>(
        std::ranges::lower_bound(order_.places, index) - order_.places.begin());
    if (urls_before < order_.places.size() && order_.places[urls_before] == index)
      return order_.ids[urls_before];
    return kFragmentGroup | static_cast<std::uint32_t>(index - urls_before);
  }

  std::shared_ptr<const crawl_store> store_;
  problem_order order_;
};

broken_list crawl_store::problems(std::shared_ptr<const crawl_store> store, verdict meaning) {
  return broken_list(std::make_shared<problem_source>(std::move(store), meaning));
}

void crawl_store::group_missing_fragments() {
  // In the order of "page#fragment": the pages by their text as if each ended in '#', which
  // orders "a#x" before "a!b#y" as the joined text does; then each page's groups by their
  // fragment's text.
  fragments_.group_missing(
      [this](std::vector<url_id>& pages) { order_by_text(pages, urls_, '#'); });
}

crawl_store::problem_order crawl_store::problem_items(verdict meaning) const {
  problem_order order;
  std::vector<url_id>& ids = order.ids;
  for (const url_id id : order_) {  // by URL
    if (entries_[id].keeps_referrers && this->meaning(id) == meaning) ids.push_back(id);
  }
  order.size = ids.size();
  if (meaning != verdict::broken || fragments_.group_count() == 0) return order;
  // Missing fragments are broken links too, merged in by their text ("page#fragment"): each
  // URL's place among them is noted, and the groups fill the places between (at a million
  // URLs, 2.3 million groups and a few thousand URLs).
  order.size += fragments_.group_count();
  order.places.reserve(ids.size());
  std::size_t next_id = 0;
  fragments_.for_each_group([&](std::size_t group, const fragment_checks::reference& first) {
    if (next_id < ids.size()) {
      const split_text page = urls_[first.target];
      const std::array<std::string_view, 4> url{page.head, page.tail, "#",
                                                fragments_.fragment(first.fragment)};
      const auto before = [this, &url](url_id id) {
        const split_text broken = urls_[id];
        return pieces_less(std::array{broken.head, broken.tail}, url);
      };
      while (next_id < ids.size() && before(ids[next_id]))
        order.places.push_back(static_cast<std::uint32_t>(next_id++ + group));
    }
  });
  for (; next_id < ids.size(); ++next_id)
    order.places.push_back(static_cast<std::uint32_t>(next_id + fragments_.group_count()));
  return order;
}

broken_link crawl_store::problem_item(std::uint32_t item) const {
  broken_link link;
  problem_item(item, link);
  return link;
}

void crawl_store::problem_item(std::uint32_t item, broken_link& link, bool places_too) const {
  if ((item & kFragmentGroup) == 0) {
    link = problem(item);  // few: the broken URLs themselves
    return;
  }
  // Built into `link`'s own strings and vectors: a million URLs' report reads millions.
  const std::size_t group = item & ~kFragmentGroup;
  // The group's page and fragment, and the page's status, from its first reference.
  const auto name_group = [&](const fragment_checks::reference& first) {
    urls_[first.target].assign_to(link.url).append("#").append(fragments_.fragment(first.fragment));
    const auto page = page_state_of(first.target).page;
    link.status.reset();
    if (entries_[page].status != 0) link.status = entries_[page].status;
    link.error = "missing fragment";
    link.external = false;
  };
  if (!places_too) {
    name_group(fragments_.first_in_group(group));
    link.sources.clear();
    link.referrers.clear();
    return;
  }
  const std::size_t size = fragments_.group_size(group);
  // Its places as numbers, read in order after: most groups' one or two here, not in a vector.
  std::array<stored_source, kFewPlaces> few;
  std::vector<stored_source> many;
  if (size > kFewPlaces) many.resize(size);
  const std::span<stored_source> places =
      size > kFewPlaces ? std::span<stored_source>(many) : std::span(few).first(size);
  std::size_t k = 0;
  fragments_.for_each_in_group(group, [&](const fragment_checks::reference& r) {
    if (k == 0) name_group(r);  // the group is read once
    places[k++] = fragments_.source(r);
  });
  read_in_order(places, link.sources);
  std::size_t referrers = 0;
  for (const auto& source : link.sources) {
    if (referrers == 0 || link.referrers[referrers - 1] != source.page) {
      if (referrers == link.referrers.size()) link.referrers.emplace_back();
      link.referrers[referrers++] = source.page;
    }
  }
  link.referrers.resize(referrers);
}

void crawl_store::read_source(const stored_source& source, link_source& into) const {
  const auto& [element, attribute] = tags_[source.tag];
  urls_[source.page].assign_to(into.page);
  into.element.assign(element);
  into.attribute.assign(attribute);
  into.line = source.line;
  into.column = source.column;
}

void crawl_store::read_in_order(std::span<const stored_source> places,
                                std::vector<link_source>& into) const {
  // Sorted as numbers, each page and tag by its rank in the order of its text, and made into
  // strings only then: a URL linked from every page has thousands of places (the Python
  // docs' 404, 1,451), and sorting their strings took a millisecond of each report.
  into.resize(places.size());
  if (places.size() <= kFewPlaces) {
    for (std::size_t k = 0; k < places.size(); ++k)
      read_source(places[k], into[k]);
    std::ranges::sort(into);
    return;
  }
  const ranks pages(places, &stored_source::page,
                    [this](std::vector<std::uint32_t>& ids) { order_by_text(ids, urls_); });
  const ranks tags(places, &stored_source::tag, [this](std::vector<std::uint32_t>& ids) {
    std::ranges::sort(
        ids, {}, [this](std::uint32_t tag) -> const auto& { return tags_[tag]; });
  });
  // Each place's ranks looked up once, not in each of the sort's comparisons (two binary
  // searches each: 8M of the 20M instructions of the Python docs' summary, whose 404 has
  // 1,451 places).
  struct ranked {
    std::array<std::uint32_t, 4> key;  // page's rank, tag's rank, line, column
    std::uint32_t place;               // in places
  };
  std::vector<ranked> order(places.size());
  for (std::size_t k = 0; k < places.size(); ++k) {
    const stored_source& place = places[k];
    order[k] = {{pages.of(place.page), tags.of(place.tag), place.line, place.column},
                static_cast<std::uint32_t>(k)};
  }
  std::ranges::sort(order, {}, &ranked::key);
  for (std::size_t k = 0; k < places.size(); ++k)
    read_source(places[order[k].place], into[k]);
}

std::vector<link_source> crawl_store::sources(url_id id) const {
  std::vector<stored_source> places;
  for (const listed_place& place : places_.places(entries_[id].sources)) {
    if (!place.redirect) places.push_back(place.source);
  }
  std::vector<link_source> all;
  read_in_order(places, all);
  return all;
}

broken_link crawl_store::problem(url_id id) const {
  const auto& e = entries_[id];
  broken_link link{.url = urls_[id].str(),
                   .referrers = referrers(id),
                   .sources = sources(id),
                   .external = e.external};
  if (const auto error = label_view(e.error)) link.error.emplace(*error);
  if (e.status != 0) link.status = e.status;
  return link;
}

std::vector<std::string> crawl_store::referrers(url_id id) const {
  const entry& e = entries_[id];
  std::vector<std::string> pages;
  if (!keeps_sources(e)) return pages;
  // Each page once by its id, and only those made into strings: a URL linked from every page
  // has thousands of places.
  std::vector<url_id> ids;
  if (e.referrer != kNone) ids.push_back(e.referrer);
  for (const listed_place& place : places_.places(e.sources))
    ids.push_back(place.source.page);
  std::ranges::sort(ids);
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  order_by_text(ids, urls_);
  pages.reserve(ids.size());
  for (const url_id page : ids)
    pages.push_back(urls_[page].str());
  return pages;
}

}  // namespace corocrawl
