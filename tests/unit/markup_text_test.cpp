// The text markup_limiter writes in place of a page's text (html/markup_text.hpp).
#include "html/markup_text.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace corocrawl::html {
namespace {

using namespace std::string_view_literals;

TEST(CompactedText, WhitespaceGoes) {
  EXPECT_EQ(compacted_text(""), "");
  EXPECT_EQ(compacted_text(" \t\r\n\f"), "");
}

TEST(CompactedText, OtherTextBecomesOneLetter) {
  EXPECT_EQ(compacted_text("Some words, and punctuation."), "x");
  EXPECT_EQ(compacted_text("  word  "), "x");
  EXPECT_EQ(compacted_text("<"), "x");
  // A reference among other text is no longer all whitespace, whatever it decodes to.
  EXPECT_EQ(compacted_text("&#32; and more."), "x");
}

TEST(CompactedText, TextThatMayDecodeToWhitespaceStays) {
  // Only letters, digits, '#', ';' and a reference: "&#32;" is a space once decoded.
  EXPECT_EQ(compacted_text("&#32;"), "&#32;");
  EXPECT_EQ(compacted_text(" &nbsp; 12 "), " &nbsp; 12 ");
}

TEST(CompactedText, TextWithNulStays) {
  const std::string_view text = "a\0b"sv;
  EXPECT_EQ(compacted_text(text), text);
}

TEST(EscapedCdata, WritesTheSectionsTextAsMarkup) {
  EXPECT_EQ(escaped_cdata("a<b>&c]]>"), "a&lt;b>&amp;c");
  EXPECT_EQ(escaped_cdata("]]>"), "");
}

TEST(EscapedCdata, AnUnendedSectionRunsToTheInputsEnd) {
  EXPECT_EQ(escaped_cdata("x < y"), "x &lt; y");
  EXPECT_EQ(escaped_cdata("]]"), "]]");
}

}  // namespace
}  // namespace corocrawl::html
