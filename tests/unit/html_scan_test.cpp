// The tokenizer-level scans shared by the compact reading and the markup limiter.

#include "html/html_scan.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "html/byte_search.hpp"
#include "html/element_names.hpp"
#include "html/text_positions.hpp"
#include "text/ascii.hpp"

namespace corocrawl::html {
namespace {

// Every offset and length around the 16-byte steps of the search, each way of writing it.
TEST(MentionsFrameset, FindsTheNameAtAnyOffsetInAnyCase) {
  for (const std::string name : {"<frameset", "<FRAMESET", "<FrAmEsEt", "<frameset>"}) {
    for (std::size_t before = 0; before < 40; ++before) {
      for (const std::size_t after : {0, 1, 7, 16, 17}) {
        const std::string html = std::string(before, 'x') + name + std::string(after, 'y');
        EXPECT_TRUE(mentions_frameset(html)) << html;
      }
    }
  }
}

// A name is looked up as two words (its bytes and its size): names that differ in any byte,
// in the second word only, or by a trailing NUL are told apart.
TEST(NameTraits, FindsEachNameExactlyAndOthersNot) {
  EXPECT_EQ(name_traits("a"), closes_same_trait | essential_trait);
  EXPECT_EQ(name_traits("td"), closes_same_trait | confuses_gumbo_trait | table_part_trait);
  EXPECT_EQ(name_traits("strong"), breaks_out_trait);
  EXPECT_EQ(name_traits("annotation-xml"), essential_trait);  // the longest
  EXPECT_NE(name_traits("blockquote") & breaks_out_trait, 0U);
  EXPECT_NE(name_traits("template") & reader_special_trait, 0U);
  EXPECT_NE(name_traits("script") & raw_text_trait, 0U);
  for (const std::string_view other :
       {"", "x", "aa", "tdd", "t", "blockquota", "blockquotes", "annotation-xmlx", "annotation-xm",
        "strongest", "annotation-xml-and-more", "article"}) {
    EXPECT_EQ(name_traits(other), 0U) << other;
    EXPECT_EQ(name_traits_any_case(other), 0U) << other;
  }
  using namespace std::string_view_literals;
  EXPECT_EQ(name_traits("a\0"sv), 0U);
  EXPECT_EQ(name_traits("td\0\0"sv), 0U);
}

TEST(NameTraits, AnyCaseLowersLettersOnly) {
  for (const std::string_view name : {"a", "td", "template", "annotation-xml", "foreignobject"}) {
    std::string upper(name);
    for (char& c : upper)
      c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    EXPECT_EQ(name_traits(upper), 0U) << upper;  // name_traits matches exactly
    EXPECT_EQ(name_traits_any_case(upper), name_traits(name)) << upper;
    EXPECT_EQ(name_traits_any_case(name), name_traits(name)) << name;
  }
  EXPECT_EQ(name_traits_any_case("AnNoTaTiOn-XmL"), essential_trait);
  EXPECT_EQ(name_traits_any_case("\xc1"), 0U);  // not a letter, lowered or not
}

// Around the two blocks searched here and the memchr after them, against std::string_view.
TEST(FindByte, FindsWhatStringViewFindFinds) {
  std::mt19937 random(7);
  for (int round = 0; round < 2000; ++round) {
    std::string text(random() % 80, 'x');
    for (char& c : text) {
      if (random() % 23 == 0) c = '<';
    }
    const std::string_view view = text;
    for (std::size_t from = 0; from <= text.size() + 1; ++from)
      ASSERT_EQ(find_byte(view, '<', from), view.find('<', from)) << text << " from " << from;
  }
  EXPECT_EQ(find_byte("", '<', 0), std::string_view::npos);
  EXPECT_EQ(find_byte(std::string(100, 'x') + "<", '<', 0), 100U);
  EXPECT_EQ(find_byte(std::string(100, '\xff'), '\xff', 99), 99U);
}

TEST(MentionsFrameset, IgnoresNearMisses) {
  for (const std::string miss :
       {"<frame>", "<framesex", "frameset", "< frameset", "<fframeset", "<f", "<F",
        "<footer><form><font>", "<\xe6rameset", "</frameset"}) {
    for (std::size_t before = 0; before < 40; ++before) {
      const std::string html = std::string(before, ' ') + miss + std::string(before % 5, 'f');
      EXPECT_EQ(mentions_frameset(html), false) << html;
    }
  }
  EXPECT_FALSE(mentions_frameset(""));
  EXPECT_FALSE(mentions_frameset(std::string(1000, '<')));
  EXPECT_FALSE(mentions_frameset(std::string(1000, '<') + "f"));
}

TEST(TagStart, IsTheNameOfAStartOrEndTagAsTheTokenizerReadsIt) {
  for (const std::string html : {"</span>", "</SPAN>x", "</h1>", "</my-el\x01>", "</a>", "<li>",
                                 "<P>text", "<my-el\x01>", "<a>"}) {
    const auto start = tag_start_at(html, 0);
    ASSERT_TRUE(start) << html;
    EXPECT_TRUE(start->bare(html)) << html;
    const token read = token_at(html, 0);
    EXPECT_EQ(start->end_tag ? token::end_tag : token::start_tag, read.what) << html;
    EXPECT_EQ(start->name_end + 1, read.end) << html;
    EXPECT_EQ(start->name, read.tag.name) << html;
  }
  // Attributes, spaces, a slash, no '>': tags, not bare ones.
  for (const std::string html :
       {"</span class=x>", "</span >", "</span/>", "</span", "<li class=x>", "<br/>", "<li"}) {
    const auto start = tag_start_at(html, 0);
    ASSERT_TRUE(start) << html;
    EXPECT_FALSE(start->bare(html)) << html;
    const std::size_t name_size = html[1] == '/' ? 4 : 2;
    EXPECT_EQ(start->name, html.substr(html[1] == '/' ? 2 : 1, name_size)) << html;
  }
  // Not a tag name: no tag starts there.
  for (const std::string html : {"<", "</", "</>", "</1a>", "</\n>", "<!-- -->", "<1>", "< p>"}) {
    EXPECT_FALSE(tag_start_at(html, 0)) << html;
  }
  EXPECT_EQ(tag_start_at("text</p>", 4)->name_end, 7u);
}

TEST(TokenAt, FillsATokenInPlaceAsIfNewWhateverItHeld) {
  // One token filled with each in turn, then each again: every field as a new token's.
  const std::string html =
      "<a href=x id=y style='s' name=n><IMG SRC=i SrcSet='a 1x'>text<!-- c --></SPAN >"
      "<font color=red face=f><br/><input type=image src=q /><![CDATA[x]]><?pi><b";
  std::vector<std::size_t> starts;
  for (std::size_t lt = html.find('<'); lt != std::string::npos; lt = html.find('<', lt + 1))
    starts.push_back(lt);
  token reused{token::text, 0, {}};
  for (int pass = 0; pass < 2; ++pass) {
    for (const std::size_t lt : starts) {
      token_at(html, lt, reused);
      const token fresh = token_at(html, lt);
      EXPECT_EQ(reused.what, fresh.what) << lt;
      EXPECT_EQ(reused.end, fresh.end) << lt;
      if (fresh.what != token::start_tag && fresh.what != token::end_tag) continue;
      EXPECT_EQ(reused.tag.name, fresh.tag.name) << lt;
      EXPECT_EQ(reused.tag.lower_name, fresh.tag.lower_name) << lt;
      EXPECT_EQ(reused.tag.traits, fresh.tag.traits) << lt;
      EXPECT_EQ(reused.tag.self_closing, fresh.tag.self_closing) << lt;
      EXPECT_EQ(reused.tag.attribute_count, fresh.tag.attribute_count) << lt;
      EXPECT_EQ(reused.tag.kept, fresh.tag.kept) << lt;
      EXPECT_EQ(reused.tag.kept_mask, fresh.tag.kept_mask) << lt;
      EXPECT_EQ(reused.tag.has_font_attribute, fresh.tag.has_font_attribute) << lt;
    }
  }
}

TEST(PositionCounter, CountsColumnsInCodePointsAcrossLongRuns) {
  // Eight bytes at a time, then byte by byte: runs of every length, with two- to four-byte
  // sequences at every alignment.
  for (const std::string sequence : {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"}) {
    for (std::size_t ascii = 0; ascii < 20; ++ascii) {
      std::string text;
      for (int i = 0; i < 5; ++i)
        text += std::string(ascii, 'a') + sequence;
      position_counter counter(text);
      const text_position end = counter.at(text.size());
      EXPECT_EQ(end.line, 1u);
      EXPECT_EQ(end.column, 1 + 5 * (ascii + 1)) << ascii;
    }
  }
}

// Every offset of `text` in turn, `step` apart, against a count of one byte at a time.
void expect_counted_as_each_byte_would(const std::string& text, std::size_t step) {
  position_counter counter(text);
  for (std::size_t offset = 0; offset <= text.size(); offset += step) {
    text_position expected;
    bool after_cr = false;
    for (std::size_t k = 0; k < offset; ++k) {
      const auto c = static_cast<unsigned char>(text[k]);
      if (c == '\n' || c == '\r') {
        if (!(c == '\n' && after_cr)) ++expected.line;
        expected.column = 1;
      } else if ((c & 0xC0) != 0x80) {
        ++expected.column;
      }
      after_cr = c == '\r';
    }
    const text_position got = counter.at(offset);
    EXPECT_EQ(got.line, expected.line) << step << " " << offset;
    EXPECT_EQ(got.column, expected.column) << step << " " << offset;
  }
}

// A text of `size` bytes drawn from `alphabet`.
std::string text_of(std::string_view alphabet, std::size_t size) {
  std::string text;
  for (std::size_t i = 0; i < size; ++i)
    text += alphabet[(i * 7 + i / 11) % alphabet.size()];
  return text;
}

TEST(PositionCounter, CountsLinesAndColumnsAsEachByteWouldAcrossOffsetsAskedInTurn) {
  // Line feeds in bulk, CRs byte by byte.
  for (const std::size_t step : {1, 3, 8, 17, 64})
    expect_counted_as_each_byte_would(text_of("ab\n\r\xc3\xa9\n\n", 400), step);
}

TEST(PositionCounter, CountsRunsWithoutCarriageReturnsAsEachByteWould) {
  // No CR: every run is counted in bulk, long and short ones, with several line feeds or none.
  for (const std::size_t step : {1, 5, 15, 16, 17, 33, 100, 1000}) {
    expect_counted_as_each_byte_would(text_of("abc\n\xe2\x82\xac"
                                              "d\n\ne",
                                              1000),
                                      step);
    expect_counted_as_each_byte_would(text_of("abcdefghijklmnopqrstuvwxyz\n", 1000), step);
  }
}

TEST(PositionCounter, CountsLongRunsDenseWithLineFeedsAsEachByteWould) {
  // Counted sixteen bytes at a time, in sums of up to 255 blocks: runs longer than that, of
  // line feeds only and with a line feed at every place of a block, the last one anywhere.
  const std::string feeds(5000, '\n');
  for (const std::size_t step : {1, 15, 4080, 4081, 4097, 5000})
    expect_counted_as_each_byte_would(feeds, step);
  for (std::size_t gap = 1; gap <= 17; ++gap) {
    std::string text;
    while (text.size() < 9000)
      text += std::string(gap - 1, 'x') + "\n";
    text += "tail\xc3\xa9";
    for (const std::size_t step : {std::size_t{4099}, std::size_t{16 * 255}, text.size()})
      expect_counted_as_each_byte_would(text, step);
  }
}

TEST(PositionCounter, ACarriageReturnLateInALongRunIsCountedAsOne) {
  // A run whose only CR is late in it, alone or before a line feed, or at the run's end.
  for (const std::string ending : {"\r", "\r\n", "\rx", "\n\r"}) {
    for (const std::size_t before : {15, 16, 17, 40, 63}) {
      const std::string text = text_of("ab\ncd", before) + ending + text_of("ef\ng", 30);
      for (const std::size_t step :
           {std::size_t{1}, std::size_t{7}, before, before + 1, text.size()})
        expect_counted_as_each_byte_would(text, step);
    }
  }
}

TEST(PositionCounter, ACarriageReturnAnywhereInARunIsCountedAsOne) {
  // The CR is looked for in the pass that counts line feeds: in any of a block's sixteen
  // places, in the last block of a run, in a run shorter than a block, and in a text that is.
  for (const std::size_t size : {5, 15, 16, 17, 31, 33, 70}) {
    for (std::size_t cr = 0; cr < size; ++cr) {
      std::string text = text_of("ab\ncd\xc3\xa9", size);
      text[cr] = '\r';
      for (const std::size_t step : {std::size_t{3}, std::size_t{16}, size})
        expect_counted_as_each_byte_would(text, step);
      expect_counted_as_each_byte_would("xyz\n" + text, size + 4);
    }
  }
}

TEST(PositionCounter, CountsCarriageReturnLineFeedEndingsInBulkAsEachByteWould) {
  // Lines ended by CR LF (and a few by a lone CR or LF), of lengths that put the pairs at
  // every place of a block, across blocks and across the ends of the runs asked.
  std::string text;
  for (std::size_t line = 0; text.size() < 9000; ++line) {
    text += text_of("abc\xc3\xa9 xyz", line % 37);
    text += line % 11 == 5 ? "\r" : line % 13 == 7 ? "\n" : "\r\n";
  }
  for (const std::size_t step : {1, 2, 15, 16, 17, 31, 40, 100, 4097})
    expect_counted_as_each_byte_would(text, step);
}

TEST(PositionCounter, RandomTextsAreCountedAsEachByteWould) {
  // Sixteen bytes at a time up to a block with a CR, then byte by byte: line feeds dense and
  // sparse, CRs rare, a CR at the end of one run and its LF at the start of the next.
  std::mt19937 random(7);
  for (int round = 0; round < 60; ++round) {
    const std::string alphabet = round % 3 == 0   ? "abcdefgh\n"
                                 : round % 3 == 1 ? "a\nb\n\xc3\xa9"
                                                    "cd"
                                                  : "abcdefghijklmnopqrstuvwxyz0123456789\n\r";
    std::string text;
    const std::size_t size = random() % 700;
    for (std::size_t i = 0; i < size; ++i)
      text += alphabet[random() % alphabet.size()];
    expect_counted_as_each_byte_would(text, 1 + random() % 40);
  }
}

TEST(PositionCounter, CountsTextGivenInPiecesWithTheReadPartDroppedAsTheWholeText) {
  // As link_tag_stream uses it: the text grows piece by piece, what was read is dropped, and
  // offsets are asked in what is held; CRs rare, CRs at the ends of pieces.
  std::mt19937 random(11);
  for (int round = 0; round < 200; ++round) {
    std::string text;
    const std::string alphabet = round % 2 == 0 ? "abcdef\n" : "ab\r\ncd\n\r";
    const std::size_t size = 50 + random() % 500;
    for (std::size_t i = 0; i < size; ++i)
      text += alphabet[random() % alphabet.size()];
    position_counter whole(text);
    std::size_t dropped = 0;  // bytes of text dropped
    std::size_t held = 0;     // bytes of text given so far
    std::string view;         // text[dropped, held)
    position_counter pieces(view);
    std::size_t asked = 0;  // offset in text asked last
    while (held < text.size()) {
      held = std::min(text.size(), held + 1 + random() % 60);
      view = text.substr(dropped, held - dropped);
      pieces.view(view);
      for (int ask = 0; ask < 3 && asked < held; ++ask) {
        asked = std::min(held, asked + random() % 30);
        const text_position got = pieces.at(asked - dropped);
        const text_position expected = whole.at(asked);
        ASSERT_EQ(got.line, expected.line) << round << " " << asked;
        ASSERT_EQ(got.column, expected.column) << round << " " << asked;
      }
      if (random() % 2 == 0) {  // drop what was asked
        pieces.drop(asked - dropped);
        dropped = asked;
        view = text.substr(dropped, held - dropped);
        pieces.view(view);
      }
    }
  }
}

TEST(ScanTag, ReadsSelfClosingAndTheFirstOfEachKeptAttributeAsTheTokenizerDoes) {
  struct expectation {
    std::string html;  // a tag; its name starts at [1]
    bool self_closing;
    std::size_t attributes;
  };
  for (const auto& [html, self_closing, attributes] : std::vector<expectation>{
           {"<br/>", true, 0},
           {"<br />", true, 0},
           {"<br/ >", false, 0},
           {"<br / />", true, 0},
           {"<a href=x/>", false, 1},  // the slash is the unquoted value's
           {"<a href='x'/>", true, 1},
           {"<a href='x' / >", false, 1},
           {"<a/href=x>", false, 1},
           {"<a =x>", false, 1},  // a leading '=' is the name's
           {"<a b c=d e>", false, 3},
           {"<a b = 'c' d\t=\n\"e\"/>", true, 2},
       }) {
    const scanned_tag tag = scan_tag(html, 1);
    EXPECT_TRUE(tag.complete) << html;
    EXPECT_EQ(tag.end, html.size()) << html;
    EXPECT_EQ(tag.self_closing, self_closing) << html;
    EXPECT_EQ(tag.attribute_count, attributes) << html;
  }
  const std::string_view img =
      "<IMG SRC=a src='b' Xlink:Href=\"c\" data-src=d id srcset = e Style=>";
  const scanned_tag tag = scan_tag(img, 1);
  EXPECT_EQ(tag.lower_name, "img");
  EXPECT_EQ(tag.kept[kSrc], "SRC=a");
  EXPECT_EQ(tag.kept[kXlinkHref], "Xlink:Href=\"c\"");
  EXPECT_EQ(tag.kept[kId], "id");
  EXPECT_EQ(tag.kept[kSrcset], "srcset = e");
  EXPECT_EQ(tag.kept[kStyle], "Style=");
  EXPECT_EQ(tag.kept_count(), 5u);
  EXPECT_EQ(tag.kept_mask,
            1U << kSrc | 1U << kXlinkHref | 1U << kId | 1U << kSrcset | 1U << kStyle);
  EXPECT_EQ(tag.attribute_count, 7u);
  // Every kept name in both cases, and names one byte off, which are not kept.
  for (std::size_t k = 0; k < std::size(kKeptAttributes); ++k) {
    std::string upper(kKeptAttributes[k]);
    for (char& c : upper)
      c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
    for (const std::string& name : {std::string(kKeptAttributes[k]), upper}) {
      const std::string html = "<x " + name + "=v>";
      const scanned_tag named = scan_tag(html, 1);
      EXPECT_EQ(named.kept_mask, 1U << k) << name;
      EXPECT_EQ(named.kept[k], name + "=v");
      EXPECT_EQ(scan_tag("<x " + name + "s=v>", 1).kept_mask, 0u) << name;
      EXPECT_EQ(scan_tag("<x " + name.substr(1) + "=v>", 1).kept_mask, 0u) << name;
      std::string changed = name;
      changed.back() = '_';
      EXPECT_EQ(scan_tag("<x " + changed + "=v>", 1).kept_mask, 0u) << name;
    }
  }
  // A value whose quote is not closed: the tag is not complete.
  EXPECT_FALSE(scan_tag("<a href='x>", 1).complete);
  EXPECT_FALSE(scan_tag("<a href=x", 1).complete);
}

TEST(ScanTag, LowersNamesOfEverySizeWhereverTheyEnd) {
  // Names of 1 to 20 bytes of letters in both cases, the bytes around 'A'-'Z' and 'a'-'z',
  // bytes from 0x80 up and NUL; far from the markup's end and right at it. Known names too.
  std::mt19937 random(13);
  const std::string bytes = std::string("AZazMm@[`{09-:_\x80\xc3\xa9\xff", 19) + '\0';
  std::vector<std::string> names = {
      "A",   "IMG",      "Script",  "TEMPLATE", "annotation-XML", "foreignObject",
      "svg", "FRAMESET", "noScript"};
  for (std::size_t size = 1; size <= 20; ++size) {
    for (int round = 0; round < 40; ++round) {
      std::string name(1, static_cast<char>(round % 2 == 0 ? 'Q' : 'q'));  // a letter first
      while (name.size() < size)
        name += bytes[random() % bytes.size()];
      names.push_back(name);
    }
  }
  for (const std::string& name : names) {
    std::string lower = name;
    for (char& c : lower)
      c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    for (const std::string& after : {std::string(">"), " id=x>" + std::string(40, ' ')}) {
      const std::string html = "<" + name + after;
      const scanned_tag tag = scan_tag(html, 1);
      EXPECT_EQ(tag.name, name);
      EXPECT_EQ(tag.lower_name, lower);
      EXPECT_EQ(tag.traits, name_traits(lower)) << lower;
    }
  }
  EXPECT_NE(scan_tag("<foreignObject>" + std::string(20, ' '), 1).traits, 0u);
  EXPECT_NE(scan_tag("<ANNOTATION-XML>", 1).traits, 0u);
}

TEST(NameTraits, InTextAgreeWithAnyCaseWhereverTheNameEnds) {
  // A word at a time where 16 bytes of the text follow the name's start, else a byte at a time.
  for (const std::string name :
       {"a", "A", "td", "TABLE", "Template", "frameset", "FRAMESETx", "annotation-xml",
        "Annotation-XMLs", "foreignObject", "my-el", "svg", "ZAP-zap@[`{", "\xc3\x89m", "x\x80"}) {
    for (std::size_t after = 0; after < 20; ++after) {
      const std::string text = "<" + name + std::string(after, '>');
      const std::string_view in = std::string_view(text).substr(1, name.size());
      EXPECT_EQ(name_traits_in(text, in), name_traits_any_case(name)) << name << " " << after;
      std::string lower;
      EXPECT_EQ(lower_name_traits_in(text, in, lower), name_traits_any_case(name)) << name;
      EXPECT_EQ(lower, ascii::to_lower(name)) << name << " " << after;
    }
  }
}

}  // namespace
}  // namespace corocrawl::html
