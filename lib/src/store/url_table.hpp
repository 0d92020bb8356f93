#pragma once
// The URLs of a crawl, each stored once and known by number: a URL costs its text past its
// origin's ("scheme://authority/", kept once for all the URLs that begin with it), a byte or
// two naming that origin, a byte of its size (three from 255 bytes on), four bytes of
// reference and 12-23 bytes of index, with no allocation per URL. At a million URLs of one
// site, the origin was half of each text. (Any text known by number can be kept so, whole:
// fragment_checks keeps its fragments in one.)
//
// A slot of the index holds the id and 32 bits of the URL's hash that did not choose the
// slot: a probe reads another URL's reference and text only when those bits agree. At a
// million URLs the tables are far larger than the caches, and each reference and text read
// was a cache miss, two for every slot a probe passed.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/table_memory.hpp"
#include "text/split_text.hpp"

namespace corocrawl {

class url_table {
 public:
  using id = std::uint32_t;

  /// Whether the table keeps the origins of URLs once (a fragment, say, is no URL even
  /// where it looks like one).
  enum class origins : bool { whole, shared };
  /// What the table finds a text by: its url_hash(), or its id_hash() (id_key()), which a
  /// page's parse computed for its fragments already.
  enum class keys : bool { url, id };
  explicit url_table(origins kept = origins::shared, keys keyed = keys::url)
      : share_origins_(kept == origins::shared), id_keys_(keyed == keys::id) {}

  /// The id of `url`, if it was added.
  std::optional<id> find(std::string_view url) const { return find(url, key(url)); }
  /// The same, for `h` the key() of `url`.
  std::optional<id> find(std::string_view url, std::size_t h) const;
  /// Adds `url`, which must not be in the table yet, and returns its id: ids count from 0.
  id add(std::string_view url) { return add(url, key(url)); }
  /// The same, for `h` the key() of `url`.
  id add(std::string_view url, std::size_t h);
  /// The URL of `i` (< size()), as its origin and the rest; the views stay valid as long
  /// as the table.
  split_text operator[](id i) const;
  /// The text of `i`, of a table of origins::whole.
  std::string_view whole(id i) const { return (*this)[i].tail; }
  std::size_t size() const { return refs_.size(); }
  /// Frees the index: find() finds nothing after it, and the next add() builds it again.
  void drop_index() { slots_ = {nullptr, slots_free{0}}; }

  /// The hash find() and add() look a URL up by in a table of keys::url: url_hash(url).
  static std::size_t hash(std::string_view url);
  /// The same in a table of keys::id, for a text of id_hash() `id_hash`: the 32 bits in both
  /// halves, as the low half chooses the slot and the high half tells texts apart.
  static std::size_t id_key(std::uint32_t id_hash) {
    return (std::size_t{id_hash} << 32) | id_hash;
  }
  /// The hash find() and add() look `text` up by in this table.
  std::size_t key(std::string_view text) const;
  /// Starts reading the index where `url` of hash `h` would be, for a find soon after.
  void prefetch_slot(std::size_t h) const {
    if (slot_count() != 0) __builtin_prefetch(&slots_[h & (slot_count() - 1)]);
  }
  /// The id a find() of hash `h` will most likely answer (the first slot whose tag agrees),
  /// without reading any text; none when no slot agrees.
  std::optional<id> likely(std::size_t h) const;
  /// Starts reading the text of `i`.
  void prefetch_text(id i) const;
  /// Starts reading the reference of `i`.
  void prefetch_ref(id i) const { __builtin_prefetch(&refs_[i]); }

 private:
  static constexpr id kEmpty = 0xffff'ffff;
  static constexpr std::size_t kBlockBits = 20;  // 1 MiB blocks
  static constexpr std::size_t kBlockSize = std::size_t{1} << kBlockBits;
  static constexpr std::uint32_t kApart = 0x8000'0000;  // a ref with this bit: an index into apart_
  static constexpr unsigned char kLongSize = 0xff;
  static_assert(kBlockSize / 16 <= 0x10000, "a text in a block has a size of two bytes at most");

  struct slot {
    id url = kEmpty;
    std::uint32_t tag = 0;  // the high half of the URL's hash
  };
  // Where `url`, of hash `h`, is, or the free slot for it.
  std::size_t slot_of(std::string_view url, std::size_t h) const;
  std::uint32_t store(std::string_view url);
  // The number of the origin `url` begins with (from 1), after adding it if need be; 0 when
  // it is kept whole.
  std::uint32_t origin_of(std::string_view url);
  void grow();

  static constexpr std::uint32_t kMaxOrigins = 0x3fff;  // named in two bytes at most

  // The URLs' text past their origin, each after its origin's number and its size, back to
  // back in blocks. The number: a byte below 0x80, else two (seven bits in each), 0 for none.
  // The size: a byte below kLongSize, else kLongSize and two bytes, little-endian (a probe
  // compares sizes before bytes, and nothing reads a text to find its end). A ref is the
  // offset of the number in the blocks taken as one run (4 bytes instead of a 16-byte view);
  // a URL that is very long or would not fit below kApart is kept apart, whole.
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t used_ = kBlockSize;    // in the last block
  table_array<std::uint32_t> refs_;  // by id
  std::deque<std::string> apart_;
  bool share_origins_;
  bool id_keys_;
  std::deque<std::string> origins_;                                     // by number - 1
  std::unordered_map<std::string_view, std::uint32_t> origin_numbers_;  // views into origins_
  std::string rehashed_;                                                // grow()'s scratch
  // Open addressing with linear probing; kEmpty is free.
  struct slots_free {
    std::size_t count;
    void operator()(slot* slots) const { free_table(slots, count * sizeof(slot), true); }
  };
  std::unique_ptr<slot[], slots_free> slots_{nullptr, slots_free{0}};
  std::size_t slot_count() const { return slots_.get_deleter().count; }  // what it frees
};

}  // namespace corocrawl
