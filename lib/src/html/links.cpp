// Link extraction with gumbo 0.10.1: the two readings of a page (its link tags alone, or one
// tree of its limited markup), the page's decoding, and the public entry points. Pages are
// untrusted input, and that version has weaknesses: gumbo_destroy_output() recurses once per
// nesting level (300000 nested elements overflow an 8 MiB stack), so gumbo allocates from
// gumbo_arena (gumbo_parse.hpp), which frees every block at once; slow paths and assert()s on
// hostile markup are kept away by what gumbo is given: link tags alone (link_tags.hpp), or
// markup that limit_markup() has limited (markup_limiter.hpp), and an assert that still fires
// ends only the parse (parse_guarded). A parse also ends early when asked to stop or when it
// runs past its budget (parse_watch).

#include "html/links.hpp"

#include <gumbo.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "css/css_links.hpp"
#include "html/gumbo_parse.hpp"
#include "html/html_scan.hpp"
#include "html/link_tags.hpp"
#include "html/markup_limiter.hpp"
#include "html/parse_guard.hpp"
#include "html/reference_list.hpp"
#include "html/tag_references.hpp"
#include "html/text_positions.hpp"
#include "html/tree_references.hpp"
#include "text/ascii.hpp"
#include "text/charset.hpp"

namespace corocrawl {
namespace {

using html::position_counter;
using html::raw_text_end;
using html::scan_tag;
using html::text_position;

// The lower-case name of the tag whose '<' is at html[lt].
std::string_view tag_name_at(std::string_view html, std::size_t lt, std::string& storage) {
  std::size_t end = lt + 1;
  while (end < html.size() && !ascii::is_space(html[end]) && html[end] != '/' && html[end] != '>')
    ++end;
  storage = ascii::to_lower(html.substr(lt + 1, end - lt - 1));
  return storage;
}

// The whole tree of `markup`, a limited copy of `html` (see `map`).
page_links references_of_markup(std::string_view html, std::string_view markup,
                                const offset_map& map, std::string_view page_url,
                                std::string_view encoding, parse_watch& watch) {
  page_links page;
  page.outcome = parse_references(markup, watch, [&](const found_links& found) {
    // Where each element's tag is in the page, and the positions of those (and of <style>
    // texts) counted in one pass.
    std::vector<std::size_t> offsets;  // by element found: references, then styles
    offsets.reserve(found.references.size() + found.styles.size());
    const auto page_offset_of = [&](const GumboNode* node) {
      return page_offset(map, node->v.element.start_pos.offset);
    };
    for (const found_reference& reference : found.references)
      offsets.push_back(page_offset_of(reference.node));
    std::vector<std::string_view> style_texts;
    for (const found_style& style : found.styles) {
      std::size_t at = page_offset_of(style.node);
      if (!style.attribute) {
        const std::size_t text = std::min(scan_tag(html, at + 1).end, html.size());
        const std::size_t end = raw_text_end(html, "style", text);
        style_texts.push_back(html.substr(text, end - text));
        at = text;
      }
      offsets.push_back(at);
    }
    std::vector<std::uint32_t> order(offsets.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return offsets[a] < offsets[b]; });
    std::vector<text_position> positions(offsets.size());
    position_counter counter(html);
    for (const std::uint32_t i : order)
      positions[i] = counter.at(offsets[i]);

    std::string name;
    const auto element_name = [&](const GumboNode* node, std::size_t at) -> std::string_view {
      const GumboElement& element = node->v.element;
      // An <image> tag makes an <img>.
      if (element.tag_namespace == GUMBO_NAMESPACE_HTML && element.tag == GUMBO_TAG_IMG)
        return "img";
      return tag_name_at(html, at, name);
    };

    reference_list list(base_url(page_url, found.base_href), encoding);
    for (std::size_t i = 0; i < found.references.size(); ++i) {
      if (const auto ended = watch.poll()) {
        page.outcome = *ended;
        break;
      }
      const found_reference& reference = found.references[i];
      list.add(reference,
               {element_name(reference.node, offsets[i]), positions[i].line, positions[i].column});
    }
    std::move(list).take_into(page);
    for (const found_anchor& anchor : found.anchors)
      page.anchors.emplace_back(anchor.value);
    page.anchor_hashes = id_hashes(page.anchors);
    std::size_t text = 0;
    for (std::size_t i = 0; i < found.styles.size(); ++i) {
      const found_style& style = found.styles[i];
      const std::size_t k = found.references.size() + i;
      if (style.attribute) {
        page.styles.push_back({std::string(style.value),
                               std::string(element_name(style.node, offsets[k])), true,
                               positions[k].line, positions[k].column});
      } else {
        page.styles.push_back({std::string(style_texts[text++]), "style", false, positions[k].line,
                               positions[k].column});
      }
    }
  });
  return page;
}

}  // namespace

