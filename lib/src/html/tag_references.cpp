#include "html/tag_references.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "html/gumbo_parse.hpp"
#include "html/link_tag_values.hpp"

namespace corocrawl {

tag_references::tag_references(std::string_view base, std::string_view page_url,
                               std::string_view encoding, const parse_limits& limits)
    : watch_(limits), encoding_(encoding) {
  list_.emplace(base_of(base, page_url), encoding_);
}

void tag_references::add(link_chunk& chunk, link_tags& tags) {
  if (ended()) return;
  if (chunk.plain) {  // what the chunk's tree would give, without one
    for (const tag_place& at : chunk.places) {
      if (const auto ended = watch_.poll()) {
        outcome_ = *ended;
        break;
      }
      plain_.clear();
      plain_references(chunk, at, plain_);
      for (const found_reference& reference : plain_)
        list_->add(reference, {at.element, at.line, at.column});
    }
  } else {
    read_tree(chunk, tags);
  }
  std::string{}.swap(chunk.markup);
  std::vector<tag_place>{}.swap(chunk.places);
}

page_links tag_references::take() {
  page_links page;
  if (list_->empty()) return page;  // asked after every piece: most have ended no chunk
  std::move(*list_).take_into(page);
  list_.emplace(page.base, encoding_);
  return page;
}

page_links tag_references::finish(link_tags& tags) && {
  page_links page;
  page.outcome = outcome_;
  std::move(*list_).take_into(page);
  for (auto& anchor : tags.anchors) {
    if (anchor) page.anchors.push_back(std::move(*anchor));
  }
  page.anchor_hashes = id_hashes(page.anchors);
  for (auto& style : tags.styles) {
    if (style) page.styles.push_back(std::move(*style));
  }
  return page;
}

std::string tag_references::base_of(std::string_view base, std::string_view page_url) {
  std::string resolved(page_url);
  if (!base.empty()) {
    outcome_ = parse_references(base, watch_, [&](const found_links& found) {
      resolved = base_url(page_url, found.base_href);
    });
  }
  return resolved;
}

void tag_references::read_tree(link_chunk& chunk, link_tags& tags) {
  const auto place_of = [&](const GumboNode* node) -> const tag_place* {
    const std::size_t offset = node->v.element.start_pos.offset;
    const auto it =
        std::lower_bound(chunk.places.begin(), chunk.places.end(), offset,
                         [](const tag_place& p, std::size_t o) { return p.offset < o; });
    return it != chunk.places.end() && it->offset == offset ? &*it : nullptr;
  };
  const auto outcome = parse_references(chunk.markup, watch_, [&](const found_links& found) {
    for (const found_reference& reference : found.references) {
      if (const auto ended = watch_.poll()) {
        outcome_ = *ended;
        return;
      }
      if (const tag_place* at = place_of(reference.node))
        list_->add(reference, {at->element, at->line, at->column});
    }
    for (const found_anchor& anchor : found.anchors) {
      const tag_place* at = place_of(anchor.node);
      const std::uint32_t slot =
          at == nullptr ? kNoSlot : (anchor.name ? at->name_slot : at->id_slot);
      if (slot != kNoSlot) tags.anchors[slot] = std::string(anchor.value);
    }
    for (const found_style& style : found.styles) {
      const tag_place* at = place_of(style.node);
      if (at == nullptr || !style.attribute || at->style_slot == kNoSlot) continue;
      tags.styles[at->style_slot] =
          inline_css{std::string(style.value), at->element, true, at->line, at->column};
    }
  });
  if (outcome != parse_outcome::complete) outcome_ = outcome;
}

}  // namespace corocrawl
