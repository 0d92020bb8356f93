// The URLs a stylesheet references: what CSS tokenization makes a URL, and nothing else.

#include "css/css_references.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace corocrawl::css {
namespace {

using urls = std::vector<std::string>;

const std::string fffd = "\xEF\xBF\xBD";

urls urls_of(std::string_view css) {
  urls out;
  for (const css_reference& r : css_references(css))
    out.push_back(r.url);
  return out;
}

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i)
    out += s;
  return out;
}

css_reference ref(std::string url, bool import, std::uint32_t line, std::uint32_t column) {
  return {std::move(url), import, line, column};
}

TEST(CssReferences, UnquotedAndQuotedUrls) {
  EXPECT_EQ(urls_of("a { background: url(a.png) }"), urls{"a.png"});
  EXPECT_EQ(urls_of("a { background: url(\"b.png\") }"), urls{"b.png"});
  EXPECT_EQ(urls_of("a { background: url('c.png') }"), urls{"c.png"});
  EXPECT_EQ(urls_of("a{b:url(  d.png  )}"), urls{"d.png"});
  EXPECT_EQ(urls_of("a{b:url(  'e.png'  )}"), urls{"e.png"});
  EXPECT_EQ(urls_of("a{b:url(\n\t\"f.png\"\n)}"), urls{"f.png"});
  EXPECT_EQ(urls_of("a{b:url(' g.png\t')}"), urls{"g.png"});  // whitespace in the string too
  EXPECT_EQ(urls_of("a{b:url(1) url(2),url(3)}"), (urls{"1", "2", "3"}));
  const auto refs = css_references("a{b:url(x)}");
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_FALSE(refs[0].import);
}

TEST(CssReferences, UrlNameIsCaseInsensitiveAndMayBeEscaped) {
  EXPECT_EQ(urls_of("a{b:URL(a) Url('b')}"), (urls{"a", "b"}));
  EXPECT_EQ(urls_of("a{b:u\\72l(c)}"), urls{"c"});
  EXPECT_EQ(urls_of("a{b:\\75 rl(d)}"), urls{"d"});
  EXPECT_EQ(urls_of("a{b:\\55 R\\l('e')}"), urls{"e"});
  EXPECT_EQ(urls_of("a{b:\\000075rl(f)}"), urls{"f"});
}

TEST(CssReferences, OtherTokensEndingInUrlAreNotUrls) {
  EXPECT_EQ(urls_of("#url(a) 1url(b) --url(c) myurl(d) x-url(e) @url(f) url (g)"), urls{});
  EXPECT_EQ(urls_of(".url(h)"), urls{"h"});  // a delimiter, then a url
  EXPECT_EQ(urls_of("url"), urls{});
  EXPECT_EQ(urls_of(repeat("u", 100) + "rl(x)"), urls{});
  EXPECT_EQ(urls_of("urlurl(x)"), urls{});
  EXPECT_EQ(urls_of("-url(x)"), urls{});  // an ident "-url"
}

TEST(CssReferences, CommentsAndStringsAreSkipped) {
  EXPECT_EQ(urls_of("a::before { content: \"url(x)\" }"), urls{});
  EXPECT_EQ(urls_of("a::before { content: 'url(x)' }"), urls{});
  EXPECT_EQ(urls_of("/* url(x) */ a { b: url(y) }"), urls{"y"});
  EXPECT_EQ(urls_of("a { b: /* url(x) } */ url(y) }"), urls{"y"});
  EXPECT_EQ(urls_of("a { b: url(y) } /* url(x)"), urls{"y"});          // unterminated: to the end
  EXPECT_EQ(urls_of("a{content:\"a\\\"url(x)\" url(y)}"), urls{"y"});  // an escaped quote
  EXPECT_EQ(urls_of("a{content:'\"url(x)' url(y)}"), urls{"y"});
  EXPECT_EQ(urls_of("/**/url(a)/*/url(b)*/url(c)"), (urls{"a", "c"}));
  // A comment is not a token: it joins nothing and splits nothing.
  EXPECT_EQ(urls_of("u/**/rl(a)"), urls{});
  EXPECT_EQ(urls_of("@import/**/'a.css';"), urls{"a.css"});
}

