#pragma once
// The URLs of a crawl, each stored once and known by number: a million URLs take their
// text, a view and a few bytes of index each, with no allocation per URL.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace corocrawl {

class url_table {
 public:
  using id = std::uint32_t;

  /// The id of `url`, if it was added.
  std::optional<id> find(std::string_view url) const;
  /// Adds `url`, which must not be in the table yet, and returns its id: ids count from 0.
  id add(std::string_view url);
  /// The URL of `i` (< size()); the view stays valid as long as the table.
  std::string_view operator[](id i) const { return urls_[i]; }
  std::size_t size() const { return urls_.size(); }

 private:
  static constexpr id kEmpty = 0xffff'ffff;
  static constexpr std::size_t kBlockSize = 256 * 1024;

  std::size_t slot_of(std::string_view url) const;  // where `url` is, or the free slot for it
  std::string_view store(std::string_view url);
  void grow();

  std::vector<std::unique_ptr<char[]>> blocks_;  // the URLs' text, back to back
  char* free_ = nullptr;                         // in the last block
  std::size_t free_size_ = 0;
  std::deque<std::string_view> urls_;  // by id; a deque never moves what it holds
  std::vector<id> slots_;              // open addressing with linear probing; kEmpty is free
};

}  // namespace corocrawl
