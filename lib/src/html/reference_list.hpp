#pragma once
// What the references found in a page's tree become: URLs resolved against the page's base
// URL, each distinct one listed once (page_links::links), and every reference with its place
// (page_links::references).

#include <cstdint>
#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "html/links.hpp"
#include "html/tree_references.hpp"
#include "text/text_map.hpp"
#include "url/url.hpp"

namespace corocrawl {

// The URL relative links resolve against (HTML's "document base URL").
std::string base_url(std::string_view page_url, std::optional<std::string_view> base_href);

// Where a reference or an inline CSS is in the page.
struct place {
  std::string_view element;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

// The references of a page, their URLs resolved against its base URL, each distinct URL
// listed once in the order first found.
class reference_list {
 public:
  // `encoding`: the page's, in which queries are encoded (when it is not UTF-8).
  reference_list(std::string base, std::string_view encoding);

  // Adds the references of `found` (one attribute's value) at `at`.
  void add(const found_reference& found, const place& at);

  // Makes room for `references` references (a page's reference tags give about one each).
  void reserve(std::size_t references) { found_.references.reserve(references); }
  // Whether no reference was added.
  bool empty() const { return found_.references.empty(); }

  void take_into(page_links& page) &&;

 private:
  void add(std::string_view written, const found_reference& found, const place& at);
  // The index in found_.links of the URL `written` (without its fragment) resolves to, resolved
  // once per page however often it is written (pages repeat their links: a Python doc page writes
  // 2,465 hrefs, 619 of them distinct); kUnresolved when it does not resolve.
  std::uint32_t link_of(std::string_view written);
  static constexpr std::uint32_t kUnresolved = 0xffff'ffff;

  // The URL standard encodes a link's query in the page's encoding (its path in UTF-8).
  std::string query_in_encoding(std::string_view written) const;

  link_resolver resolver_;  // against the page's base URL
  bool legacy_encoding_;
  std::string_view encoding_;  // static
  page_links found_;           // its links, their text and the references
  // The maps' slots and the texts written come from blocks freed with the list, not an
  // allocation each.
  std::pmr::monotonic_buffer_resource memory_{8192};
  link_index links_{found_, &memory_};  // found_.links by URL
  text_map resolved_{&memory_};         // link_of()'s answers, by the text written
};

}  // namespace corocrawl