TEST(CssReferences, BadStringsEndAtANewline) {
  EXPECT_EQ(urls_of("a{content:\"url(x)\nurl(y)}"), urls{"y"});
  EXPECT_EQ(urls_of("a{b:url(\"abc\nd)} c{d:url(e)}"), urls{"e"});
  EXPECT_EQ(urls_of("@import 'a.css\n;"), urls{});
  EXPECT_EQ(urls_of("image-set('a\r\n'b' 1x)"), urls{"b"});
}

TEST(CssReferences, BadUrlsAreSkippedToTheirEnd) {
  EXPECT_EQ(urls_of("a{b:url(a\"b) url(c)}"), urls{"c"});
  EXPECT_EQ(urls_of("a{b:url(a'b) url(c)}"), urls{"c"});
  EXPECT_EQ(urls_of("a{b:url(a(b) url(c)}"), urls{"c"});
  EXPECT_EQ(urls_of("a{b:url(a\x01"
                    "b) url(c)}"),
            urls{"c"});
  EXPECT_EQ(urls_of("a{b:url(a\x7f"
                    "b) url(c)}"),
            urls{"c"});
  EXPECT_EQ(urls_of("a{b:url(a b) url(c)}"), urls{"c"});
  EXPECT_EQ(urls_of("a{b:url(a\\\nb) url(c)}"), urls{"c"});  // backslash-newline
  // An escaped ')' does not end the bad url.
  EXPECT_EQ(urls_of("a{b:url(a\"\\) url(b)) url(c)}"), urls{"c"});
  EXPECT_EQ(urls_of("a{b:url(a\"b"), urls{});  // to the end
}

TEST(CssReferences, EmptyUrlsAreLeftOut) {
  EXPECT_EQ(urls_of("a{b:url() url( ) url(\"\") url('  ') url(\"\\20\")}"), urls{});
  EXPECT_EQ(urls_of("@import ''; @import url(); @import url(\"\");"), urls{});
  EXPECT_EQ(urls_of("image-set('' 1x, \" \" 2x)"), urls{});
}

TEST(CssReferences, UnterminatedAtTheEnd) {
  // The end of the input ends a url token and a string: they still count.
  EXPECT_EQ(urls_of("a{b:url(a.png"), urls{"a.png"});
  EXPECT_EQ(urls_of("a{b:url(a.png  "), urls{"a.png"});
  EXPECT_EQ(urls_of("a{b:url('a.png"), urls{"a.png"});
  EXPECT_EQ(urls_of("@import \"x.css"), urls{"x.css"});
  EXPECT_EQ(urls_of("a{b:url(a\\"), urls{"a" + fffd});  // an escape cut off is U+FFFD
  EXPECT_EQ(urls_of("a{b:url('a\\"), urls{"a"});        // in a string, nothing
  EXPECT_EQ(urls_of("a{b:url("), urls{});
  EXPECT_EQ(urls_of("a{b:url( "), urls{});
  EXPECT_EQ(urls_of("a{b:url"), urls{});
  EXPECT_EQ(urls_of("@import"), urls{});
  EXPECT_EQ(urls_of("image-set("), urls{});
  EXPECT_EQ(urls_of("\\"), urls{});
  EXPECT_EQ(urls_of("/*"), urls{});
  EXPECT_EQ(urls_of("'"), urls{});
}

TEST(CssReferences, Imports) {
  const auto refs = css_references(
      "@import \"a.css\";\n@import url(b.css) screen;\n@import url( 'c.css' );\n"
      "@IMPORT 'd.css' layer(x);\n@im\\70 ort \"e.css\";");
  EXPECT_EQ(refs, (std::vector<css_reference>{ref("a.css", true, 1, 1), ref("b.css", true, 2, 1),
                                              ref("c.css", true, 3, 1), ref("d.css", true, 4, 1),
                                              ref("e.css", true, 5, 1)}));
}

TEST(CssReferences, ImportTakesOnlyATargetRightAfterIt) {
  // A string after something else is no target (and the rule is invalid).
  EXPECT_EQ(urls_of("@import foo \"x.css\";"), urls{});
  EXPECT_EQ(urls_of("@import; \"x.css\""), urls{});
  // A url() later in the prelude is still a url().
  const auto refs = css_references("@import foo url(x.css);");
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_FALSE(refs[0].import);
  // Only the first string.
  EXPECT_EQ(css_references("@import 'a' 'b';"), (std::vector<css_reference>{ref("a", true, 1, 1)}));
  EXPECT_EQ(urls_of("@importx 'a'; @-import 'b'"), urls{});
}

