#pragma once
// What the link extraction tests share: the page they are read on, short ways to read one,
// and a form of references that compares across readings (links_test.cpp,
// hostile_markup_test.cpp, page_references_test.cpp, compact_reading_test.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "html/links.hpp"
#include "text/text_hashes.hpp"

namespace corocrawl {

// For gtest (found by argument-dependent lookup).
inline void PrintTo(const inline_css& c, std::ostream* os) {
  *os << "{" << c.text << " " << c.element << (c.attribute ? " attr " : " text ") << c.line << ":"
      << c.column << "}";
}

namespace link_tests {

using links = std::vector<std::string>;

inline constexpr const char* kPage = "http://example.com/dir/page.html";

inline links extract(std::string_view html) {
  return extract_links(html, kPage);
}

inline links urls(const page_links& page) {
  links out;
  for (const page_link& link : page.links)
    out.emplace_back(link.url);
  return out;
}

inline std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i)
    out += s;
  return out;
}

// A reference with its URL, comparable across readings.
struct flat_reference {
  std::string url;
  reference_kind kind;
  std::string element;
  std::string attribute;
  std::optional<std::string> fragment;
  std::uint32_t line;
  std::uint32_t column;
  auto operator<=>(const flat_reference&) const = default;
};

inline void PrintTo(const flat_reference& r, std::ostream* os) {
  *os << "{" << r.url << (r.kind == reference_kind::document ? " doc " : " res ") << r.element
      << " " << r.attribute << " #" << r.fragment.value_or("-") << " " << r.line << ":" << r.column
      << "}";
}

inline std::vector<flat_reference> flat(const page_links& page) {
  std::vector<flat_reference> out;
  for (const page_reference& r : page.references) {
    out.push_back(
        {std::string(page.links.at(r.link).url), page.links.at(r.link).kind,
         std::string(page.tags.at(r.tag).element), std::string(page.tags.at(r.tag).attribute),
         r.fragment ? std::optional<std::string>(*r.fragment) : std::nullopt, r.line, r.column});
  }
  return out;
}

template <class T>
std::vector<T> sorted(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v;
}

inline bool css_less(const inline_css& a, const inline_css& b) {
  return std::tie(a.line, a.column, a.attribute, a.text, a.element) <
         std::tie(b.line, b.column, b.attribute, b.text, b.element);
}

inline std::vector<std::pair<std::string, reference_kind>> link_entries(const page_links& page) {
  std::vector<std::pair<std::string, reference_kind>> out;
  for (const page_link& link : page.links)
    out.emplace_back(link.url, link.kind);
  return out;
}

// The hashes a page's parse gives with its links, fragments and ids are those of their text,
// as the crawl's tables compute them.
inline void expect_hashes_of_the_text(const page_links& page) {
  for (const page_link& link : page.links)
    EXPECT_EQ(link.hash, url_hash(link.url)) << link.url;
  for (const page_reference& reference : page.references) {
    if (reference.fragment) {
      EXPECT_EQ(reference.fragment.hash(), id_hash(*reference.fragment)) << *reference.fragment;
    }
  }
  EXPECT_EQ(page.anchor_hashes, id_hashes(page.anchors));
}

// The three readings of `html` find the same: shrunk exactly what whole finds, compact the
// same in source order, each with the hashes of what it finds. Returns the whole reading.
inline page_links expect_readings_agree(std::string_view html) {
  page_links whole = extract_references(html, kPage, markup_reading::whole);
  const page_links shrunk = extract_references(html, kPage, markup_reading::shrunk);
  const page_links compact = extract_references(html, kPage, markup_reading::compact);
  expect_hashes_of_the_text(whole);
  expect_hashes_of_the_text(shrunk);
  expect_hashes_of_the_text(compact);
  EXPECT_EQ(link_entries(shrunk), link_entries(whole)) << html;
  EXPECT_EQ(flat(shrunk), flat(whole)) << html;
  EXPECT_EQ(shrunk.anchors, whole.anchors) << html;
  EXPECT_EQ(shrunk.styles, whole.styles) << html;
  EXPECT_EQ(sorted(link_entries(compact)), sorted(link_entries(whole))) << html;
  EXPECT_EQ(sorted(flat(compact)), sorted(flat(whole))) << html;
  EXPECT_EQ(sorted(compact.anchors), sorted(whole.anchors)) << html;
  auto compact_styles = compact.styles;
  auto whole_styles = whole.styles;
  std::sort(compact_styles.begin(), compact_styles.end(), css_less);
  std::sort(whole_styles.begin(), whole_styles.end(), css_less);
  EXPECT_EQ(compact_styles, whole_styles) << html;
  return whole;
}

inline constexpr auto kDocument = reference_kind::document;
inline constexpr auto kResource = reference_kind::resource;

// (element, attribute, url, kind) of each reference, in order.
using ref_list = std::vector<std::tuple<std::string, std::string, std::string, reference_kind>>;

inline ref_list refs(std::string_view html, markup_reading reading = markup_reading::compact) {
  ref_list out;
  for (const flat_reference& r : flat(extract_references(html, kPage, reading)))
    out.emplace_back(r.element, r.attribute, r.url, r.kind);
  return out;
}

}  // namespace link_tests
}  // namespace corocrawl
