// Making bytes from servers valid UTF-8, and safe for a terminal.
#include "corocrawl/utf8.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace corocrawl {
namespace {

const std::string fffd = "\xEF\xBF\xBD";

std::string times(int n, const std::string& text) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += text;
  return out;
}

TEST(Utf8, WellFormedTextIsKept) {
  for (const std::string& text : std::vector<std::string>{
           "", "plain ascii", "caf\xC3\xA9", "\xE2\x82\xAC 5", "\xF0\x9F\x98\x80", "\xEF\xBF\xBF",
           "\xF4\x8F\xBF\xBF", std::string("nul\0inside", 10)}) {
    EXPECT_TRUE(is_valid_utf8(text)) << text;
    EXPECT_EQ(to_valid_utf8(text), text);
  }
}

TEST(Utf8, OneReplacementPerMaximalSubpart) {
  // The Unicode Standard's example (chapter 3, "U+FFFD Substitution of Maximal Subparts").
  EXPECT_EQ(to_valid_utf8("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"),
            "a" + fffd + fffd + fffd + "b" + fffd + "c" + fffd + fffd + "d");
  EXPECT_EQ(to_valid_utf8("\xE2\x82"), fffd);  // cut short at the end
  EXPECT_EQ(to_valid_utf8("\xE2\x82"
                          "A"),
            fffd + "A");  // the breaking byte is kept
  EXPECT_EQ(to_valid_utf8("\xC3"
                          "A"),
            fffd + "A");
  EXPECT_EQ(to_valid_utf8("\xFF\xFE"), fffd + fffd);
}

TEST(Utf8, OverlongSurrogateAndTooLargeFormsAreRefusedBytewise) {
  EXPECT_EQ(to_valid_utf8("\xC0\x80"), times(2, fffd));  // overlong NUL
  EXPECT_EQ(to_valid_utf8("\xC1\xBF"), times(2, fffd));
  EXPECT_EQ(to_valid_utf8("\xE0\x80\xAF"), times(3, fffd));  // overlong '/'
  EXPECT_EQ(to_valid_utf8("\xF0\x80\x80\xAF"), times(4, fffd));
  EXPECT_EQ(to_valid_utf8("\xED\xA0\x80"), times(3, fffd));      // surrogate U+D800
  EXPECT_EQ(to_valid_utf8("\xF4\x90\x80\x80"), times(4, fffd));  // U+110000
  EXPECT_EQ(to_valid_utf8("\xF5\x80\x80\x80"), times(4, fffd));
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));
  EXPECT_FALSE(is_valid_utf8("ok\x80"));
}

// The check takes ASCII eight bytes at a time, and comes back to that after every other
// sequence: a stray byte is found wherever it stands among them.
TEST(Utf8, AStrayByteIsFoundAnywhereAmongAsciiAndOtherSequences) {
  const std::string ascii = "plain ascii text, long enough for several words";
  for (std::size_t at = 0; at <= ascii.size(); ++at) {
    const std::string valid = "\xC3\xA9" + ascii.substr(0, at) + "\xE2\x82\xAC" + ascii.substr(at);
    EXPECT_TRUE(is_valid_utf8(valid)) << at;
    std::string stray = valid;
    stray.insert(2 + at, "\x80");
    EXPECT_FALSE(is_valid_utf8(stray)) << at;
    EXPECT_FALSE(is_valid_utf8(valid + ascii + "\xC3")) << at;  // cut short at the end
  }
}

TEST(Utf8, EveryResultIsWellFormed) {
  // All two-byte strings, and each byte before some well-formed and ill-formed tails.
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const std::string text{static_cast<char>(a), static_cast<char>(b)};
      ASSERT_TRUE(is_valid_utf8(to_valid_utf8(text))) << a << ' ' << b;
      ASSERT_TRUE(is_valid_utf8(to_terminal_text(text))) << a << ' ' << b;
    }
    for (const std::string& tail :
         std::vector<std::string>{"\x80\x80\x80", "\xBF\xBF", "\xA0\x80", "\x90\x80\x80"}) {
      const std::string text = static_cast<char>(a) + tail;
      ASSERT_TRUE(is_valid_utf8(to_valid_utf8(text))) << a;
    }
  }
}

TEST(TerminalText, ControlCharactersAreReplaced) {
  EXPECT_EQ(to_terminal_text("\x1B[2J\x1B]0;title\x07"), fffd + "[2J" + fffd + "]0;title" + fffd);
  EXPECT_EQ(to_terminal_text("a\r\nb\tc\x7F"), "a" + fffd + fffd + "b" + fffd + "c" + fffd);
  EXPECT_EQ(to_terminal_text("\xC2\x9B"
                             "31m"),
            fffd + "31m");  // C1 CSI
  EXPECT_EQ(to_terminal_text("\xE2\x80\xAE"
                             "lmth.exe"),
            fffd + "lmth.exe");                              // RLO
  EXPECT_EQ(to_terminal_text("\xE2\x81\xA6x"), fffd + "x");  // LRI
  EXPECT_EQ(to_terminal_text("\x9B"), fffd);                 // not UTF-8
  EXPECT_EQ(to_terminal_text("caf\xC3\xA9 \xE2\x82\xAC ~"), "caf\xC3\xA9 \xE2\x82\xAC ~");
}

}  // namespace
}  // namespace corocrawl
