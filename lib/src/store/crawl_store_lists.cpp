// The crawl store's lists of URLs it did not check: those left unchecked (a stop, max_urls,
// a robots.txt that could not be read) and those a rule skipped. Each item is built when a
// report reads it, so that a large crawl stopped midway, whose waiting URLs may be most of
// the ones it found, lists them for 4 bytes each rather than a struct of strings each.

#include <memory>
#include <utility>
#include <vector>

#include "store/crawl_store.hpp"

namespace corocrawl {

// The URLs of `store` whose entry `keep` accepts, by URL, as a list's source, each item built
// by `Read`.
template <class T, void (crawl_store::*Read)(crawl_store::url_id, T&) const>
class crawl_store::url_list_source final : public item_source<T> {
 public:
  template <class Keep>
  url_list_source(std::shared_ptr<const crawl_store> store, Keep keep) : store_(std::move(store)) {
    for (url_id id = 0; id < store_->entries_.size(); ++id) {
      if (keep(*store_, store_->entries_[id])) ids_.push_back(id);
    }
    ids_ = store_->sorted_by_url(std::move(ids_));
  }
  std::size_t size() const override { return ids_.size(); }
  void read(std::size_t index, T& into) const override { ((*store_).*Read)(ids_[index], into); }

 private:
  std::shared_ptr<const crawl_store> store_;
  std::vector<url_id> ids_;
};

built_list<unchecked_url> crawl_store::unchecked(std::shared_ptr<const crawl_store> store) {
  using source = url_list_source<unchecked_url, &crawl_store::read_unchecked>;
  return built_list<unchecked_url>(std::make_shared<source>(
      std::move(store),
      [](const crawl_store& s, const entry& e) { return !e.finished && !s.is_skipped(e); }));
}

built_list<skipped_url> crawl_store::skipped(std::shared_ptr<const crawl_store> store) {
  using source = url_list_source<skipped_url, &crawl_store::read_skipped>;
  return built_list<skipped_url>(std::make_shared<source>(
      std::move(store), [](const crawl_store& s, const entry& e) { return s.is_skipped(e); }));
}

}  // namespace corocrawl
