// The tokenizer-level scans shared by the compact reading and the markup limiter.

#include "html/html_scan.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

#include "html/byte_search.hpp"
#include "html/element_names.hpp"
#include "html/text_positions.hpp"

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

TEST(BareTag, IsAStartOrEndTagWithNothingButItsNameAsTheTokenizerReadsIt) {
  for (const std::string html : {"</span>", "</SPAN>x", "</h1>", "</my-el\x01>", "</a>", "<li>",
                                 "<P>text", "<my-el\x01>", "<a>"}) {
    const auto bare = bare_tag_at(html, 0);
    ASSERT_TRUE(bare) << html;
    const token read = token_at(html, 0);
    EXPECT_EQ(bare->end_tag, read.what == token::end_tag) << html;
    EXPECT_EQ(bare->end_tag ? token::end_tag : token::start_tag, read.what) << html;
    EXPECT_EQ(bare->end, read.end) << html;
    EXPECT_EQ(bare->name, read.tag.name) << html;
  }
  // Attributes, spaces, a slash, no '>', not a tag name: token_at reads them.
  for (const std::string html :
       {"</span class=x>", "</span >", "</span/>", "</span", "</>", "</1a>", "<li class=x>",
        "<br/>", "<li", "<", "</", "</\n>", "<!-- -->", "<1>", "< p>"}) {
    EXPECT_FALSE(bare_tag_at(html, 0)) << html;
  }
  EXPECT_EQ(bare_tag_at("text</p>", 4)->end, 8u);
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

}  // namespace
}  // namespace corocrawl::html