TEST(CssReferences, NamespaceUrlsReferenceNothing) {
  EXPECT_EQ(urls_of("@namespace url(http://www.w3.org/1999/xhtml);"), urls{});
  EXPECT_EQ(urls_of("@namespace svg url(http://www.w3.org/2000/svg);"), urls{});
  EXPECT_EQ(urls_of("@NAMESPACE svg \"http://www.w3.org/2000/svg\";"), urls{});
  EXPECT_EQ(urls_of("@namespace svg url('x'); a { b: url(y) }"), urls{"y"});
  // The prelude ends at a ';' or '{' of its own level, or the '}' that closes its block.
  EXPECT_EQ(urls_of("@namespace (;url(a)) url(b); url(c)"), urls{"c"});
  EXPECT_EQ(urls_of("@namespace url(a) { url(b) }"), urls{"b"});
  EXPECT_EQ(urls_of("@media x { @namespace url(a) } url(b)"), urls{"b"});
  EXPECT_EQ(urls_of("(@namespace url(a)) url(b)"), urls{"b"});
}

TEST(CssReferences, ImageSetStrings) {
  EXPECT_EQ(urls_of("a{b:image-set(\"a.png\" 1x, 'b.png' 2x)}"), (urls{"a.png", "b.png"}));
  EXPECT_EQ(urls_of("a{b:-webkit-image-set(url(c.png) 1x, \"d.png\" 2x)}"),
            (urls{"c.png", "d.png"}));
  EXPECT_EQ(urls_of("a{b:IMAGE-SET('e.png' 1x) -WebKit-Image-Set('f.png' 1x)}"),
            (urls{"e.png", "f.png"}));
  EXPECT_EQ(urls_of("a{b:image-set(url('g.png') 1x)}"), urls{"g.png"});  // not twice
  for (const css_reference& r : css_references("image-set('a' 1x, url(b) 2x)"))
    EXPECT_FALSE(r.import);
}

TEST(CssReferences, ImageSetTakesOnlyStringsDirectlyInside) {
  EXPECT_EQ(urls_of("image-set('a.avif' type('image/avif'), 'b.png' type(\"image/png\"))"),
            (urls{"a.avif", "b.png"}));
  EXPECT_EQ(urls_of("image-set((('x')) 'a')"), urls{"a"});
  EXPECT_EQ(urls_of("image-set('a' 1x) 'b'"), urls{"a"});
  EXPECT_EQ(urls_of("a { content: 'x'; b: image-set('a') }"), urls{"a"});
  // A closer of another kind does not end the function: only its ')' does.
  EXPECT_EQ(urls_of("image-set('a' ] } 'b') 'c'"), (urls{"a", "b"}));
  EXPECT_EQ(urls_of("image-set(cross-fade('a', 'b'), 'c')"), urls{"c"});
  EXPECT_EQ(urls_of("image-set(image-set('a') 'b')"), (urls{"a", "b"}));
  EXPECT_EQ(urls_of("image-set ('a')"), urls{});  // an ident, then a block
  EXPECT_EQ(urls_of("my-image-set('a') -moz-image-set('b')"), urls{});
}

TEST(CssReferences, HexEscapes) {
  EXPECT_EQ(urls_of("url(\\41 b)"), urls{"Ab"});  // one whitespace after the digits goes
  EXPECT_EQ(urls_of("url(\\41  b)"), urls{});     // a second is the url's whitespace: bad
  EXPECT_EQ(urls_of("url('\\41  b')"), urls{"A b"});
  EXPECT_EQ(urls_of("url('\\41\r\nb')"), urls{"Ab"});  // CRLF is one whitespace
  EXPECT_EQ(urls_of("url(\\000041)"), urls{"A"});
  EXPECT_EQ(urls_of("url(\\0000410)"), urls{"A0"});  // six digits at most
  EXPECT_EQ(urls_of("url(\\e9)"), urls{"\xC3\xA9"});
  EXPECT_EQ(urls_of("url(\\20AC)"), urls{"\xE2\x82\xAC"});
  EXPECT_EQ(urls_of("url(\\1F600)"), urls{"\xF0\x9F\x98\x80"});
  EXPECT_EQ(urls_of("url(\\10FFFF)"), urls{"\xF4\x8F\xBF\xBF"});
  EXPECT_EQ(urls_of("url(\\0)"), urls{fffd});
  EXPECT_EQ(urls_of("url(\\D800)"), urls{fffd});
  EXPECT_EQ(urls_of("url(\\DFFF)"), urls{fffd});
  EXPECT_EQ(urls_of("url(\\110000)"), urls{fffd});
  EXPECT_EQ(urls_of("url(\\FFFFFF)"), urls{fffd});
  EXPECT_EQ(urls_of("url(\\1234567)"), urls{fffd + "7"});
  EXPECT_EQ(urls_of("url(a\\2f b\\2F c)"), urls{"a/b/c"});
}

