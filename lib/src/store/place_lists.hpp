#pragma once
// The places where pages link to each URL that may still turn out broken, one list per URL.
// At a million URLs, some nine million places wait at once for their URLs to be fetched, so
// a place is kept in the few bytes its numbers need (page id, line, column and tag as
// variable-length integers: about 8 bytes, against 16 as a struct), in 32-byte blocks of a
// pool (see pooled_lists). A redirect to the URL is a place of its page without a position.

#include <cstdint>
#include <span>
#include <vector>

#include "store/pooled_lists.hpp"
#include "store/stored_source.hpp"

namespace corocrawl {

/// A place as a list gives it back.
struct listed_place {
  stored_source source;   ///< for a redirect, only its page
  bool redirect = false;  ///< the page redirects to the URL, and has no position
};

class place_lists {
 public:
  using handle = std::uint32_t;
  static constexpr handle kEmpty = 0xffff'ffff;

  void add(handle& list, const stored_source& place);
  void add_redirect(handle& list, std::uint32_t page);
  /// Starts reading the block add() writes to.
  void prefetch(handle list) const { chunks_.prefetch(list); }
  /// Empties `list` and frees its blocks.
  void clear(handle& list) { chunks_.clear(list); }
  /// The places of `list`, in no particular order.
  std::vector<listed_place> places(handle list) const;

  /// See pooled_lists.
  std::size_t bytes_held() const { return chunks_.bytes_held(); }
  std::size_t bytes_used() const { return chunks_.bytes_used(); }
  bool mostly_free() const { return chunks_.mostly_free(); }
  template <class EachList>
  void compact(EachList each_list) {
    chunks_.compact(each_list);
  }

 private:
  // The places of a block, back to back: 28 bytes, with the block's link 32.
  struct chunk {
    std::uint8_t bytes[27];
    std::uint8_t used = 0;
    bool empty() const { return used == 0; }
  };
  static_assert(sizeof(chunk) == 28);
  void append(handle& list, std::span<const std::uint8_t> encoded);

  pooled_lists<chunk, 1> chunks_;
};

}  // namespace corocrawl
