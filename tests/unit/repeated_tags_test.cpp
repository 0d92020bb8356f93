#include "html/repeated_tags.hpp"

#include <gtest/gtest.h>

#include <string>

namespace corocrawl::html {
namespace {

TEST(RepeatedTags, FindsATagRememberedByItsBytesUpToItsOnlyGreaterThan) {
  repeated_tags tags;
  const std::string html = "<p><span class=\"n\">x<span class=\"n\">y<span class=\"p\">";
  EXPECT_EQ(tags.find(html, 3), repeated_tags::npos);  // nothing remembered yet
  tags.remember("<span class=\"n\">");
  EXPECT_EQ(tags.find(html, 3), 19u);
  EXPECT_EQ(tags.find(html, 20), 36u);
  EXPECT_EQ(tags.find(html, 37), repeated_tags::npos);  // one byte differs
  EXPECT_EQ(tags.find(html, 0), repeated_tags::npos);   // another size
  // The bytes up to the '>' decide, whatever follows.
  EXPECT_EQ(tags.find("<span class=\"n\">", 0), 16u);
  EXPECT_EQ(tags.find("<span class=\"n\"", 0), repeated_tags::npos);
}

TEST(RepeatedTags, RemembersTagsOf16To48BytesWithOneGreaterThan) {
  repeated_tags tags;
  // A '>' inside a value: the first '>' is not the tag's end, so it is never found again.
  tags.remember("<span title=\"a>b\">");
  EXPECT_EQ(tags.find("<span title=\"a>b\">", 0), repeated_tags::npos);
  const std::string shortest = "<span class=\"n\">";  // 16 bytes
  const std::string shorter = "<div class=\"n\">";
  const std::string longest = "<span title=\"" + std::string(33, 'x') + "\">";  // 48
  const std::string longer = "<span title=\"" + std::string(34, 'x') + "\">";
  for (const std::string& tag : {shortest, shorter, longest, longer})
    tags.remember(tag);
  EXPECT_EQ(tags.find(shortest, 0), shortest.size());
  EXPECT_EQ(tags.find(shorter + std::string(10, ' '), 0), repeated_tags::npos);
  EXPECT_EQ(tags.find(longest, 0), longest.size());
  EXPECT_EQ(tags.find(longer, 0), repeated_tags::npos);
  // Cut short by the end of the markup: not found.
  EXPECT_EQ(tags.find(longest.substr(0, 30), 0), repeated_tags::npos);
  EXPECT_EQ(tags.find(shortest.substr(0, 15), 0), repeated_tags::npos);
}

TEST(RepeatedTags, ATagTakesThePlaceOfOneWithItsHash) {
  // Many tags: each found while remembered, the last ones remembered all found or replaced,
  // never another found in their place.
  repeated_tags tags;
  for (int i = 0; i < 1000; ++i) {
    const std::string tag = "<i class=\"item-" + std::to_string(i) + "\">";
    tags.remember(tag);
    EXPECT_EQ(tags.find(tag, 0), tag.size());
  }
  for (int i = 1000; i < 1100; ++i) {
    const std::string tag = "<i class=\"item-" + std::to_string(i) + "\">";
    EXPECT_EQ(tags.find(tag, 0), repeated_tags::npos);
  }
}

}  // namespace
}  // namespace corocrawl::html
