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

url_table::id url_table::add(std::string_view url, std::size_t h) {
  // At most 70% full: linear probing stays short, and the index costs 12-23 bytes a URL.
  if ((refs_.size() + 1) * 10 > slot_count() * 7) grow();
  const auto added = static_cast<id>(refs_.size());
  refs_.push_back(store(url));
  slots_[slot_of(url, h)] = {added, static_cast<std::uint32_t>(h >> 32)};
  return added;
}

split_text url_table::operator[](id i) const {
  const std::uint32_t ref = refs_[i];
  if ((ref & kApart) != 0) return {{}, apart_[ref & ~kApart]};
  const auto* text = reinterpret_cast<const unsigned char*>(blocks_[ref >> kBlockBits].get()) +
                     (ref & (kBlockSize - 1));
  std::uint32_t origin = *text++;
  if (origin >= 0x80) origin = (origin & 0x7f) | (std::uint32_t{*text++} << 7);
  std::size_t size = *text++;
  if (size == kLongSize) {
    size = text[0] | (std::size_t{text[1]} << 8);
    text += 2;
  }
  return {origin == 0 ? std::string_view() : std::string_view(origins_[origin - 1]),
          {reinterpret_cast<const char*>(text), size}};
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

std::size_t url_table::key(std::string_view text) const {
  return id_keys_ ? id_key(id_hash(text)) : hash(text);
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
  if (url.size() >= kBlockSize / 16) {
    apart_.emplace_back(url);
    return kApart | static_cast<std::uint32_t>(apart_.size() - 1);
  }
  const std::uint32_t origin = origin_of(url);
  const std::string_view tail = url.substr(origin == 0 ? 0 : origins_[origin - 1].size());
  const std::size_t stored =
      (origin < 0x80 ? 1 : 2) + (tail.size() < kLongSize ? 1 : 3) + tail.size();
  if (stored > kBlockSize - used_) {
    if (blocks_.size() == kApart >> kBlockBits) {  // refs would reach kApart
      apart_.emplace_back(url);
      return kApart | static_cast<std::uint32_t>(apart_.size() - 1);
    }
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(kBlockSize));
    used_ = 0;
  }
  auto* text = reinterpret_cast<unsigned char*>(blocks_.back().get()) + used_;
  if (origin < 0x80) {
    *text++ = static_cast<unsigned char>(origin);
  } else {
    *text++ = static_cast<unsigned char>(0x80 | (origin & 0x7f));
    *text++ = static_cast<unsigned char>(origin >> 7);
  }
  if (tail.size() < kLongSize) {
    *text++ = static_cast<unsigned char>(tail.size());
  } else {  // below kBlockSize / 16: two bytes
    *text++ = kLongSize;
    *text++ = static_cast<unsigned char>(tail.size() & 0xff);
    *text++ = static_cast<unsigned char>(tail.size() >> 8);
  }
  std::memcpy(text, tail.data(), tail.size());
  const auto ref = static_cast<std::uint32_t>(((blocks_.size() - 1) << kBlockBits) + used_);
  used_ += stored;
  return ref;
}

std::uint32_t url_table::origin_of(std::string_view url) {
  if (!share_origins_) return 0;
  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return 0;
  const std::size_t path = url.find('/', scheme_end + 3);
  if (path == std::string_view::npos) return 0;
  const std::string_view origin = url.substr(0, path + 1);
  if (const auto known = origin_numbers_.find(origin); known != origin_numbers_.end())
    return known->second;
  if (origins_.size() == kMaxOrigins) return 0;  // the rest are kept whole
  const auto number = static_cast<std::uint32_t>(origins_.size() + 1);
  origin_numbers_.emplace(origins_.emplace_back(origin), number);
  return number;
}

void url_table::grow() {
  std::size_t count = std::max<std::size_t>(1024, slot_count() * 2);
  while ((refs_.size() + 1) * 10 > count * 7)  // after drop_index(), for all the URLs at once
    count *= 2;
  std::unique_ptr<slot[], slots_free> grown(
      static_cast<slot*>(allocate_table(count * sizeof(slot), true)), slots_free{count});
  std::uninitialized_fill_n(grown.get(), count, slot{});
  slots_ = std::move(grown);  // rebuilt from the texts, not from the old index
  for (id i = 0; i < refs_.size(); ++i) {
    const split_text stored = (*this)[i];
    const std::string_view url = stored.head.empty() ? stored.tail : stored.assign_to(rehashed_);
    const std::size_t h = key(url);
    slots_[slot_of(url, h)] = {i, static_cast<std::uint32_t>(h >> 32)};
  }
}

}  // namespace corocrawl