TEST(CssReferences, OtherEscapes) {
  EXPECT_EQ(urls_of("url(a\\)b)"), urls{"a)b"});
  EXPECT_EQ(urls_of("url(a\\(b\\ c\\'d\\\"e)"), urls{"a(b c'd\"e"});
  EXPECT_EQ(urls_of("url(\\g)"), urls{"g"});
  EXPECT_EQ(urls_of("url(\\\xC3\xA9)"), urls{"\xC3\xA9"});  // a multibyte character
  EXPECT_EQ(urls_of("url('a\\'b') url(\"c\\\"d\")"), (urls{"a'b", "c\"d"}));
  EXPECT_EQ(urls_of("url('a\\\\b')"), urls{"a\\b"});
  // A backslash and a newline in a string are nothing: a line continuation.
  EXPECT_EQ(urls_of("url('a\\\nb') url('c\\\r\nd') url('e\\\rf') url('g\\\fh')"),
            (urls{"ab", "cd", "ef", "gh"}));
}

TEST(CssReferences, NulIsTheReplacementCharacter) {
  using namespace std::string_literals;
  EXPECT_EQ(urls_of("url(a\0b)"s), urls{"a" + fffd + "b"});
  EXPECT_EQ(urls_of("url('a\0b')"s), urls{"a" + fffd + "b"});
  EXPECT_EQ(urls_of("url(\\\0)"s), urls{fffd});
  EXPECT_EQ(urls_of("ur\0l(x)"s), urls{});  // not the name "url"
}

TEST(CssReferences, DataUrlsAreReturnedLikeAnyOther) {
  EXPECT_EQ(urls_of("a{b:url(data:image/png;base64,iVBORw0KGgo=)}"),
            urls{"data:image/png;base64,iVBORw0KGgo="});
  EXPECT_EQ(
      urls_of("a{b:url(\"data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg'/>\")}"),
      urls{"data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg'/>"});
}

TEST(CssReferences, Positions) {
  const auto refs = css_references(
      "@import 'a.css';\n"
      "  b { c: url(d.png); e: URL( \"f.png\" ) }\n"
      "g { h: image-set('i.png' 1x,\n"
      "   url(j.png) 2x) }\n");
  EXPECT_EQ(refs,
            (std::vector<css_reference>{ref("a.css", true, 1, 1), ref("d.png", false, 2, 10),
                                        ref("f.png", false, 2, 25), ref("i.png", false, 3, 18),
                                        ref("j.png", false, 4, 4)}));
}

TEST(CssReferences, PositionOfAnEscapedNameIsItsFirstByte) {
  EXPECT_EQ(css_references("a{b: \\75 rl(x)}"),
            (std::vector<css_reference>{ref("x", false, 1, 6)}));
}

TEST(CssReferences, EveryLineBreak) {
  const auto refs = css_references("url(a)\nurl(b)\r\nurl(c)\rurl(d)\furl(e)\n\r\n\r\furl(f)");
  EXPECT_EQ(refs, (std::vector<css_reference>{ref("a", false, 1, 1), ref("b", false, 2, 1),
                                              ref("c", false, 3, 1), ref("d", false, 4, 1),
                                              ref("e", false, 5, 1), ref("f", false, 9, 1)}));
}

TEST(CssReferences, LineBreaksInsideTokensCount) {
  // In comments, a line continuation in a string, the whitespace of a url and of an escape.
  const auto refs =
      css_references("/*\r\n\n*/ x{content:'a\\\r\nb'} url(\n\nc\n) url(\\41\r\nb) url(d)");
  EXPECT_EQ(refs, (std::vector<css_reference>{ref("c", false, 4, 5), ref("Ab", false, 7, 3),
                                              ref("d", false, 8, 4)}));
}

