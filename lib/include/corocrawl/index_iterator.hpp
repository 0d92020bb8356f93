#pragma once
// A random-access position in a sequence read by index: a built_list, whose items are built
// when read, or one of the crawl's tables. `Read{}(owner, index)` gives the item: a reference
// into the sequence, or a value built for the reader (then the iterator is an input iterator
// by its category, and random access by its concept).

#include <compare>
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace corocrawl {

template <class Owner, class Read>
class index_iterator {
 public:
  using reference = decltype(Read{}(std::declval<Owner&>(), std::size_t{}));
  using value_type = std::remove_cvref_t<reference>;
  using difference_type = std::ptrdiff_t;
  using iterator_concept = std::random_access_iterator_tag;
  using iterator_category =
      std::conditional_t<std::is_lvalue_reference_v<reference>, std::random_access_iterator_tag,
                         std::input_iterator_tag>;

  index_iterator() = default;
  index_iterator(Owner* owner, std::size_t index) : owner_(owner), index_(index) {}
  reference operator*() const { return Read{}(*owner_, index_); }
  reference operator[](difference_type n) const { return *(*this + n); }
  index_iterator& operator++() { return *this += 1; }
  index_iterator operator++(int) { return std::exchange(*this, *this + 1); }
  index_iterator& operator--() { return *this -= 1; }
  index_iterator operator--(int) { return std::exchange(*this, *this - 1); }
  index_iterator& operator+=(difference_type n) {
    index_ = static_cast<std::size_t>(static_cast<difference_type>(index_) + n);
    return *this;
  }
  index_iterator& operator-=(difference_type n) { return *this += -n; }
  friend index_iterator operator+(index_iterator it, difference_type n) { return it += n; }
  friend index_iterator operator+(difference_type n, index_iterator it) { return it += n; }
  friend index_iterator operator-(index_iterator it, difference_type n) { return it -= n; }
  friend difference_type operator-(const index_iterator& a, const index_iterator& b) {
    return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
  }
  friend bool operator==(const index_iterator& a, const index_iterator& b) {
    return a.index_ == b.index_;
  }
  friend auto operator<=>(const index_iterator& a, const index_iterator& b) {
    return a.index_ <=> b.index_;
  }

 private:
  Owner* owner_ = nullptr;
  std::size_t index_ = 0;
};

}  // namespace corocrawl
