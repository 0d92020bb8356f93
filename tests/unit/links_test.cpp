// Link extraction: what a browser would treat as a link, and nothing else.

#include "html/links.hpp"

#include <gtest/gtest.h>

#include <string>

#include "links_test_support.hpp"

namespace corocrawl::link_tests {
namespace {

// ---- what is a link ------------------------------------------------------------------------

TEST(ExtractLinks, AbsoluteLink) {
  EXPECT_EQ(extract(R"(<a href="http://other.org/x">x</a>)"), links{"http://other.org/x"});
}

TEST(ExtractLinks, RelativeLinksResolveAgainstThePage) {
  EXPECT_EQ(extract(R"(<a href="a"></a><a href="/b"></a><a href="../c"></a><a href="?q"></a>)"),
            (links{"http://example.com/dir/a", "http://example.com/b", "http://example.com/c",
                   "http://example.com/dir/page.html?q"}));
}

TEST(ExtractLinks, LinksAreNormalised) {
  EXPECT_EQ(extract(R"(<a href="HTTP://Other.ORG:80/%7eme#top"></a>)"),
            links{"http://other.org/~me"});
}

TEST(ExtractLinks, AreaAndLinkElements) {
  EXPECT_EQ(extract(R"(<head><link rel="stylesheet" href="s.css"><link rel=icon href=/i.ico>
                       </head><map><area href="m1" shape=rect></map>)"),
            (links{"http://example.com/dir/s.css", "http://example.com/i.ico",
                   "http://example.com/dir/m1"}));
}

TEST(ExtractLinks, TagAndAttributeNamesAreCaseInsensitive) {
  EXPECT_EQ(extract(R"(<A HREF="X"></A><Area HrEf="Y">)"),
            (links{"http://example.com/dir/X", "http://example.com/dir/Y"}));
}

TEST(ExtractLinks, DocumentOrder) {
  EXPECT_EQ(extract(R"(<a href=3></a><div><a href=1></a><p><a href=2></a></p></div><a href=0>)"),
            (links{"http://example.com/dir/3", "http://example.com/dir/1",
                   "http://example.com/dir/2", "http://example.com/dir/0"}));
}

TEST(ExtractLinks, DuplicatesAreRemovedKeepingFirstPosition) {
  EXPECT_EQ(extract(R"(<a href=x></a><a href=y></a><a href="./x"></a><a href="x#f"></a>
                       <a href="http://example.com/dir/x"></a><a href=y></a>)"),
            (links{"http://example.com/dir/x", "http://example.com/dir/y"}));
}

TEST(ExtractLinks, AnchorWithoutHrefIsNoLink) {
  EXPECT_EQ(extract(R"(<a name="top">top</a><a id=x></a>)"), links{});
}

TEST(ExtractLinks, EmptyHrefIsThePage) {
  EXPECT_EQ(extract(R"(<a href="">)"), links{kPage});
}

TEST(ExtractLinks, FragmentLinkIsThePage) {
  EXPECT_EQ(extract(R"(<a href="#x">)"), links{kPage});
}

TEST(ExtractLinks, OtherSchemesAreReturned) {
  EXPECT_EQ(extract(R"h(<a href="mailto:Someone@Example.com"></a><a href="javascript:void(0)"></a>
                       <a href="FTP://Files.example.com/f"></a><a href="tel:+15551234"></a>)h"),
            (links{"mailto:Someone@Example.com", "javascript:void(0)", "ftp://files.example.com/f",
                   "tel:+15551234"}));
}

TEST(ExtractLinks, UnresolvableHrefsAreSkipped) {
  EXPECT_EQ(extract(R"(<a href="http://[bad"></a><a href="http://"></a><a href="ok"></a>)"),
            links{"http://example.com/dir/ok"});
}

TEST(ExtractLinks, InvalidPageUrlGivesOnlyNothing) {
  EXPECT_EQ(extract_links(R"(<a href="x"></a><a href="http://a/"></a>)", "not a url"), links{});
}

// ---- <base href> ---------------------------------------------------------------------------

TEST(ExtractLinks, AbsoluteBase) {
  EXPECT_EQ(extract(R"(<head><base href="http://cdn.example.net/b/"></head><a href="x">)"),
            links{"http://cdn.example.net/b/x"});
}

TEST(ExtractLinks, RelativeBaseResolvesAgainstThePage) {
  EXPECT_EQ(extract(R"(<base href="/sub/"><a href="x"></a><a href="../y">)"),
            (links{"http://example.com/sub/x", "http://example.com/y"}));
  EXPECT_EQ(extract(R"(<base href="other/"><a href="x">)"),
            links{"http://example.com/dir/other/x"});
}

TEST(ExtractLinks, BaseAppliesToLinksBeforeIt) {
  EXPECT_EQ(extract(R"(<a href="x"></a><base href="/b/">)"), links{"http://example.com/b/x"});
}

TEST(ExtractLinks, FirstBaseWithHrefWins) {
  EXPECT_EQ(extract(R"(<base target="_blank"><base href="/one/"><base href="/two/"><a href=x>)"),
            links{"http://example.com/one/x"});
}

TEST(ExtractLinks, BaseDoesNotAffectAbsoluteLinks) {
  EXPECT_EQ(extract(R"(<base href="http://cdn.net/"><a href="https://x.org/a">)"),
            links{"https://x.org/a"});
}

TEST(ExtractLinks, BaseIsNotALink) {
  EXPECT_EQ(extract(R"(<base href="http://cdn.example.net/">)"), links{});
}

TEST(ExtractLinks, JavascriptBaseIsIgnored) {
  EXPECT_EQ(extract(R"h(<base href="javascript:alert(1)"><a href="x">)h"),
            links{"http://example.com/dir/x"});
}

TEST(ExtractLinks, UnresolvableBaseIsIgnored) {
  EXPECT_EQ(extract(R"(<base href="http://[bad/"><a href="x">)"),
            links{"http://example.com/dir/x"});
}

TEST(ExtractLinks, BaseInTemplateOrSvgIsIgnored) {
  EXPECT_EQ(extract(R"(<template><base href="/t/"></template><svg><base href="/s/"></svg>
                       <a href="x">)"),
            links{"http://example.com/dir/x"});
}

// ---- what is not a link --------------------------------------------------------------------

TEST(ExtractLinks, CommentsAreNotLinks) {
  EXPECT_EQ(extract(R"(<!-- <a href="c1"></a> --><!--><a href="ok1"></a><!-- x --!><a href=ok2>)"),
            (links{"http://example.com/dir/ok1", "http://example.com/dir/ok2"}));
}

// A <style>'s url() is a reference of its own (tested with the inline CSS below), but no
// markup in a script or style is.
TEST(ExtractLinks, ScriptAndStyleAreNotLinks) {
  EXPECT_EQ(extract(R"(<script>document.write('<a href="s1">'); var h = "href='s2'";</script>
                       <style>/* <a href="s3"> */ a { background: url(s4.png) }</style>)"),
            links{"http://example.com/dir/s4.png"});
}

TEST(ExtractLinks, RawTextElementsAreNotLinks) {
  EXPECT_EQ(extract(R"(<title><a href="t"></title><textarea><a href="x"></textarea>
                       <iframe><a href="i"></a></iframe><xmp><a href="p"></xmp>)"),
            links{});
}

TEST(ExtractLinks, TextIsNotALink) {
  EXPECT_EQ(extract(R"(<p>see href="http://a/" or http://b/ or &lt;a href="c"&gt;</p>)"), links{});
}

TEST(ExtractLinks, OtherAttributesAreNotLinks) {
  // <img src> and <script src> are references (resources); the rest is not.
  EXPECT_EQ(extract(R"(<div data-href="d" title='<a href="t">'><img src="i.png"><script
                       src="s.js"></script><form action="f"><a data-x='href="y"'></a>)"),
            (links{"http://example.com/dir/i.png", "http://example.com/dir/s.js"}));
}

TEST(ExtractLinks, HrefOnOtherElementsIsNotALink) {
  EXPECT_EQ(extract(R"(<div href="d"></div><img href="i"><span href="s">)"), links{});
}

TEST(ExtractLinks, TemplateContentIsALinkSinceScriptsShowIt) {
  EXPECT_EQ(extract(R"(<template><a href="t1"></a><div><a href="t2"></a></div></template>
                       <a href="after">)"),
            (links{"http://example.com/dir/t1", "http://example.com/dir/t2",
                   "http://example.com/dir/after"}));
}

TEST(ExtractLinks, NoscriptContentIsALinkSinceTheCrawlerRunsNoScripts) {
  EXPECT_EQ(extract(R"(<noscript><a href="n"></a></noscript>)"), links{"http://example.com/dir/n"});
}

// ---- SVG and MathML ------------------------------------------------------------------------

TEST(ExtractLinks, SvgAnchors) {
  EXPECT_EQ(extract(R"(<svg><a xlink:href="s1"/><a href="s2"/><a xlink:href="no" href="s3"/>
                       <circle href="c"/><use xlink:href="#u"/></svg>)"),
            (links{"http://example.com/dir/s1", "http://example.com/dir/s2",
                   "http://example.com/dir/s3"}));
}

TEST(ExtractLinks, MathMlAnchorIsNoLink) {
  EXPECT_EQ(extract(R"(<math><a href="m"></a><mi href="n">x</mi></math>)"), links{});
}

TEST(ExtractLinks, CdataInSvgIsText) {
  EXPECT_EQ(extract(R"(<svg><![CDATA[<a href="c">]]><a href="s"/></svg>)"),
            links{"http://example.com/dir/s"});
}

TEST(ExtractLinks, HtmlInsideForeignObjectIsHtml) {
  EXPECT_EQ(extract(R"(<svg><foreignObject><div><a href="f"></a></div></foreignObject></svg>)"),
            links{"http://example.com/dir/f"});
}

// ---- attribute values ----------------------------------------------------------------------

TEST(ExtractLinks, EntitiesAreDecoded) {
  EXPECT_EQ(extract(R"(<a href="a?x=1&amp;y=2"></a><a href="&#x2F;abs&#47;p"></a>)"),
            (links{"http://example.com/dir/a?x=1&y=2", "http://example.com/abs/p"}));
}

TEST(ExtractLinks, WhitespaceAndNewlinesInHref) {
  EXPECT_EQ(extract("<a href=\"  \n b\nc \t\"></a><a href=' d e '></a>"),
            (links{"http://example.com/dir/bc", "http://example.com/dir/d%20e"}));
}

TEST(ExtractLinks, UnquotedAndSingleQuotedValues) {
  EXPECT_EQ(extract(R"(<a href=x?a=1></a><a href='y"z'></a>)"),
            (links{"http://example.com/dir/x?a=1", "http://example.com/dir/y%22z"}));
}

TEST(ExtractLinks, NonAsciiHref) {
  EXPECT_EQ(extract("<a href=\"caf\xC3\xA9 menu\"></a>"),
            links{"http://example.com/dir/caf%C3%A9%20menu"});
}

// ---- malformed input -----------------------------------------------------------------------

TEST(ExtractLinks, EmptyDocument) {
  EXPECT_EQ(extract(""), links{});
  EXPECT_EQ(extract(" \n "), links{});
  EXPECT_EQ(extract("no markup at all"), links{});
}

TEST(ExtractLinks, UnclosedTags) {
  EXPECT_EQ(extract(R"(<html><body><div><a href=a1><p>text<table><tr><td><a href=a2><ul><li>
                       <a href=a3>)"),
            (links{"http://example.com/dir/a1", "http://example.com/dir/a2",
                   "http://example.com/dir/a3"}));
}

TEST(ExtractLinks, Garbage) {
  EXPECT_EQ(extract(R"(<<<>>></b></i></html><a href=x>garbage</p><//><? ?><! bogus><a href="y">)"),
            (links{"http://example.com/dir/x", "http://example.com/dir/y"}));
  // "<!" opens a bogus comment that the next ">" closes, wherever that is.
  EXPECT_EQ(extract(R"(<! <a href="hidden"><a href="z">)"), links{"http://example.com/dir/z"});
}

TEST(ExtractLinks, TagCutOffAtEndOfInputIsDropped) {
  // The HTML tokenizer drops a tag that the input ends inside.
  EXPECT_EQ(extract(R"(<a href=ok></a><a href=x)"), links{"http://example.com/dir/ok"});
  EXPECT_EQ(extract(R"(<a href="unterminated)"), links{});
}

TEST(ExtractLinks, InvalidUtf8) {
  EXPECT_EQ(extract("<meta charset=utf-8>\xFF\xFE<a href=\"ok\">\xC3\x28</a><a href=\"x\xFF\">"),
            (links{"http://example.com/dir/ok", "http://example.com/dir/x%EF%BF%BD"}));
}

// ---- charsets ---------------------------------------------------------------------------------

// A page is decoded before its links are resolved: its path is UTF-8, its query in the page's
// own encoding, as browsers send them.
TEST(ExtractLinks, PagesAreDecodedByTheirCharset) {
  // Latin-1 by its Content-Type, by its <meta>, and (no declaration, not UTF-8) by default.
  const std::string latin1 = "<a href=\"caf\xE9.html?q=\xE9\">x</a>";
  const links expected{"http://example.com/dir/caf%C3%A9.html?q=%E9"};
  EXPECT_EQ(
      extract_references(latin1, kPage, markup_reading::compact, "iso-8859-1").links.at(0).url,
      expected[0]);
  EXPECT_EQ(extract("<meta charset=latin1>" + latin1), expected);
  EXPECT_EQ(extract(latin1), expected);
  EXPECT_EQ(extract_references(latin1, kPage, markup_reading::compact, "ISO-8859-1").encoding,
            "windows-1252");
  // Shift_JIS: "日本" is 93FA 967B.
  EXPECT_EQ(extract("<meta charset=shift_jis><a href=\"\x93\xFA\x96\x7B.html?k=\x93\xFA\">"),
            links{"http://example.com/dir/%E6%97%A5%E6%9C%AC.html?k=%93%FA"});
  // UTF-16LE with its BOM.
  std::string utf16{"\xFF\xFE"};
  for (const char c : std::string_view("<a href=u16.html>x</a>")) {
    utf16 += c;
    utf16 += '\0';
  }
  EXPECT_EQ(extract(utf16), links{"http://example.com/dir/u16.html"});
}

TEST(ExtractLinks, NulBytes) {
  using namespace std::string_literals;
  EXPECT_EQ(extract("\0<a href=\"a\0b\">\0</a>"s), links{"http://example.com/dir/a%EF%BF%BDb"});
}

TEST(ExtractLinks, AnchorInsideSelectIsIgnoredLikeBrowsersDo) {
  EXPECT_EQ(extract(R"(<select><option><a href="in"></a></select><a href="out">)"),
            links{"http://example.com/dir/out"});
  // <input> closes the select; the <svg> before it was ignored.
  EXPECT_EQ(extract(R"(<select><svg><input><a href="after-input">)"),
            links{"http://example.com/dir/after-input"});
}

TEST(ExtractLinks, ManyUnclosedParagraphs) {
  std::string html;
  for (int i = 0; i < 2000; ++i)
    html += "<p><a href=p" + std::to_string(i) + ">";
  const links found = extract(html);
  ASSERT_EQ(found.size(), 2000U);
  EXPECT_EQ(found.front(), "http://example.com/dir/p0");
  EXPECT_EQ(found.back(), "http://example.com/dir/p1999");
}

TEST(ExtractLinks, BaseAfterManyLinksAppliesToAll) {
  std::string html;
  for (int i = 0; i < 3000; ++i)
    html += "<p><a href=" + std::to_string(i) + ">x</a>";
  html += "<base href=/b/>";
  const links found = extract(html);
  ASSERT_EQ(found.size(), 3000U);
  EXPECT_EQ(found.front(), "http://example.com/b/0");
  EXPECT_EQ(found.back(), "http://example.com/b/2999");
}

TEST(ExtractLinks, ManyLinks) {
  std::string html;
  for (int i = 0; i < 20000; ++i)
    html += "<a href=/" + std::to_string(i % 5000) + ">";
  const links found = extract(html);
  ASSERT_EQ(found.size(), 5000U);
  EXPECT_EQ(found[4999], "http://example.com/4999");
}

}  // namespace
}  // namespace corocrawl::link_tests