namespace {

page_links references_of_tags(link_tags& tags, std::string_view page_url, std::string_view encoding,
                              const parse_limits& limits) {
  tag_references references(tags.base, page_url, encoding, limits);
  references.reserve(tags.count);
  for (link_chunk& chunk : tags.chunks)
    references.add(chunk, tags);
  return std::move(references).finish(tags);
}

page_links parse_links(std::string_view html, std::string_view page_url, markup_reading reading,
                       std::string_view encoding, std::string* owned, const parse_limits& limits) {
  if (html.empty()) return {};
  if (reading == markup_reading::compact) {
    if (std::optional<link_tags> tags = read_link_tags(html)) {
      if (owned != nullptr) std::string{}.swap(*owned);
      return references_of_tags(*tags, page_url, encoding, limits);
    }
  }
  parse_watch watch(limits);
  // The page stays: the places of what the tree holds are counted in it.
  std::string limited;
  offset_map map;
  const std::string_view markup =
      limit_markup(html, reading != markup_reading::whole, limited, &map);
  return references_of_markup(html, markup, map, page_url, encoding, watch);
}

// `page`, whose references are read, with its base (the page's URL unless a <base> gave
// one), its encoding and the references of its inline CSS.
page_links completed(page_links page, std::string_view page_url, std::string_view encoding) {
  if (page.base.empty()) page.base = page_url;
  page.encoding = encoding;
  add_inline_css_references(page, page.base);
  return page;
}

// Decodes the page (`owned`, when it may be freed early, holds it) as HTML's encoding
// sniffing says, reads it, and adds the references of its inline CSS.
page_links read_page(std::string_view bytes, std::string_view page_url, markup_reading reading,
                     std::string_view http_charset, std::string* owned,
                     const parse_limits& limits) {
  install_abort_guard_once();
  const auto sniffed = charset::sniff_html(bytes, http_charset);
  bytes.remove_prefix(sniffed.bom_length);
  std::optional<std::string> decoded;
  if (!charset::is_utf8(sniffed.encoding)) decoded = charset::decode(bytes, sniffed.encoding);
  if (decoded) {
    if (owned != nullptr) std::string{}.swap(*owned);
    owned = &*decoded;
    bytes = *decoded;
  }
  return completed(parse_links(bytes, page_url, reading, sniffed.encoding, owned, limits), page_url,
                   sniffed.encoding);
}

}  // namespace

page_links extract_references(std::string_view html, std::string_view page_url,
                              markup_reading reading, std::string_view http_charset) {
  return read_page(html, page_url, reading, http_charset, nullptr, parse_limits{});
}

std::vector<std::string> extract_links(std::string_view html, std::string_view page_url,
                                       markup_reading reading) {
  page_links page = read_page(html, page_url, reading, {}, nullptr, parse_limits{});
  std::vector<std::string> urls;
  urls.reserve(page.links.size());
  for (const page_link& link : page.links)
    urls.emplace_back(link.url);
  return urls;
}

page_in_pieces::page_in_pieces(std::string page_url, std::string http_charset)
    : page_url_(std::move(page_url)), http_charset_(std::move(http_charset)) {}
page_in_pieces::~page_in_pieces() = default;
page_in_pieces::page_in_pieces(page_in_pieces&&) noexcept = default;
page_in_pieces& page_in_pieces::operator=(page_in_pieces&&) noexcept = default;

void page_in_pieces::add(std::string_view piece) {
  if (!tags_) {  // its encoding not known yet, or the page kept whole
    start_.append(piece);
    if (decided_ || start_.size() < charset::html_prescan_length) return;
    // The encoding it declares is the one the whole page is read in: read in pieces a page
    // declared UTF-8, whose bytes are read as they are. Any other, or none (then only all its
    // bytes say), is kept whole.
    decided_ = true;
    const auto declared = charset::declared_html_encoding(start_, http_charset_);
    if (!declared || !charset::is_utf8(declared->encoding)) return;
    encoding_ = declared->encoding;
    tags_ = std::make_unique<link_tag_stream>();
    piece = std::string_view(start_).substr(declared->bom_length);
  } else if (!start_.empty()) {
    start_.append(piece);
  }
  if (!tags_->add(piece)) {
    // Given up: a page whose bytes are all kept still is kept whole from now on (the stream
    // and its tags go), and read whole by finish().
    if (!start_.empty()) tags_.reset();
    return;
  }
  std::vector<link_chunk> chunks = tags_->take_chunks();
  if (!chunks.empty() && !references_) {
    install_abort_guard_once();
    references_ =
        std::make_unique<tag_references>(tags_->tags().base, page_url_, encoding_, parse_limits{});
  }
  for (link_chunk& chunk : chunks)
    references_->add(chunk, tags_->tags());
  // The bytes are kept too until a chunk is read (most pages that give up do so before), or
  // while they are few: a page that gives up then is read whole, not fetched again.
  constexpr std::size_t kKeptAtMost = 1024 * 1024;
  if (!start_.empty() && (references_ || start_.size() > kKeptAtMost)) std::string{}.swap(start_);
}

