// Reading a page's link tags from its pieces (link_tag_stream) against reading the whole page
// (read_link_tags): the same tags, values, places and give-ups, however the page is cut.

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "html/link_tags.hpp"
#include "random_documents.hpp"

namespace corocrawl::link_tests {
namespace {

// `html` read in pieces of the sizes `cut` gives in turn.
template <class Cut>
std::optional<link_tags> read_in_pieces(std::string_view html, Cut cut) {
  link_tag_stream stream;
  while (!html.empty()) {
    const std::size_t size = std::min<std::size_t>(std::max<std::size_t>(cut(), 1), html.size());
    const bool going_on = stream.add(html.substr(0, size));
    html.remove_prefix(size);
    if (!going_on) {
      EXPECT_FALSE(stream.finish());  // a stream that gave up gives nothing
      return std::nullopt;
    }
  }
  return stream.finish();
}

std::optional<link_tags> read_in_pieces_of(std::string_view html, std::size_t size) {
  return read_in_pieces(html, [size] { return size; });
}

// The documents with every line feed a CR LF or a lone CR: lines end in three ways, and a
// piece may end between the CR and the LF.
std::string with_line_ends(std::string html, std::string_view end) {
  std::string out;
  for (const char c : html) {
    if (c == '\n')
      out += end;
    else
      out += c;
  }
  return out;
}

TEST(LinkTagStream, ReadsWhatTheWholePageGivesHoweverItIsCut) {
  std::mt19937 random(20261127);
  int read = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string html = random_document(random);
    if (i % 3 == 1) html = with_line_ends(html, "\r\n");
    if (i % 3 == 2) html = with_line_ends(html, "\r");
    const auto whole = read_link_tags(html);
    read += whole ? 1 : 0;
    for (const std::size_t size : {1, 2, 3, 7, 64}) {
      ASSERT_EQ(read_in_pieces_of(html, size), whole) << size << " " << html;
    }
    std::uniform_int_distribution<std::size_t> sizes(1, 40);
    ASSERT_EQ(read_in_pieces(html, [&] { return sizes(random); }), whole) << html;
  }
  EXPECT_GT(read, 5000);  // the documents do exercise reading, not only giving up
}

TEST(LinkTagStream, TokensCutAnywhereAreReadWhole) {
  const std::string pages[] = {
      R"(<a href="one two">x</a><script>var s = "</scrip" + "<a href=no>";</script><a href=y>)",
      "<!-- a comment <a href=no> with -- dashes --><a href=after>",
      "<style>a { background: url(x.png) }</style ><img src=i srcset='a 1x, b 2x'>",
      "<svg><a xlink:href=s></a><foreignObject></foreignObject><title></title></svg><a href=z>",
      "<p>text</p><framesetx><a href=f>",
      "<a href=a1>\r\n<a href=a2>\r<a href=a3>\n<a href=a4 id=\"&amp;x\">",
      "<![CDATA[ <a href=no> ]]><a href=c><plaintext><a href=no>",
      "<a href=x></a><frameset>",
  };
  for (const std::string& html : pages) {
    const auto whole = read_link_tags(html);
    for (std::size_t size = 1; size <= html.size(); ++size)
      ASSERT_EQ(read_in_pieces_of(html, size), whole) << size << " " << html;
  }
}

TEST(LinkTagStream, HoldsOnlyWhatItHasNotRead) {
  std::string page;
  for (int i = 0; i < 20000; ++i)
    page += "<p class=c><a href=\"page" + std::to_string(i) + ".html#s\">link</a></p>\n";
  link_tag_stream stream;
  std::size_t most_held = 0;
  for (std::size_t at = 0; at < page.size(); at += 4096) {
    ASSERT_TRUE(stream.add(std::string_view(page).substr(at, 4096)));
    most_held = std::max(most_held, stream.held());
  }
  EXPECT_LT(most_held, 100U);  // at most a tag cut between two pieces
  const auto tags = stream.finish();
  ASSERT_TRUE(tags);
  EXPECT_EQ(tags, read_link_tags(page));
  EXPECT_EQ(tags->count, 20000U);
}

TEST(LinkTagStream, AScriptLongerThanThePiecesIsHeldUntilItEnds) {
  const std::string script = "<script>" + std::string(1 << 20, 'x') + "</script>";
  const std::string page = "<a href=before>" + script + "<a href=after>";
  link_tag_stream stream;
  std::size_t most_held = 0;
  for (std::size_t at = 0; at < page.size(); at += 1000) {
    ASSERT_TRUE(stream.add(std::string_view(page).substr(at, 1000)));
    most_held = std::max(most_held, stream.held());
  }
  // Tried again each time what is held doubles, so never more than the page is held.
  EXPECT_GE(most_held, script.size());
  EXPECT_LE(most_held, page.size());
  EXPECT_EQ(stream.finish(), read_link_tags(page));
}

TEST(LinkTagStream, GivesUpAsReadingTheWholePageDoes) {
  link_tag_stream stream;
  EXPECT_TRUE(stream.add("<a href=x>text</a><fram"));
  EXPECT_FALSE(stream.add("eset><a href=y>"));  // a <frameset> cut between pieces is found
  EXPECT_FALSE(stream.add("<a href=z>"));
  EXPECT_FALSE(stream.finish());
  link_tag_stream select;
  EXPECT_FALSE(select.add("<a href=x><select><option>"));
  EXPECT_FALSE(select.finish());
}

}  // namespace
}  // namespace corocrawl::link_tests
