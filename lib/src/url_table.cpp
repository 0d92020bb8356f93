#include "url_table.hpp"

#include <cstring>
#include <functional>

namespace corocrawl {

std::optional<url_table::id> url_table::find(std::string_view url) const {
  if (slots_.empty()) return std::nullopt;
  const id found = slots_[slot_of(url)];
  if (found == kEmpty) return std::nullopt;
  return found;
}

url_table::id url_table::add(std::string_view url) {
  // At most 70% full: linear probing stays short, and the index costs 6-12 bytes a URL.
  if ((urls_.size() + 1) * 10 > slots_.size() * 7) grow();
  const auto added = static_cast<id>(urls_.size());
  urls_.push_back(store(url));
  slots_[slot_of(url)] = added;
  return added;
}

std::size_t url_table::slot_of(std::string_view url) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = std::hash<std::string_view>{}(url)&mask;; slot = (slot + 1) & mask) {
    const id here = slots_[slot];
    if (here == kEmpty || urls_[here] == url) return slot;
  }
}

std::string_view url_table::store(std::string_view url) {
  if (url.size() > free_size_) {
    const std::size_t size = std::max(kBlockSize, url.size());
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
    free_ = blocks_.back().get();
    free_size_ = size;
  }
  std::memcpy(free_, url.data(), url.size());
  const std::string_view stored(free_, url.size());
  free_ += url.size();
  free_size_ -= url.size();
  return stored;
}

void url_table::grow() {
  slots_.assign(std::max<std::size_t>(1024, slots_.size() * 2), kEmpty);
  for (id i = 0; i < urls_.size(); ++i)
    slots_[slot_of(urls_[i])] = i;
}

}  // namespace corocrawl
