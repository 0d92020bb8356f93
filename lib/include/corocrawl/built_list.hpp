#pragma once
// A read-only random-access range whose items are built when they are read. A crawl keeps
// what it found in compact tables (URLs stored once, referred to by number), so a million
// records or broken links cost a fraction of a million structs, and writing them out needs
// only one at a time. Copies of a list share its items.

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "corocrawl/index_iterator.hpp"

namespace corocrawl {

/// Where a built_list's items come from: the crawl's own tables, or a vector for a list made
/// by hand. A library user reads items through built_list and never needs one.
template <typename T>
class item_source {
 public:
  virtual ~item_source() = default;
  virtual std::size_t size() const = 0;
  /// Builds item `index` (< size()) into `into`, whose strings and vectors may keep their
  /// memory for it.
  virtual void read(std::size_t index, T& into) const = 0;
  /// Builds item `index` (< size()) into `into` as read() does, but may leave out the lists
  /// of where it was found, which a source gathers from elsewhere (a broken link's sources
  /// and referrers, then empty). By default the whole item.
  virtual void read_without_places(std::size_t index, T& into) const { read(index, into); }
  /// Item `index` (< size()), built afresh.
  T at(std::size_t index) const {
    T item;
    read(index, item);
    return item;
  }
};

template <typename T>
class built_list {
 public:
  // Reading gives values, not references.
  struct read_item {
    T operator()(const item_source<T>& source, std::size_t index) const { return source.at(index); }
  };
  using iterator = index_iterator<const item_source<T>, read_item>;

  built_list() = default;
  built_list(std::vector<T> items)  // NOLINT: implicit, for lists made by hand
      : source_(std::make_shared<vector_source>(std::move(items))) {}
  built_list(std::initializer_list<T> items) : built_list(std::vector<T>(items)) {}
  explicit built_list(std::shared_ptr<const item_source<T>> source) : source_(std::move(source)) {}

  std::size_t size() const { return source_ ? source_->size() : 0; }
  bool empty() const { return size() == 0; }
  T operator[](std::size_t index) const { return source_->at(index); }
  /// Throws std::out_of_range when `index` >= size().
  T at(std::size_t index) const {
    if (index >= size())
      throw std::out_of_range("built_list::at: no item " + std::to_string(index));
    return (*this)[index];
  }
  /// Calls `visit` with each item in order, all built into one T in turn, so that reading a
  /// long list allocates little: an item is valid until the next call. Stops when `visit`
  /// returns false; returns whether every item was visited.
  template <class Visit>
  bool for_each(Visit visit) const {
    return for_each(0, size(), std::move(visit));
  }
  /// for_each over the items `first` to `last` - 1 (last <= size()). Lists the crawl built
  /// can be read so from several threads at once.
  template <class Visit>
  bool for_each(std::size_t first, std::size_t last, Visit visit) const {
    return visit_each(first, last, &item_source<T>::read, std::move(visit));
  }
  /// for_each with each item built by its source's read_without_places(): for counting or
  /// choosing items by what they are.
  template <class Visit>
  bool for_each_without_places(Visit visit) const {
    return visit_each(0, size(), &item_source<T>::read_without_places, std::move(visit));
  }

  T front() const { return (*this)[0]; }
  T back() const { return (*this)[size() - 1]; }
  iterator begin() const { return {source_.get(), 0}; }
  iterator end() const { return {source_.get(), size()}; }

  /// The items at `indexes` (each < size()), in that order, sharing this list's source.
  built_list picked(std::vector<std::size_t> indexes) const {
    return built_list(std::make_shared<picked_source>(source_, std::move(indexes)));
  }

 private:
  template <class Visit>
  bool visit_each(std::size_t first, std::size_t last,
                  void (item_source<T>::*read)(std::size_t, T&) const, Visit visit) const {
    T item;
    for (std::size_t i = first; i < last; ++i) {
      ((*source_).*read)(i, item);
      if (!visit(static_cast<const T&>(item))) return false;
    }
    return true;
  }

  class vector_source final : public item_source<T> {
   public:
    explicit vector_source(std::vector<T> items) : items_(std::move(items)) {}
    std::size_t size() const override { return items_.size(); }
    void read(std::size_t index, T& into) const override { into = items_[index]; }

   private:
    std::vector<T> items_;
  };

  class picked_source final : public item_source<T> {
   public:
    picked_source(std::shared_ptr<const item_source<T>> all, std::vector<std::size_t> indexes)
        : all_(std::move(all)), indexes_(std::move(indexes)) {}
    std::size_t size() const override { return indexes_.size(); }
    void read(std::size_t index, T& into) const override { all_->read(indexes_[index], into); }
    void read_without_places(std::size_t index, T& into) const override {
      all_->read_without_places(indexes_[index], into);
    }

   private:
    std::shared_ptr<const item_source<T>> all_;
    std::vector<std::size_t> indexes_;
  };

  std::shared_ptr<const item_source<T>> source_;
};

}  // namespace corocrawl
