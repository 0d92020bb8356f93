// Link extraction from hostile pages: deep nesting, huge tags, markup that trips gumbo's
// assert()s, and parses ended by a stop or their budget.

#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <stop_token>
#include <string>
#include <thread>

#include "html/links.hpp"
#include "links_test_support.hpp"

namespace corocrawl::link_tests {
namespace {

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

TEST(ExtractLinks, DeepNestingKeepsRawTextInert) {
  const std::string html = repeat("<div>", 2000) +
                           R"(<script><a href="s"></script><!-- <a href="c"> -->)"
                           R"(<template><a href="t"></a></template><a href="x<div>y">)";
  EXPECT_EQ(extract(html),
            (links{"http://example.com/dir/t", "http://example.com/dir/x%3Cdiv%3Ey"}));
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

// Any element may carry a style attribute, so a page may name as many elements as it has
// references: each reference keeps its own element's name.
TEST(ExtractReferences, VeryManyDistinctElementsWithStyles) {
  std::string html;
  for (int i = 0; i < 50000; ++i) {
    const std::string name = "x" + std::to_string(i % 25000);
    html +=
        "<" + name + " style='background:url(i" + std::to_string(i % 7) + ".png)'></" + name + ">";
  }
  const page_links page = extract_references(html, kPage);
  ASSERT_EQ(page.references.size(), 50000u);
  for (std::size_t i = 0; i < page.references.size(); i += 997)
    EXPECT_EQ(page.tags[page.references[i].tag].element, "x" + std::to_string(i % 25000)) << i;
  EXPECT_EQ(page.links.size(), 7u);
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
      ::testing::internal::CaptureStderr();
      EXPECT_EQ(extract_links(html, kPage, reading), links{}) << html;
      EXPECT_EQ(::testing::internal::GetCapturedStderr(), "") << html;  // no assert reached
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
    ::testing::internal::CaptureStderr();
    const links found = extract_links(html, kPage, reading);
    EXPECT_NE(::testing::internal::GetCapturedStderr().find("Assertion"), std::string::npos);
    EXPECT_EQ(found, links{});
  }
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(extract_links_taking(std::string(html), kPage).outcome, parse_outcome::gave_up);
  ::testing::internal::GetCapturedStderr();
  const page_links fine = extract_links_taking("<a href=y>", kPage);
  EXPECT_EQ(fine.outcome, parse_outcome::complete);
  EXPECT_EQ(urls(fine), links{"http://example.com/dir/y"});
}

TEST(ExtractLinks, NestedTemplatesInTableContextsStayCheap) {
  // gumbo is quadratic here: without the limiter's bound on <template>s nested beyond its depth
  // limit, each of these takes minutes (and would end over the parse's 10 s budget).
  for (const std::string_view level : {"<template><tr>", "<template><td>", "<select><template>"}) {
    const std::string html = "<a href=first>" + repeat(level, 50000) + "<a href=last>";
    const page_links page = extract_links_taking(std::string(html), kPage);
    EXPECT_EQ(page.outcome, parse_outcome::complete) << level;
    EXPECT_EQ(urls(page), (links{"http://example.com/dir/first", "http://example.com/dir/last"}))
        << level;
  }
}

TEST(ExtractLinks, TemplatesBeyondTheDepthLimitKeepTheirLinksUpToTheirBound) {
  // <template>s above the depth limit are kept (their content's links count), up to dozens
  // open at once: further ones are dropped, but what they hold is still in the kept ones.
  const std::string few = repeat("<div>", 600) + repeat("<template>", 10) + "<a href=t id=i>";
  EXPECT_EQ(extract(few), links{"http://example.com/dir/t"});
  const std::string many = repeat("<div>", 600) + repeat("<template>", 100) + "<a href=t id=i>";
  EXPECT_EQ(extract(many), links{"http://example.com/dir/t"});
  for (const auto reading : {markup_reading::shrunk, markup_reading::whole}) {
    EXPECT_EQ(extract_references(few, kPage, reading).anchors, links{});  // in a template
    EXPECT_EQ(extract_references(many, kPage, reading).anchors, links{});
  }
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

}  // namespace
}  // namespace corocrawl::link_tests
