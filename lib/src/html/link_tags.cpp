#include "html/link_tags.hpp"

#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "html/link_tag_reader.hpp"

namespace corocrawl {

std::optional<link_tags> read_link_tags(std::string_view html) {
  return link_tag_reader(html).run();
}

link_tag_stream::link_tag_stream() : reader_(std::make_unique<link_tag_reader>()) {}
link_tag_stream::~link_tag_stream() = default;
link_tag_stream::link_tag_stream(link_tag_stream&&) noexcept = default;
link_tag_stream& link_tag_stream::operator=(link_tag_stream&&) noexcept = default;

bool link_tag_stream::add(std::string_view piece) {
  if (gave_up_) return false;
  held_.append(piece);
  if (held_.size() < read_again_) return true;
  reader_->view(held_);
  if (!reader_->read(false)) {
    gave_up_ = true;
    return false;
  }
  // What was read goes. A token not ended is tried again once twice as much is held, so that
  // a long one (a big script) is not searched again for each piece.
  const std::size_t read = reader_->drop_read();
  held_.erase(0, read);
  reader_->view(held_);
  read_again_ = read == 0 ? 2 * held_.size() : 0;
  return true;
}

std::vector<link_chunk> link_tag_stream::take_chunks() {
  return reader_->take_chunks();
}

link_tags& link_tag_stream::tags() {
  return reader_->tags();
}

std::optional<link_tags> link_tag_stream::finish() {
  if (gave_up_) return std::nullopt;
  reader_->view(held_);
  if (!reader_->read(true)) return std::nullopt;
  return reader_->take();
}

}  // namespace corocrawl
