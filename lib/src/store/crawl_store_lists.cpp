// The crawl store's lists of URLs it did not check: those left unchecked (a stop, max_urls,
// a robots.txt that could not be read) and those a rule skipped. Each item is built when a
// report reads it, so that a large crawl stopped midway, whose waiting URLs may be most of
// the ones it found, lists them for 4 bytes each rather than a struct of strings each.

#include <memory>
#include <utility>
#include <vector>

#include "store/crawl_store.hpp"

namespace corocrawl {

// The URLs `ids` (sorted by URL) of `store` as a list's source, each item built by `Read`.
template <class T, void (crawl_store::*Read)(crawl_store::url_id, T&) const>
class crawl_store::url_list_source final : public item_source<T> {
 public:
  url_list_source(std::shared_ptr<const crawl_store> store, std::vector<url_id> ids)
      : store_(std::move(store)), ids_(std::move(ids)) {}
  std::size_t size() const override { return ids_.size(); }
  void read(std::size_t index, T& into) const override { ((*store_).*Read)(ids_[index], into); }

 private:
  std::shared_ptr<const crawl_store> store_;
  std::vector<url_id> ids_;
};

built_list<unchecked_url> crawl_store::unchecked(std::shared_ptr<const crawl_store> store) {
  std::vector<url_id> ids;
  for (url_id id = 0; id < store->entries_.size(); ++id) {
    const entry& e = store->entries_[id];
    if (!e.finished && !store->is_skipped(e)) ids.push_back(id);
  }
  ids = store->sorted_by_url(std::move(ids));
  using source = url_list_source<unchecked_url, &crawl_store::read_unchecked>;
  return built_list<unchecked_url>(std::make_shared<source>(std::move(store), std::move(ids)));
}

built_list<skipped_url> crawl_store::skipped(std::shared_ptr<const crawl_store> store) {
  std::vector<url_id> ids;
  for (url_id id = 0; id < store->entries_.size(); ++id) {
    if (store->is_skipped(store->entries_[id])) ids.push_back(id);
  }
  ids = store->sorted_by_url(std::move(ids));
  using source = url_list_source<skipped_url, &crawl_store::read_skipped>;
  return built_list<skipped_url>(std::make_shared<source>(std::move(store), std::move(ids)));
}

void crawl_store::read_unchecked(url_id id, unchecked_url& into) const {
  into.url.assign(urls_[id]);
  into.referrer = first_referrer(id);
  into.reason = entries_[id].held ? text(entries_[id].error) : std::nullopt;
}

void crawl_store::read_skipped(url_id id, skipped_url& into) const {
  into.url.assign(urls_[id]);
  into.reason = labels_[entries_[id].error];
  into.referrer = first_referrer(id);
  into.referrers = referrers(id);
  into.sources = sources(id);
}

}  // namespace corocrawl
