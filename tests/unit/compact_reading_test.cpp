// The compact reading (link tags alone where the tree cannot change which they are, see
// html/link_tags.hpp) against reading the whole tree, on chosen and random documents.

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "html/link_tag_values.hpp"
#include "html/link_tags.hpp"
#include "html/links.hpp"
#include "links_test_support.hpp"
#include "random_documents.hpp"

namespace corocrawl::link_tests {
namespace {

TEST(CompactReading, AsWrittenTestsEveryByteOfValuesOfEverySize) {
  // Sixteen bytes at a time, the last block ending with the value, and one at a time below
  // sixteen: each byte value at each place of values of sizes around the blocks, against the
  // byte's own test.
  for (std::size_t size = 1; size <= 40; ++size) {
    for (int byte = 0; byte < 256; ++byte) {
      for (std::size_t at = 0; at < size; ++at) {
        std::string value(size, 'a');
        value[at] = static_cast<char>(byte);
        EXPECT_EQ(as_written(value), read_as_written(static_cast<char>(byte)))
            << size << " " << byte << " " << at;
      }
    }
  }
  EXPECT_TRUE(as_written(""));
}

TEST(CompactReading, RepeatedTagsAreReadAsTheFirstTimeWhereverTheyStand) {
  // Tags read again by their bytes (html/repeated_tags.hpp), beside ones that differ by a
  // byte, hold a '>' in a value, carry what is noted, open foreign content or a table, and
  // the same bytes inside SVG, a comment and raw text.
  const std::string tags[] = {"<span class=\"n\">",
                              "<span class=\"n\" id=x>",
                              "<span class=\"p\">",
                              "<span title=\"a>b\">",
                              "<span class='n'>",
                              "<SPAN class=\"n\">",
                              "<span class=\"n\" style=\"color:red\">",
                              "<a class=\"n\" href=l>",
                              "<svg class=\"n\">",
                              "</svg>",
                              "<table class=\"n\">",
                              "</table>",
                              "<td class=\"n\">",
                              "<!-- <span class=\"n\"> -->",
                              "<script class=\"n\"><span class=\"n\"></script>",
                              "<img class=\"n\" src=i.png>",
                              "<a name=\"m\">",
                              "</a>",
                              "text "};
  // A tag read in HTML and again in SVG, where it breaks out of the SVG; in a comment.
  for (const char* html : {"<span class=n><svg><span class=n><a name=m></a></svg>",
                           "<span class=n><svg><a class=n><a name=m>",
                           "<span class=n><!--<span class=n>--><a name=m>"}) {
    expect_readings_agree(html);
  }
  std::mt19937 random(5);
  for (int round = 0; round < 300; ++round) {
    std::string html = "<p>";
    for (int i = 0; i < 30; ++i)
      html += tags[random() % std::size(tags)];
    expect_readings_agree(html);
  }
}

TEST(CompactReading, DecodesPlainlyOnlyValuesEveryReadingReadsAlike) {
  struct expectation {
    std::string value;
    std::optional<std::string> decoded;  // none: left to gumbo
  };
  for (const auto& [value, decoded] : std::vector<expectation>{
           {"plain/path.html#x", "plain/path.html#x"},
           {"tab\there\nand line", "tab\there\nand line"},
           {std::string(40, 'a'), std::string(40, 'a')},
           {"a&amp;b&lt;&gt;&quot;&apos;", "a&b<>\"'"},
           {"&#65;&#x42;&#X43;", "ABC"},
           {"x&nbsp;", std::nullopt},
           {"x&amp", std::nullopt},
           {"&#31;", std::nullopt},
           {"\x01", std::nullopt},
           {"caf\xc3\xa9", std::nullopt},
           {"cr\rhere", std::nullopt},
           {"", ""},
       }) {
    std::string out = "kept";
    EXPECT_EQ(decode_plainly(value, out), decoded.has_value()) << value;
    EXPECT_EQ(out, "kept" + decoded.value_or("")) << value;
  }
}

TEST(CompactReading, GivesUpWhereTheTreeCouldDiffer) {
  for (const char* html : {
           "<template></template><base href=/b/><a href=x>",
           "<template><base href=/b/></template>",
           "<template><col><a href=x></template>",
           "<table><table><td id=x></table>",
           "<body id=b>",
           "<html style=s>",
           "<noscript id=n></noscript>",
           "<isindex>",
           "<frame src=x>",
           "<template><td id=a></template>",
           // In a template a form is ignored in a table's context, kept elsewhere.
           "<template><tr><form style=A>",
           "<template><table><form id=f></form></table></template>",
           "<template><form id=f></form></template>",
       }) {
    EXPECT_FALSE(read_link_tags(html)) << html;
    expect_readings_agree(html);
  }
  for (const char* html : {
           "<base href=/b/><template><a href=x></template>",
           "<template><colgroup><a href=x></template>",
           "<table><tr><td id=a style=x></table><td id=b>",
           "<form id=a></form><form id=b>",
           "<body class=b><html lang=en>",
       }) {
    EXPECT_TRUE(read_link_tags(html)) << html;
    expect_readings_agree(html);
  }
}

// Attributes with an empty value, written with spaces or nothing after '=': a chunk keeps its
// values where its markup has them, and these are written as their name alone.
TEST(CompactReading, EmptyValuesAreReadAsTheTreeReadsThem) {
  for (const char* html : {"<a href=   >x</a><img src = srcset=' '>", "<a href=>x</a><a href>y</a>",
                           "<video src=  poster=p></video><link rel= href=  >"}) {
    EXPECT_TRUE(read_link_tags(html)) << html;
    expect_readings_agree(html);
  }
}

// Whether the compact reading reads `html` with no chunk left to gumbo.
bool plain_chunks(const std::string& html) {
  const auto tags = read_link_tags(html);
  return tags && std::ranges::all_of(tags->chunks, &link_chunk::plain);
}

// Values with character references: those that read the same everywhere (amp, lt, gt, quot,
// apos, numbers of printable ASCII, each ended by ';') are decoded without gumbo, and the chunk
// stays plain; any other sends the chunk to gumbo. Either way the readings agree.
TEST(CompactReading, CharacterReferencesInValuesAreReadAsTheTreeReadsThem) {
  for (const std::string value : {"a?b=1&amp;c=2", "&lt;&gt;&quot;&apos;", "x&#64;y&#x40;z&#X4a;",
                                  "&#000037;&#38;amp;", "p.html#&#46;&#48;"}) {
    const std::string html = "<a href='" + value + "'>x</a><img src=\"" + value + "\" srcset='" +
                             value + " 2x'><a href=" + value + ">y</a>";
    EXPECT_TRUE(plain_chunks(html)) << html;
    expect_readings_agree(html);
  }
  for (const std::string value :
       {"a&amp", "&AMP;", "&copy;", "&#x80;", "&#9;", "&#x1F600;", "&#;", "&#x;", "&#1234567;",
        "&amp ;", "&", "a&b", "&ampx;", "caf\xc3\xa9&amp;"}) {
    const std::string html = "<a href='" + value + "'>x</a><a href=" + value + ">y</a>";
    EXPECT_FALSE(plain_chunks(html)) << html;
    expect_readings_agree(html);
  }
}

// Anchors and style attributes go the same way: a simple character reference is decoded
// without gumbo, any other leaves the chunk to it.
TEST(CompactReading, CharacterReferencesInAnchorsAndStylesAreReadAsTheTreeReadsThem) {
  for (const std::string html :
       {"<div id='a&amp;b'></div><a name=n&#64;1 href=x>y</a>",
        "<span style='background:url(&quot;i.png&quot;)'></span><a href=x id=&lt;top&gt;>z</a>"}) {
    EXPECT_TRUE(plain_chunks(html)) << html;
    expect_readings_agree(html);
  }
  for (const std::string html :
       {"<div id='a&copy;b'></div><a href=x>y</a>", "<span style='x:&#1;'></span><a href=x>y</a>",
        "<a name='n&amp' href=x>y</a>"}) {
    EXPECT_FALSE(plain_chunks(html)) << html;
    expect_readings_agree(html);
  }
}

// Random documents from constructs that make references, anchors and styles, and those that
// steer the tree builder: the three readings must agree on everything.
TEST(CompactReading, FindsTheSameReferencesAnchorsAndStyles) {
  static const char* const pieces[] = {
      "<a href=a1 id=i1>",
      "<a name='n&amp;1'>",
      "</a>",
      "<img src=i srcset='j 1x, k 2x'>",
      "<image src=im>",
      "<video src=v poster=p>",
      "</video>",
      "<source src=s>",
      "<script src=sc>",
      "</script>",
      "<style>s{}</style>",
      "<style>",
      "</style>",
      "<iframe src=f>",
      "</iframe>",
      "<object data=o>",
      "</object>",
      "<embed src=e>",
      "<input type=image src=in>",
      "<link rel=icon href=ic>",
      "<link rel=preconnect href=pc>",
      "<meta http-equiv=refresh content='0; url=r'>",
      "<div id=d style='c:&#x64;'>",
      "</div>",
      "<span style=x>",
      "<p id='p&lt;'>",
      "<table>",
      "</table>",
      "<tr id=tr>",
      "<td style=td>",
      "</td>",
      "<col style=col>",
      "<colgroup>",
      "<caption id=cap>",
      "<template>",
      "</template>",
      "<noscript>",
      "</noscript>",
      "<form id=f>",
      "</form>",
      "<select>",
      "</select>",
      "<svg>",
      "</svg>",
      "<g id=g style=gs>",
      "</g>",
      "<a xlink:href=x>",
      "<math>",
      "</math>",
      "<mi id=mi>",
      "</mi>",
      "<base href=/b/>",
      "<body id=body>",
      "<html style=h>",
      "<head>",
      "</head>",
      "<title>",
      "</title>",
      "<textarea>",
      "</textarea>",
      "<b>",
      "</b>",
      "<i>",
      "text",
      " ",
      "\n",
      "\r\n",
      "\r",
      "\xC3\xA9",
      "&amp;",
      "<!-- c -->",
      "<br>",
      "</br>",
      "<li>",
      "<frameset>",
      "<frame src=fr>",
      "<plaintext>",
  };
  std::mt19937 random(20261124);
  int compact_read = 0;
  int plain_read = 0;
  for (int i = 0; i < 6000; ++i) {
    std::string html;
    const std::size_t count = 1 + random() % 30;
    for (std::size_t k = 0; k < count; ++k)
      html += pieces[random() % std::size(pieces)];
    expect_readings_agree(html);
    if (HasFailure()) break;
    const auto tags = read_link_tags(html);
    compact_read += tags ? 1 : 0;
    // Chunks whose values all read as written are read without gumbo: enough of them here.
    plain_read +=
        tags && !tags->chunks.empty() && std::ranges::all_of(tags->chunks, &link_chunk::plain) ? 1
                                                                                               : 0;
  }
  EXPECT_GT(compact_read, 1000);
  EXPECT_GT(plain_read, 500);
}

// ---- compact reading -------------------------------------------------------------------------

TEST(CompactReading, FindsTheSameLinksAsReadingTheWholePage) {
  std::mt19937 random(20261122);
  int with_links = 0;
  int read_as_link_tags = 0;
  for (int i = 0; i < 30000; ++i) {
    const std::string html = random_document(random);
    const links whole = extract_links(html, kPage, markup_reading::whole);
    ASSERT_EQ(extract_links(html, kPage, markup_reading::shrunk), whole) << html;
    // Link tags come in source order, which misnested markup can change in the tree (a
    // table moves content in front of itself; formatting elements are reopened elsewhere).
    const links compact = extract_links(html, kPage, markup_reading::compact);
    ASSERT_EQ(sorted(compact), sorted(whole)) << html;
    with_links += whole.empty() ? 0 : 1;
    read_as_link_tags += read_link_tags(html) && !whole.empty() ? 1 : 0;
  }
  EXPECT_GT(with_links, 8000);         // the documents do exercise links
  EXPECT_GT(read_as_link_tags, 1000);  // and both ways of reading them compact
}

TEST(CompactReading, LinkTagsAloneWhereTheTreeCannotChangeWhichAreLinks) {
  const auto tags = read_link_tags(
      R"(<!DOCTYPE html><html><head><link rel=x href="style.css"><title>a <a href=no></title>)"
      R"(<script>if (a<b) x = "<a href=no>";</script></head><body><div><p>text <a )"
      R"(class=c href='one'>one</a><table><tr><td><area href=two></table>)"
      R"(<svg><g><path/></g><a xlink:href="three"></a><title></title></svg>)"
      R"(<math><a href=no></a></math><a>no href</a><textarea><a href=no></textarea>)");
  ASSERT_TRUE(tags);
  ASSERT_EQ(tags->chunks.size(), 1U);
  EXPECT_EQ(tags->chunks[0].markup, R"(<link rel=x href="style.css"><a href='one'><area href=two>)"
                                    R"(<svg><a xlink:href="three" /></svg>)");
  EXPECT_EQ(tags->count, 4U);
  EXPECT_EQ(tags->base, "");
}

TEST(CompactReading, ConstructsThatCanChangeWhichTagsAreLinksNeedTheTree) {
  for (const char* html : {
           "<select><a href=x></select>",
           "<a href=x><frameset>",
           "<svg><p><a href=x>",                      // HTML breaks out of SVG
           "<svg><font color=red><a href=x>",         // so does <font> with a font attribute
           "<svg><g></svg><a href=x>",                // an end tag closes more than one element
           "<svg><desc>text</desc><a href=x></svg>",  // HTML inside SVG
           "<math><![CDATA[x]]><a href=x></math>",
           "<table><td><base href=/b/></table><a href=x>",  // a table could move a later base
           "<script><!--<script></script><a href=x></script>",
       }) {
    EXPECT_FALSE(read_link_tags(html)) << html;
  }
  EXPECT_TRUE(read_link_tags("<base href=/b/><table><td><a href=x></table>"));
  // Their links count now, and the tree builder makes an element of every tag in them.
  EXPECT_TRUE(read_link_tags("<template><a href=x></template>"));
  EXPECT_TRUE(read_link_tags("<noscript><a href=x></noscript>"));
}

TEST(CompactReading, ABigPageIsParsedInChunks) {
  std::string html;
  for (int i = 0; i < 5000; ++i)
    html += "<li><a href=" + std::to_string(i) + "><code>x</code></a></li>";
  const auto tags = read_link_tags(html);
  ASSERT_TRUE(tags);
  EXPECT_EQ(tags->count, 5000U);
  EXPECT_EQ(tags->chunks.size(), 5U);
  EXPECT_EQ(extract_links(html, kPage, markup_reading::compact),
            extract_links(html, kPage, markup_reading::whole));
}

TEST(CompactReading, TextAndAttributesDoNotHideLinks) {
  const std::string html = R"(<p class="x" title='a > b'>Some text &amp; more</p>)"
                           R"(<a id=1 href="one" class="c">one</a>\n\n<!-- note -->)"
                           R"(<svg viewBox="0 0 1 1"><a xlink:href="two">t</a></svg>)";
  EXPECT_EQ(extract_links(html, kPage, markup_reading::compact),
            (links{"http://example.com/dir/one", "http://example.com/dir/two"}));
}

TEST(CompactReading, APageHandedOverGivesTheSameLinksAndIsFreed) {
  std::string page = "<p>text</p><a href=one>1</a>" + std::string(5000, ' ') + "<a href=two>";
  const links expected = extract(page);
  EXPECT_EQ(urls(extract_links_taking(std::move(page), kPage)), expected);
  EXPECT_EQ(expected.size(), 2u);
}

TEST(CompactReading, TextBeforeAFramesetStillKeepsTheBody) {
  // Text makes the tree builder ignore a later <frameset>, which would otherwise replace the
  // body and its link.
  EXPECT_EQ(extract_links("<a href=x>text</a><frameset>", kPage, markup_reading::compact),
            links{"http://example.com/dir/x"});
  EXPECT_EQ(extract_links("<a href=x></a><frameset>", kPage, markup_reading::compact), links{});
}

}  // namespace
}  // namespace corocrawl::link_tests
