// A page read as its body arrives (page_in_pieces) against the same page read whole
// (extract_links_taking): the same links, references and places, anchors and inline CSS,
// however the body is cut, for pages of several chunks of tags.

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "html/links.hpp"
#include "links_test_support.hpp"

namespace corocrawl::link_tests {
namespace {

// A page of `tags` reference tags: links (with fragments, queries and character references,
// some of which only gumbo decodes), ids and names, style attributes and elements, images,
// comments and scripts with markup in them, and the three kinds of line ends.
std::string page_of(std::mt19937& random, int tags) {
  static const char* const pieces[] = {
      "<a href=\"a/one.html\">x</a>",
      "<a href='two.html#frag' class=c>y</a>",
      "<a href=\"q?x=1&amp;y=2\">q</a>",
      "<a href=\"nb&nbsp;sp\">n</a>",
      "<p id=\"id&nbsp;x\">t</p>",
      "<a name=n1 href=\"#n1\">a</a>",
      "<div id=plain style=\"background: url(bg.png)\">",
      "</div>",
      "<img src=\"i.png\" srcset=\"a.png 1x, b.png 2x\">",
      "<link rel=stylesheet href=s.css>",
      "<script src=js.js></script>",
      "<script>var a = '<a href=no>' + '</scr' + 'ipt>';</script>",
      "<style>p { background: url(st.png) }</style>",
      "<!-- <a href=\"comment\"> -->",
      "text \xC3\xA9t\xC3\xA9 ",
      "\r\n",
      "\n",
      "\r",
  };
  std::string html = "<!DOCTYPE html><html><head><meta charset=utf-8><title>t</title></head>\n";
  for (int i = 0; i < tags; ++i)
    html += pieces[random() % std::size(pieces)];
  return html + "</html>";
}

page_links read_in_pieces(const std::string& html, std::mt19937& random, std::size_t most) {
  page_in_pieces page(std::string(kPage), "utf-8");
  std::uniform_int_distribution<std::size_t> sizes(1, most);
  for (std::size_t at = 0; at < html.size();) {
    const std::size_t size = std::min(sizes(random), html.size() - at);
    page.add(std::string_view(html).substr(at, size));
    at += size;
  }
  return page.finish();
}

void expect_same(const page_links& in_pieces, const page_links& whole, const std::string& html) {
  expect_hashes_of_the_text(in_pieces);
  EXPECT_EQ(in_pieces.outcome, whole.outcome);
  EXPECT_EQ(link_entries(in_pieces), link_entries(whole));
  EXPECT_EQ(flat(in_pieces), flat(whole));
  EXPECT_EQ(in_pieces.anchors, whole.anchors);
  EXPECT_EQ(in_pieces.styles, whole.styles);
  EXPECT_EQ(in_pieces.base, whole.base);
  EXPECT_EQ(in_pieces.encoding, whole.encoding);
  EXPECT_GT(flat(whole).size(), 0U) << html.substr(0, 200);
}

TEST(PageInPieces, FindsWhatReadingTheWholePageFindsHoweverItIsCut) {
  std::mt19937 random(20261127);
  for (int i = 0; i < 40; ++i) {
    const std::string html = page_of(random, 1000 + static_cast<int>(random() % 6000));
    const page_links whole = extract_links_taking(std::string(html), kPage, {}, "utf-8");
    for (const std::size_t most : {1, 100, 20'000})
      expect_same(read_in_pieces(html, random, most), whole, html);
  }
}

// The crawl takes a big page's references as each chunk is read (take_read), before the page
// ends: those taken, then those finish() gives, are the whole page's, in its order. (A link's
// kind is the takes' own: a later take may make a link a document.)
TEST(PageInPieces, ReferencesTakenAsTheyAreReadAndThoseLeftAreTheWholePages) {
  std::mt19937 random(20261128);
  const auto places = [](const page_links& page) {
    std::vector<flat_reference> out = flat(page);
    for (flat_reference& r : out)
      r.kind = reference_kind::document;
    return out;
  };
  for (int i = 0; i < 10; ++i) {
    const std::string html = page_of(random, 6000 + static_cast<int>(random() % 3000));
    const page_links whole = extract_links_taking(std::string(html), kPage, {}, "utf-8");
    page_in_pieces page(std::string(kPage), "utf-8");
    std::vector<flat_reference> taken;
    int takes = 0;
    int before_the_end = 0;
    for (std::size_t at = 0; at < html.size(); at += 4096) {
      page.add(std::string_view(html).substr(at, 4096));
      const page_links read = page.take_read();
      if (read.references.empty()) continue;
      ++takes;
      if (at + 4096 < html.size()) ++before_the_end;
      std::ranges::copy(places(read), std::back_inserter(taken));
    }
    std::ranges::copy(places(page.finish()), std::back_inserter(taken));
    EXPECT_GE(takes, 2);
    EXPECT_GE(before_the_end, 1);
    EXPECT_EQ(taken, places(whole));
  }
}

TEST(PageInPieces, ABaseAfterTheFirstChunkNeedsTheWholePage) {
  std::mt19937 random(7);
  std::string html = page_of(random, 5000);
  // The first <base> applies to every link, the earlier ones too: their chunks, read already
  // against the page's URL, would be wrong.
  html.insert(html.size() - 7, "<base href=\"/elsewhere/\">");
  page_in_pieces page(std::string(kPage), "utf-8");
  for (std::size_t at = 0; at < html.size(); at += 4096)
    page.add(std::string_view(html).substr(at, 4096));
  const page_links read = page.finish();
  EXPECT_EQ(read.outcome, parse_outcome::needs_whole_page);
  EXPECT_TRUE(read.links.empty());
  // Before any chunk is complete, a <base> is read as in the whole page.
  const std::string early = "<meta charset=utf-8>" + std::string(2000, ' ') +
                            "<base href=\"/elsewhere/\"><a href=x>x</a>";
  page_in_pieces small(std::string(kPage), "");
  for (const char c : early)
    small.add(std::string_view(&c, 1));
  expect_same(small.finish(), extract_links_taking(std::string(early), kPage), early);
}

TEST(PageInPieces, APageThatNeedsATreeBeforeItsFirstChunkIsReadWholeFromWhatItKept) {
  std::mt19937 random(11);
  const std::string plain = page_of(random, 5000);
  std::string html = plain;
  html.insert(html.find("</head>"), "<select><option>version</select>");  // then a tree
  page_in_pieces page(std::string(kPage), "utf-8");
  for (std::size_t at = 0; at < html.size(); at += 4096)
    page.add(std::string_view(html).substr(at, 4096));
  EXPECT_EQ(page.held(), html.size());
  expect_same(page.finish(), extract_links_taking(std::string(html), kPage, {}, "utf-8"), html);
  // Past its first chunk, or its first MiB, it is no longer kept: it must be fetched again.
  std::string late_html = plain;
  late_html.insert(late_html.size() - 7, "<select></select>");
  page_in_pieces late(std::string(kPage), "utf-8");
  for (std::size_t at = 0; at < late_html.size(); at += 4096)
    late.add(std::string_view(late_html).substr(at, 4096));
  EXPECT_LT(late.held(), 4096U);
  EXPECT_EQ(late.finish().outcome, parse_outcome::needs_whole_page);
}

TEST(PageInPieces, APageNotDeclaredUtf8IsKeptWholeAndReadAsItIs) {
  // No charset anywhere: only all its bytes could say (here windows-1252, for the 0xE9).
  const std::string html = std::string(3000, ' ') + "<a href=\"caf\xE9\">x</a>";
  page_in_pieces page(std::string(kPage), "");
  for (std::size_t at = 0; at < html.size(); at += 100)
    page.add(std::string_view(html).substr(at, 100));
  EXPECT_EQ(page.held(), html.size());
  expect_same(page.finish(), extract_links_taking(std::string(html), kPage), html);
}

}  // namespace
}  // namespace corocrawl::link_tests
