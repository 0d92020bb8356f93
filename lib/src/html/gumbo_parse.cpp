#include "html/gumbo_parse.hpp"

#include <algorithm>
#include <new>

namespace corocrawl {

GumboOptions gumbo_arena::options() {
  GumboOptions options = kGumboDefaultOptions;
  options.allocator = &allocate;
  options.deallocator = &deallocate;
  options.userdata = this;
  options.max_errors = 0;  // parse errors are of no use here and can be numerous
  return options;
}

void* gumbo_arena::allocate(void* userdata, std::size_t size) noexcept {
  auto& self = *static_cast<gumbo_arena*>(userdata);
  if (const auto outcome = self.watch_.poll()) abandon_parse(*outcome);
  size = (std::max<std::size_t>(size, 1) + kAlignment - 1) & ~(kAlignment - 1);
  if (size > self.free_) {
    // Big blocks get a chunk of their own, so the current chunk's free space is not lost.
    const bool own_chunk = size > self.next_chunk_ / 4;
    const std::size_t chunk_size = own_chunk ? size : self.next_chunk_;
    std::byte* chunk = self.add_chunk(chunk_size);
    if (chunk == nullptr) return nullptr;
    if (own_chunk) return chunk;
    self.next_ = chunk;
    self.free_ = chunk_size;
    self.next_chunk_ = std::min(self.next_chunk_ * 2, kLargestChunk);
  }
  std::byte* block = self.next_;
  self.next_ += size;
  self.free_ -= size;
  self.latest_ = block;
  return block;
}

void gumbo_arena::deallocate(void* userdata, void* pointer) noexcept {
  auto& self = *static_cast<gumbo_arena*>(userdata);
  if (pointer == nullptr || pointer != self.latest_) return;
  self.free_ += static_cast<std::size_t>(self.next_ - self.latest_);
  self.next_ = self.latest_;
  self.latest_ = nullptr;
}

std::byte* gumbo_arena::add_chunk(std::size_t size) noexcept {
  try {
    chunks_.push_back(std::make_unique_for_overwrite<std::byte[]>(size));
    return chunks_.back().get();
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

}  // namespace corocrawl
