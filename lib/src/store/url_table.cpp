#include "store/url_table.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>

#include "text/text_hashes.hpp"

namespace corocrawl {

std::optional<url_table::id> url_table::find(std::string_view url, std::size_t h) const {
  if (slot_count() == 0) return std::nullopt;
  const id found = slots_[slot_of(url, h)].url;
  if (found == kEmpty) return std::nullopt;
  return found;
}

url_table::id url_table::add(std::string_view url) {
  // At most 70% full: linear probing stays short, and the index costs 12-23 bytes a URL.
  if ((refs_.size() + 1) * 10 > slot_count() * 7) grow();
  const auto added = static_cast<id>(refs_.size());
  refs_.push_back(store(url));
  const std::size_t h = hash(url);
  slots_[slot_of(url, h)] = {added, static_cast<std::uint32_t>(h >> 32)};
  return added;
}

std::string_view url_table::operator[](id i) const {
  const std::uint32_t ref = refs_[i];
  if ((ref & kApart) != 0) return apart_[ref & ~kApart];
  const auto* text = reinterpret_cast<const unsigned char*>(blocks_[ref >> kBlockBits].get()) +
                     (ref & (kBlockSize - 1));
  std::size_t size = text[0];
  ++text;
  if (size == kLongSize) {
    size = text[0] | (std::size_t{text[1]} << 8);
    text += 2;
  }
  return {reinterpret_cast<const char*>(text), size};
}

std::optional<url_table::id> url_table::likely(std::size_t h) const {
  if (slot_count() == 0) return std::nullopt;
  const std::size_t mask = slot_count() - 1;
  const auto tag = static_cast<std::uint32_t>(h >> 32);
  for (std::size_t at = h & mask;; at = (at + 1) & mask) {
    const slot here = slots_[at];
    if (here.url == kEmpty) return std::nullopt;
    if (here.tag == tag) return here.url;
  }
}

void url_table::prefetch_text(id i) const {
  const std::uint32_t ref = refs_[i];
  if ((ref & kApart) == 0)
    __builtin_prefetch(blocks_[ref >> kBlockBits].get() + (ref & (kBlockSize - 1)));
}

std::size_t url_table::hash(std::string_view url) {
  static_assert(sizeof(std::size_t) == 8, "the tag is the hash's high half");
  return url_hash(url);
}

std::size_t url_table::slot_of(std::string_view url, std::size_t h) const {
  const std::size_t mask = slot_count() - 1;  // below 2^32 slots: the tag is other bits
  const auto tag = static_cast<std::uint32_t>(h >> 32);
  for (std::size_t at = h & mask;; at = (at + 1) & mask) {
    const slot here = slots_[at];
    if (here.url == kEmpty || (here.tag == tag && (*this)[here.url] == url)) return at;
  }
}

std::uint32_t url_table::store(std::string_view url) {
  const std::size_t stored = url.size() + (url.size() < kLongSize ? 1 : 3);
  const bool fits = stored <= kBlockSize - used_;
  const bool apart = url.size() >= kBlockSize / 16 ||
                     (!fits && blocks_.size() == kApart >> kBlockBits);  // refs would reach kApart
  if (apart) {
    apart_.emplace_back(url);
    return kApart | static_cast<std::uint32_t>(apart_.size() - 1);
  }
  if (!fits) {
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(kBlockSize));
    used_ = 0;
  }
  auto* text = reinterpret_cast<unsigned char*>(blocks_.back().get()) + used_;
  if (url.size() < kLongSize) {
    *text++ = static_cast<unsigned char>(url.size());
  } else {  // below kBlockSize / 16: two bytes
    *text++ = kLongSize;
    *text++ = static_cast<unsigned char>(url.size() & 0xff);
    *text++ = static_cast<unsigned char>(url.size() >> 8);
  }
  std::memcpy(text, url.data(), url.size());
  const auto ref = static_cast<std::uint32_t>(((blocks_.size() - 1) << kBlockBits) + used_);
  used_ += stored;
  return ref;
}

void url_table::grow() {
  const std::size_t count = std::max<std::size_t>(1024, slot_count() * 2);
  std::unique_ptr<slot[], slots_free> grown(
      static_cast<slot*>(allocate_table(count * sizeof(slot), true)), slots_free{count});
  std::uninitialized_fill_n(grown.get(), count, slot{});
  slots_ = std::move(grown);  // rebuilt from the texts, not from the old index
  for (id i = 0; i < refs_.size(); ++i) {
    const std::string_view url = (*this)[i];
    const std::size_t h = hash(url);
    slots_[slot_of(url, h)] = {i, static_cast<std::uint32_t>(h >> 32)};
  }
}

}  // namespace corocrawl
