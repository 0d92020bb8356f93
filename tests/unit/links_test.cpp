// Link extraction: what a browser would treat as a link, and nothing else.

#include "html/links.hpp"

#include <gtest/gtest.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <random>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "html/link_tags.hpp"

namespace corocrawl {
namespace {

using links = std::vector<std::string>;

constexpr const char* kPage = "http://example.com/dir/page.html";

links extract(std::string_view html) {
  return extract_links(html, kPage);
}

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i)
    out += s;
  return out;
}

// Runs `body` on a thread with a 512 KiB stack, a quarter of what a deep document would need
// if the parse tree were built, walked or freed recursively.
template <class Body>
void on_small_stack(Body body) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 512 * 1024), 0);
  pthread_t thread;
  const auto run = [](void* arg) -> void* {
    (*static_cast<Body*>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, run, &body), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

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

TEST(ExtractLinks, ScriptAndStyleAreNotLinks) {
  EXPECT_EQ(extract(R"(<script>document.write('<a href="s1">'); var h = "href='s2'";</script>
                       <style>/* <a href="s3"> */ a { background: url(s4.png) }</style>)"),
            links{});
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
  EXPECT_EQ(extract(R"(<div data-href="d" title='<a href="t">'><img src="i.png"><script
                       src="s.js"></script><form action="f"><a data-x='href="y"'></a>)"),
            links{});
}

TEST(ExtractLinks, HrefOnOtherElementsIsNotALink) {
  EXPECT_EQ(extract(R"(<div href="d"></div><img href="i"><span href="s">)"), links{});
}

TEST(ExtractLinks, TemplateContentIsNotALink) {
  EXPECT_EQ(extract(R"(<template><a href="t1"></a><div><a href="t2"></a></div></template>
                       <a href="after">)"),
            links{"http://example.com/dir/after"});
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
  EXPECT_EQ(extract("\xFF\xFE<a href=\"ok\">\xC3\x28</a><a href=\"x\xFF\">"),
            (links{"http://example.com/dir/ok", "http://example.com/dir/x%EF%BF%BD"}));
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

// ---- hostile documents ---------------------------------------------------------------------

TEST(ExtractLinks, VeryDeeplyNestedDocument) {
  const std::string html =
      repeat("<div>", 100000) + "<a href=deep></a>" + repeat("</div>", 100000) + "<a href=end>";
  on_small_stack([&] {
    EXPECT_EQ(extract(html), (links{"http://example.com/dir/deep", "http://example.com/dir/end"}));
  });
}

TEST(ExtractLinks, DeepNestingWithoutEndTags) {
  const std::string html = repeat("<div><span><b>", 50000) + "<a href=deep>";
  on_small_stack([&] { EXPECT_EQ(extract(html), links{"http://example.com/dir/deep"}); });
}

TEST(ExtractLinks, DeepNestingThenFrameset) {
  // gumbo frees the replaced <body> subtree recursively while parsing.
  const std::string html = repeat("<div>", 100000) + "<frameset>";
  on_small_stack([&] { EXPECT_EQ(extract(html), links{}); });
}

TEST(ExtractLinks, DeeplyNestedSvg) {
  const std::string html = repeat("<svg><g>", 100000) + "<a href=s></a>";
  on_small_stack([&] { EXPECT_EQ(extract(html), links{"http://example.com/dir/s"}); });
}

TEST(ExtractLinks, DeepNestingKeepsRawTextAndTemplatesInert) {
  const std::string html = repeat("<div>", 2000) +
                           R"(<script><a href="s"></script><!-- <a href="c"> -->)"
                           R"(<template><a href="t"></a></template><a href="x<div>y">)";
  EXPECT_EQ(extract(html), links{"http://example.com/dir/x%3Cdiv%3Ey"});
}

TEST(ExtractLinks, TagWithVeryManyAttributes) {
  std::string html = "<a";
  for (int i = 0; i < 100000; ++i)
    html += " x" + std::to_string(i) + "='>'";
  html += " HREF=first href=second></a><div";
  for (int i = 0; i < 100000; ++i)
    html += " y" + std::to_string(i);
  html += "><a href=next>";
  EXPECT_EQ(extract(html), (links{"http://example.com/dir/first", "http://example.com/dir/next"}));
}

TEST(ExtractLinks, IgnoredTagWithVeryManyAttributes) {
  std::string html = "<select><div";
  for (int i = 0; i < 100000; ++i)
    html += " y" + std::to_string(i);
  html += "></select><a href=after>";
  EXPECT_EQ(extract(html), links{"http://example.com/dir/after"});
}

TEST(ExtractLinks, SvgAnchorWithVeryManyAttributes) {
  std::string html = "<svg><a";
  for (int i = 0; i < 1000; ++i)
    html += " x" + std::to_string(i);
  html += " xlink:href=\"s\"/></svg>";
  EXPECT_EQ(extract(html), links{"http://example.com/dir/s"});
}

TEST(ExtractLinks, InputsThatAbortGumbo) {
  // Each of these trips an assert() in gumbo 0.10.1 unless the markup is adjusted first
  // (the parse guard would then give up on the page, and gumbo print its assertion).
  const char* const documents[] = {
      "<table><svg><select><title><select><td>",
      "<table><tr><td><svg><select><desc><select></td>",
      "<table><math><th><mi><select></table>",
      "<table><svg><desc><![CDATA[x]]>y",
      "<table><math><mi><![CDATA[x]]>y",
      ("<select><noframes><keygen><table><math><select><annotation-xml "
       "encoding=text/html><select><tbody>"),
      "<table><frameset><math><td><mi><select></table>",
      "<table><svg><title><frameset><![CDATA[<]]><",
      "<table><math><desc><annotation-xml encoding=text/html><![CDATA[>]]><",
      "<head><table><math></head><annotation-xml encoding=text/html><input><![CDATA[>]]>&",
      "<table><svg><foreignObject><body><![CDATA[ ]]>a",
  };
  for (const char* html : documents) {
    for (const auto reading :
         {markup_reading::compact, markup_reading::shrunk, markup_reading::whole}) {
      testing::internal::CaptureStderr();
      EXPECT_EQ(extract_links(html, kPage, reading), links{}) << html;
      EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << html;  // no assert reached
    }
  }
  EXPECT_EQ(extract("<table><svg><select><title><select><td><a href=x>"),
            links{"http://example.com/dir/x"});
}

TEST(ExtractLinks, RemovingATagDoesNotMakeTextIntoATag) {
  // The <tbody> that would trip gumbo in SVG goes; the '<' before it must stay text.
  EXPECT_EQ(extract("<svg><<tbody>a href=x>"), links{});
  EXPECT_EQ(extract("<svg><<![CDATA[a href=y>]]>"), links{});
}

TEST(ExtractLinks, AnUnquotedValueKeepsItsEndWhenTheTagIsRewritten) {
  // Found by fuzzing: a '/' or an attribute written right after an unquoted value, or after
  // an empty one, became (part of) the value when a tag was trimmed or written as a link tag.
  for (const auto reading :
       {markup_reading::compact, markup_reading::shrunk, markup_reading::whole}) {
    EXPECT_EQ(extract_links("<a href=x class=y />", kPage, reading),
              links{"http://example.com/dir/x"});
    EXPECT_EQ(extract_links("<select></select><a href=x id=1 />", kPage, reading),
              links{"http://example.com/dir/x"});
    EXPECT_EQ(extract_links("<svg><a href=>", kPage, reading), links{kPage});
    EXPECT_EQ(extract_links("<svg><a xlink:href= >", kPage, reading), links{kPage});
    // Written in another order, an empty value took the next attribute as its value.
    EXPECT_EQ(extract_links("<svg><a xlink:href=\"\" href=>", kPage, reading), links{kPage});
    EXPECT_EQ(extract_links("<a type=x class=y href=>", kPage, reading), links{kPage});
  }
}

TEST(ExtractLinks, AnEndTagWithSpaceOrAttributesClosesForeignContent) {
  // Found by fuzzing: in SVG and MathML gumbo 0.10.1 matches an end tag by its text, so
  // "</math >" closed nothing and the link after it was read as MathML.
  for (const auto reading :
       {markup_reading::compact, markup_reading::shrunk, markup_reading::whole}) {
    for (const char* html : {"<math></math ><a href=x>", "<math></math/><a href=x>",
                             "<math></math\nclass=y><a href=x>", "<svg><g></g ></svg ><a href=x>",
                             "<math></math <><a href=x>"}) {
      EXPECT_EQ(extract_links(html, kPage, reading), links{"http://example.com/dir/x"}) << html;
    }
  }
}

TEST(ExtractLinks, FontWithAttributesLeavesSvg) {
  // <font color> ends SVG content, so this <select> is HTML and hides the first link.
  EXPECT_EQ(extract(R"(<svg><font color="red"><select><a href="in"></a></select><a href="out">)"),
            links{"http://example.com/dir/out"});
}

TEST(ExtractLinks, SvgLinkBeyondTheDepthLimit) {
  const std::string html = repeat("<div>", 2000) + R"(<svg><g><a xlink:href="s"/></g></svg>)";
  EXPECT_EQ(extract(html), links{"http://example.com/dir/s"});
}

TEST(ExtractLinks, AnAssertInGumboEndsOnlyThatParse) {
  // The limiter's idea of this table is wrong (<col> closed the cell), so gumbo reads the
  // CDATA section in a table and asserts; the page gives no links, and the process lives.
  const std::string html = "<a href=x><table><td><col><svg></td><foreignObject><![CDATA[ ]]>-";
  for (const auto reading :
       {markup_reading::compact, markup_reading::shrunk, markup_reading::whole}) {
    testing::internal::CaptureStderr();
    const links found = extract_links(html, kPage, reading);
    EXPECT_NE(testing::internal::GetCapturedStderr().find("Assertion"), std::string::npos);
    EXPECT_EQ(found, links{});
  }
  testing::internal::CaptureStderr();
  EXPECT_EQ(extract_links_taking(std::string(html), kPage).outcome, parse_outcome::gave_up);
  testing::internal::GetCapturedStderr();
  const page_links fine = extract_links_taking("<a href=y>", kPage);
  EXPECT_EQ(fine.outcome, parse_outcome::complete);
  EXPECT_EQ(fine.links, links{"http://example.com/dir/y"});
}

TEST(ExtractLinks, NestedTemplatesInTableContextsStayCheap) {
  // gumbo is quadratic here: without the limiter's bound on <template>s nested beyond its depth
  // limit, each of these takes minutes (and would end over the parse's 10 s budget).
  for (const std::string_view level : {"<template><tr>", "<template><td>", "<select><template>"}) {
    const std::string html = "<a href=first>" + repeat(level, 50000) + "<a href=last>";
    const page_links page = extract_links_taking(std::string(html), kPage);
    EXPECT_EQ(page.outcome, parse_outcome::complete) << level;
    EXPECT_EQ(page.links, links{"http://example.com/dir/first"}) << level;  // last: in a template
  }
}

TEST(ExtractLinks, TemplatesBeyondTheDepthLimitStayInertUpToTheirBound) {
  // <template>s above the depth limit are kept (their content is no link), up to dozens open
  // at once: further ones are dropped, but what they hold is still in the kept ones.
  const std::string few = repeat("<div>", 600) + repeat("<template>", 10) + "<a href=t>";
  EXPECT_EQ(extract(few), links{});
  const std::string many = repeat("<div>", 600) + repeat("<template>", 100) + "<a href=t>";
  EXPECT_EQ(extract(many), links{});
  const std::string closed =
      repeat("<div>", 600) + repeat("<template></template>", 100) + "<a href=t>";
  EXPECT_EQ(extract(closed), links{"http://example.com/dir/t"});
}

// A page large enough that reading it takes a while: many link tags for the compact reading,
// a <noscript> to send it to the whole-tree reading.
std::string big_page(bool whole_tree) {
  std::string html = whole_tree ? "<noscript></noscript>" : "";
  for (int i = 0; i < 100000; ++i)
    html += "<p><a href=p" + std::to_string(i) + ">link</a>";
  return html;
}

TEST(ExtractLinks, AStopRequestedEndsTheParseAtOnce) {
  for (const bool whole_tree : {false, true}) {
    std::stop_source stop;
    stop.request_stop();
    const page_links page =
        extract_links_taking(big_page(whole_tree), kPage, {.stop = stop.get_token()});
    EXPECT_EQ(page.outcome, parse_outcome::stopped);
    EXPECT_LT(page.links.size(), 1000U);
  }
}

TEST(ExtractLinks, AStopFromAnotherThreadEndsAParseUnderWay) {
  for (const bool whole_tree : {false, true}) {
    std::stop_source stop;
    std::atomic<bool> started = false;
    std::thread stopper([&] {
      while (!started)
        std::this_thread::yield();
      stop.request_stop();
    });
    std::string html = big_page(whole_tree);
    started = true;
    const page_links page =
        extract_links_taking(std::move(html), kPage, {.stop = stop.get_token()});
    stopper.join();
    EXPECT_EQ(page.outcome, parse_outcome::stopped);
    EXPECT_LT(page.links.size(), 100000U);
  }
}

TEST(ExtractLinks, AParseOverItsBudgetEnds) {
  for (const bool whole_tree : {false, true}) {
    const page_links page =
        extract_links_taking(big_page(whole_tree), kPage, {.budget = std::chrono::seconds(0)});
    EXPECT_EQ(page.outcome, parse_outcome::over_budget);
    EXPECT_LT(page.links.size(), 100000U);
  }
  // A page within its budget is read to the end.
  EXPECT_EQ(extract_links_taking(big_page(false), kPage).links.size(), 100000U);
}

TEST(ExtractLinksDeathTest, AnAbortOutsideAParseStillAborts) {
  extract("<a href=y>");  // the parse guard is in place
  EXPECT_DEATH(std::abort(), "");
}

TEST(ExtractLinks, EndTagWithoutANameIsNothing) {
  // gumbo 0.10.1 reads the end tag after "</>" as a start tag: here </math> would open a
  // second <math> and keep the link out of HTML.
  for (const auto reading :
       {markup_reading::compact, markup_reading::shrunk, markup_reading::whole}) {
    EXPECT_EQ(extract_links("</><math></math><a href=x>", kPage, reading),
              links{"http://example.com/dir/x"});
  }
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

// ---- compact reading -------------------------------------------------------------------------

// Random documents built from the constructs that steer HTML's tokenizer and tree builder
// (foreign content, integration points, select, tables, templates, framesets, raw text,
// comments, CDATA, character references): reading them compacted must find exactly the links
// (and in the same order) that reading them whole does.
std::string random_document(std::mt19937& random) {
  static const char* const pieces[] = {"<a href=a1>",
                                       "<a HREF='a2' class=c>",
                                       "</a>",
                                       "<area href=ar>",
                                       "<link rel=x href=l>",
                                       "<base href=/b/>",
                                       "<base target=_top>",
                                       "<svg>",
                                       "</svg>",
                                       "<math>",
                                       "</math>",
                                       "<foreignObject>",
                                       "</foreignObject>",
                                       "<desc>",
                                       "<title>",
                                       "</title>",
                                       "<mi>",
                                       "</mi>",
                                       "<annotation-xml encoding=text/html>",
                                       "<annotation-xml encoding='TEXT/HTML' x=y>",
                                       "<annotation-xml>",
                                       "<a xlink:href=xl>",
                                       "<a xlink:href=xl2 href=h2/>",
                                       "<select>",
                                       "</select>",
                                       "<option>",
                                       "<optgroup>",
                                       "<table>",
                                       "</table>",
                                       "<tr>",
                                       "<td>",
                                       "</td>",
                                       "<th>",
                                       "<caption>",
                                       "<colgroup>",
                                       "<col>",
                                       "<tbody>",
                                       "<template>",
                                       "</template>",
                                       "<frameset>",
                                       "</frameset>",
                                       "<frame>",
                                       "<noframes>",
                                       "</noframes>",
                                       "<script>",
                                       "</script>",
                                       "<script><!--<script>",
                                       "-->",
                                       "<style>",
                                       "</style>",
                                       "<textarea>",
                                       "</textarea>",
                                       "<xmp>",
                                       "</xmp>",
                                       "<iframe>",
                                       "</iframe>",
                                       "<noembed>",
                                       "</noembed>",
                                       "<plaintext>",
                                       "<font color=red>",
                                       "<font>",
                                       "</font>",
                                       "<p>",
                                       "</p>",
                                       "<div id=d>",
                                       "</div>",
                                       "<span class=s>",
                                       "</span>",
                                       "<b>",
                                       "</b>",
                                       "<i>",
                                       "<li>",
                                       "<ul>",
                                       "</ul>",
                                       "<input type=hidden>",
                                       "<input>",
                                       "<keygen>",
                                       "<form>",
                                       "</form>",
                                       "<body x=1>",
                                       "</body>",
                                       "<head>",
                                       "</head>",
                                       "<html>",
                                       "</html>",
                                       "<noscript>",
                                       "</noscript>",
                                       "<pre>",
                                       "<image>",
                                       "<br>",
                                       "</br>",
                                       "<p title='</p><a href=q>'>",
                                       "<div title=\"<a href=r>\">",
                                       "x",
                                       " ",
                                       "\n  ",
                                       "text with words.",
                                       "&#32;",
                                       "&amp;",
                                       "&nbsp;",
                                       "a < b",
                                       "<",
                                       "<3",
                                       "&",
                                       "\0",
                                       " \0 ",
                                       "<!-- c -->",
                                       "<!-- <a href=c> -->",
                                       "<!-->",
                                       "<!--",
                                       "<![CDATA[ x ]]>",
                                       "<![CDATA[<a href=cd>]]>",
                                       "<!DOCTYPE html>",
                                       "<?pi>",
                                       "</ x>",
                                       "</>",
                                       "<a/href=sl>",
                                       "<A\thref\n=\"tab\">"};
  std::string html;
  const std::size_t count = 1 + random() % 40;
  for (std::size_t i = 0; i < count; ++i)
    html += pieces[random() % std::size(pieces)];
  return html;
}

links sorted(links l) {
  std::sort(l.begin(), l.end());
  return l;
}

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
  EXPECT_EQ(tags->chunks[0], R"(<link href="style.css"><a href='one'><area href=two>)"
                             R"(<svg><a xlink:href="three" /></svg>)");
  EXPECT_EQ(tags->count, 4U);
  EXPECT_EQ(tags->base, "");
}

TEST(CompactReading, ConstructsThatCanChangeWhichTagsAreLinksNeedTheTree) {
  for (const char* html : {
           "<select><a href=x></select>",
           "<template><a href=x></template>",
           "<noscript><a href=x></noscript>",
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
  EXPECT_EQ(extract_links_taking(std::move(page), kPage).links, expected);
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
}  // namespace corocrawl