TEST(CssReferences, FirstLineAndColumn) {
  // The column offset applies to the first line only.
  const auto refs = css_references("  url(a)\n url(b)\r\nurl(c)", 10, 20);
  EXPECT_EQ(refs, (std::vector<css_reference>{ref("a", false, 10, 22), ref("b", false, 11, 2),
                                              ref("c", false, 12, 1)}));
  EXPECT_EQ(css_references("url(x)", 7, 5), (std::vector<css_reference>{ref("x", false, 7, 5)}));
}

TEST(CssReferences, ColumnsCountCodePoints) {
  // é (2 bytes), € (3), 😀 (4): one column each.
  const auto refs = css_references(
      "a::before{content:'\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80'} url(a) /* \xC3\xA9 */url(b)");
  EXPECT_EQ(refs, (std::vector<css_reference>{ref("a", false, 1, 26), ref("b", false, 1, 40)}));
  // Non-ASCII idents and urls.
  EXPECT_EQ(css_references("\xC3\xA9{b:url(\xC3\xA9.png)} url(c)"),
            (std::vector<css_reference>{ref("\xC3\xA9.png", false, 1, 5), ref("c", false, 1, 17)}));
}

TEST(CssReferences, DeepNesting) {
  const std::size_t n = 1'000'000;
  EXPECT_EQ(urls_of(repeat("(", n) + "url(a)" + repeat(")", n) + "url(b)"), (urls{"a", "b"}));
  EXPECT_EQ(urls_of(repeat("[{(", n) + "url(a)"), urls{"a"});
  EXPECT_EQ(urls_of(repeat("image-set(", n) + "'a'"), urls{"a"});
  EXPECT_EQ(urls_of(repeat("image-set('a' ", 1000)), urls(1000, "a"));
  EXPECT_EQ(urls_of(repeat("url(", n) + "'a'"), urls{});        // one bad url to the end
  EXPECT_EQ(urls_of(repeat("url('", n)), urls(n / 2, "url("));  // url( and a string "url("
  EXPECT_EQ(urls_of(repeat(")]}", n) + "url(a)"), urls{"a"});
  EXPECT_EQ(urls_of(repeat("@namespace (", n) + "url(a)"), urls{});
}

TEST(CssReferences, HostileInputsRunInLinearTime) {
  const std::size_t n = 1'000'000;
  // Each of these would be quadratic if a scan restarted at every opener.
  EXPECT_EQ(urls_of(repeat("/*", n)), urls{});
  EXPECT_EQ(urls_of(repeat("\"\n", n) + "url(a)"), urls{"a"});
  EXPECT_EQ(urls_of(repeat("'", n)), urls{});
  EXPECT_EQ(urls_of(repeat("url(a\"", n)), urls{});
  EXPECT_EQ(urls_of(repeat("url(\\)", n)), urls{});
  EXPECT_EQ(urls_of(repeat("@import", n)), urls{});
  EXPECT_EQ(urls_of(repeat("\\", n)), urls{});
  EXPECT_EQ(urls_of(repeat("a", 10 * n) + "(url(x)"), urls{"x"});
  EXPECT_EQ(urls_of(repeat("\\75", n) + "(url(x)"), urls{"x"});
  EXPECT_EQ(urls_of("url(" + repeat("a", 10 * n) + ")").at(0).size(), 10 * n);
  EXPECT_EQ(urls_of("'" + repeat("a", 10 * n)), urls{});

  // A 10 MB single line of references.
  const std::string line = repeat("a{b:url(x.png)} ", 10 * n / 16);
  const auto refs = css_references(line);
  ASSERT_EQ(refs.size(), 10 * n / 16);
  EXPECT_EQ(refs.back().line, 1u);
  EXPECT_EQ(refs.back().column, line.size() - 16 + 5);
  const auto lines = css_references(repeat("@import 'a';\r\n", n));
  ASSERT_EQ(lines.size(), n);
  EXPECT_EQ(lines.back(), ref("a", true, static_cast<std::uint32_t>(n), 1));
}

}  // namespace
}  // namespace corocrawl::css
