#pragma once
// Memory for the crawl's large tables, which are read at random: at a million URLs they take
// hundreds of megabytes, and a read there missed the TLB as well as the caches (a page walk,
// itself often a cache miss, before the miss on the data). Regions of 2 MiB and more are
// aligned to 2 MiB and advised to be backed by transparent huge pages (MADV_HUGEPAGE), one TLB
// entry for 2 MiB instead of 4 KiB, where the system allows it; smaller ones come from the
// heap. table_array keeps a table in such regions, the first one plain, so that a small
// crawl's memory is not rounded up to huge pages.

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "corocrawl/index_iterator.hpp"

namespace corocrawl {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

/// `bytes` of memory aligned for any table element; with `huge` and at least kHugePageBytes,
/// aligned to kHugePageBytes and advised to be backed by huge pages. Throws std::bad_alloc.
void* allocate_table(std::size_t bytes, bool huge);
/// Frees what allocate_table(bytes, huge) gave.
void free_table(void* memory, std::size_t bytes, bool huge) noexcept;

/// A growable array of `T` (trivially copyable, value-initialised when added) in regions of
/// kHugePageBytes: elements never move, and every region but the first is advised to be
/// backed by huge pages. Its memory is apart from the heap's, so that a table that grows
/// through a crawl does not pin the heap's pages that short-lived allocations free around it.
template <class T>
class table_array {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

  template <class Array>
  struct element_at {
    auto& operator()(Array& array, std::size_t index) const { return array[index]; }
  };

 public:
  static constexpr std::size_t kPerRegion = kHugePageBytes / sizeof(T);
  // Random access, to sort the array and to search it.
  using iterator = index_iterator<table_array, element_at<table_array>>;
  using const_iterator = index_iterator<const table_array, element_at<const table_array>>;

  iterator begin() { return {this, 0}; }
  iterator end() { return {this, size_}; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return regions_[i / kPerRegion].get()[i % kPerRegion]; }
  const T& operator[](std::size_t i) const {
    return regions_[i / kPerRegion].get()[i % kPerRegion];
  }
  T& back() { return (*this)[size_ - 1]; }
  /// Elements [first, first + count) as one array when they lie in one region, as all do but
  /// those across a region's end; else (or for none) nullptr.
  const T* contiguous(std::size_t first, std::size_t count) const {
    if (count == 0 || first / kPerRegion != (first + count - 1) / kPerRegion) return nullptr;
    return &(*this)[first];
  }

  /// Adds a value-initialised element and returns it.
  T& emplace_back() {
    if (size_ == regions_.size() * kPerRegion) add_region();
    T* const added = &(*this)[size_];
    ::new (static_cast<void*>(added)) T();
    ++size_;
    return *added;
  }
  void push_back(const T& value) { emplace_back() = value; }
  /// Keeps the first `size` elements (no more than there are) and frees the regions past them.
  void truncate(std::size_t size) {
    if (size >= size_) return;
    size_ = size;
    const auto kept = static_cast<std::ptrdiff_t>((size + kPerRegion - 1) / kPerRegion);
    regions_.erase(regions_.begin() + kept, regions_.end());
  }

 private:
  struct region_free {
    bool huge;
    void operator()(T* region) const { free_table(region, kHugePageBytes, huge); }
  };
  using region = std::unique_ptr<T[], region_free>;

  void add_region() {
    const bool huge = !regions_.empty();
    region added(static_cast<T*>(allocate_table(kHugePageBytes, huge)), region_free{huge});
    regions_.push_back(std::move(added));  // should this throw, `added` frees the region
  }

  std::vector<region> regions_;
  std::size_t size_ = 0;
};

}  // namespace corocrawl
