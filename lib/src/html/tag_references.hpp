#pragma once
// The references of a page's link tags (link_tags.hpp), chunk by chunk: each chunk is read (by
// gumbo where its values need it) and freed in turn, so only one small tree is in memory at a
// time, and a page read in pieces holds only the chunks not read yet. A chunk gumbo gives up
// on leaves the others to be read; a stop or the budget ends the reading.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "html/link_tags.hpp"
#include "html/links.hpp"
#include "html/parse_guard.hpp"
#include "html/reference_list.hpp"
#include "html/tree_references.hpp"

namespace corocrawl {

class tag_references {
 public:
  // `base`: the page's <base> as markup, or empty.
  tag_references(std::string_view base, std::string_view page_url, std::string_view encoding,
                 const parse_limits& limits);

  void reserve(std::size_t references) { list_->reserve(references); }
  // What is read from now on is bounded by `limits`.
  void limit(const parse_limits& limits) { watch_ = parse_watch(limits); }

  // Reads `chunk` of `tags`, whose anchors and styles its elements decode, and frees it.
  void add(link_chunk& chunk, link_tags& tags);

  // The references read since the last take(), with their links, tags and text: the list
  // starts again empty (its links too: a link may come in more than one take).
  page_links take();

  // The page, with the anchors and styles of `tags`, and the references not taken.
  page_links finish(link_tags& tags) &&;

 private:
  bool ended() const {
    return outcome_ == parse_outcome::stopped || outcome_ == parse_outcome::over_budget;
  }
  std::string base_of(std::string_view base, std::string_view page_url);
  void read_tree(link_chunk& chunk, link_tags& tags);

  parse_watch watch_;
  parse_outcome outcome_ = parse_outcome::complete;
  std::string_view encoding_;           // static
  std::optional<reference_list> list_;  // made again by take()
  std::vector<found_reference> plain_;
};

}  // namespace corocrawl