page_links page_in_pieces::take_read() {
  if (!references_) return {};
  return references_->take();
}

page_links page_in_pieces::finish(const parse_limits& limits) {
  std::optional<link_tags> tags = tags_ ? tags_->finish() : std::nullopt;
  tags_.reset();
  if (!tags && !start_.empty()) {  // kept whole, or given up while every byte was kept
    std::string page = std::move(start_);
    return read_page(page, page_url_, markup_reading::compact, http_charset_, &page, limits);
  }
  if (!tags) {
    page_links none;
    none.outcome = parse_outcome::needs_whole_page;
    return none;
  }
  install_abort_guard_once();
  if (references_)
    references_->limit(limits);
  else
    references_ = std::make_unique<tag_references>(tags->base, page_url_, encoding_, limits);
  for (link_chunk& chunk : tags->chunks)
    references_->add(chunk, *tags);
  return completed(std::move(*references_).finish(*tags), page_url_, encoding_);
}

std::size_t page_in_pieces::held() const {
  return start_.size() + (tags_ ? tags_->held() : 0);
}

link_index::link_index(page_links& page, std::pmr::memory_resource* memory)
    : page_(page), index_(memory) {
  for (std::uint32_t i = 0; i < page_.links.size(); ++i) {
    const page_link& link = page_.links[i];
    index_.find_or_add(link.url, link.hash, [&] { return std::pair{link.url, i}; });
  }
}

std::uint32_t link_index::link(std::string_view url, reference_kind kind) {
  const std::size_t hash = url_hash(url);
  const auto [index, added] = index_.find_or_add(url, hash, [&] {
    page_.links.push_back({keep(url), kind, hash});
    return std::pair{page_.links.back().url, static_cast<std::uint32_t>(page_.links.size() - 1)};
  });
  if (!added && kind == reference_kind::document) page_.links[index].kind = kind;
  return index;
}

std::uint32_t link_index::tag(std::string_view element, std::string_view attribute) {
  // The last few pairs only: a hostile page's thousands of distinct elements (any element may
  // carry a style attribute's url()) must not make each reference search them all.
  constexpr std::size_t kLooked = 16;
  auto& tags = page_.tags;
  const std::size_t first = tags.size() > kLooked ? tags.size() - kLooked : 0;
  // A new pair takes its element's name from one of the last few pairs when it is there: a
  // page keeps each name it uses many times once, not once a pair.
  std::string_view kept;
  for (std::size_t k = tags.size(); k > first; --k) {
    if (tags[k - 1].element != element) continue;
    if (tags[k - 1].attribute == attribute) return static_cast<std::uint32_t>(k - 1);
    kept = tags[k - 1].element;
  }
  if (kept.empty()) kept = keep(element);
  tags.push_back({kept, attribute});
  return static_cast<std::uint32_t>(tags.size() - 1);
}

std::string_view link_index::keep(std::string_view text) {
  auto& blocks = page_.link_text;
  if (!blocks) blocks = std::make_unique<std::pmr::monotonic_buffer_resource>(4096);
  auto* copy = static_cast<char*>(blocks->allocate(std::max<std::size_t>(text.size(), 1), 1));
  std::memcpy(copy, text.data(), text.size());
  return {copy, text.size()};
}

page_links extract_links_taking(std::string&& html, std::string_view page_url,
                                const parse_limits& limits, std::string_view http_charset) {
  std::string page = std::move(html);
  return read_page(page, page_url, markup_reading::compact, http_charset, &page, limits);
}

page_links extract_links_kept(std::string_view html, std::string_view page_url,
                              const parse_limits& limits, std::string_view http_charset) {
  return read_page(html, page_url, markup_reading::compact, http_charset, nullptr, limits);
}

}  // namespace corocrawl
