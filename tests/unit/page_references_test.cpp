// What a page references beyond its links: each reference with its element, attribute, kind,
// fragment and place, the page's anchors and its inline CSS, alike in every reading.

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "html/links.hpp"
#include "links_test_support.hpp"

namespace corocrawl::link_tests {
namespace {

// A big page has tens of thousands of references, held until the crawl takes them in.
static_assert(sizeof(page_reference) <= 32, "a reference's texts are kept by its page");

// What every reading and the CSS scanner add links through: each URL once, a document
// reference making it a document, the text kept by the page wherever the page moves.
TEST(LinkIndex, ListsEachUrlOnceInThePagesOwnText) {
  page_links page;
  {
    link_index links(page);
    std::string url = "http://a.test/x";
    EXPECT_EQ(links.link(url, kResource), 0U);
    url = "http://a.test/y";  // the page keeps a copy, not a view of the caller's text
    EXPECT_EQ(links.link(url, kResource), 1U);
    EXPECT_EQ(links.link("http://a.test/x", kDocument), 0U);
    EXPECT_EQ(links.link("http://a.test/y", kResource), 1U);
  }
  link_index more(page);  // a second index finds the links already there
  EXPECT_EQ(more.link("http://a.test/y", kResource), 1U);
  EXPECT_EQ(more.link("http://a.test/z", kDocument), 2U);
  // (element, attribute) pairs are listed once while they recur, and an element's name is
  // kept once while it recurs; any text is kept as given.
  std::string name = "img";
  EXPECT_EQ(more.tag(name, "src"), 0U);
  name = "div";
  const std::string_view img = page.tags[0].element;
  EXPECT_EQ(img, "img");
  EXPECT_EQ(more.tag("img", "src"), 0U);
  EXPECT_EQ(more.tag("img", "srcset"), 1U);
  EXPECT_EQ(page.tags[1].element.data(), img.data());
  EXPECT_EQ(more.tag("div", "style"), 2U);
  EXPECT_NE(page.tags[2].element.data(), img.data());
  const std::string_view fragment = more.keep("sec-1");
  const std::string_view empty = more.keep("");
  const page_links moved = std::move(page);
  EXPECT_EQ(img, "img");  // the views outlive the move
  EXPECT_EQ(fragment, "sec-1");
  EXPECT_TRUE(empty.empty());
  ASSERT_EQ(moved.links.size(), 3U);
  EXPECT_EQ(moved.links[0].url, "http://a.test/x");
  EXPECT_EQ(moved.links[0].kind, kDocument);
  EXPECT_EQ(moved.links[1].url, "http://a.test/y");
  EXPECT_EQ(moved.links[1].kind, kResource);
  EXPECT_EQ(moved.links[2].url, "http://a.test/z");
}

TEST(ExtractReferences, EveryElementThatReferences) {
  const std::string html = R"(<html><head>
    <link rel=stylesheet href=s.css><script src=j.js></script>
    <meta http-equiv=Refresh content="5; url=next.html">
    </head><body><a href=a.html>a</a><map><area href=m.html></map>
    <img src=i.png srcset="i2.png 2x"><picture><source srcset="p.webp" type=image/webp></picture>
    <video src=v.mp4 poster=v.jpg><source src=v.webm><track src=t.vtt></video>
    <audio src=a.mp3></audio><embed src=e.swf><object data=o.svg></object>
    <iframe src=f.html></iframe><input type=IMAGE src=b.png><input type=text src=no.png>
    <image src=im.png><svg><a xlink:href=svg.html><circle/></a></svg>)";
  const ref_list expected = {
      {"link", "href", "http://example.com/dir/s.css", kDocument},
      {"script", "src", "http://example.com/dir/j.js", kResource},
      {"meta", "content", "http://example.com/dir/next.html", kDocument},
      {"a", "href", "http://example.com/dir/a.html", kDocument},
      {"area", "href", "http://example.com/dir/m.html", kDocument},
      {"img", "src", "http://example.com/dir/i.png", kResource},
      {"img", "srcset", "http://example.com/dir/i2.png", kResource},
      {"source", "srcset", "http://example.com/dir/p.webp", kResource},
      {"video", "src", "http://example.com/dir/v.mp4", kResource},
      {"video", "poster", "http://example.com/dir/v.jpg", kResource},
      {"source", "src", "http://example.com/dir/v.webm", kResource},
      {"track", "src", "http://example.com/dir/t.vtt", kResource},
      {"audio", "src", "http://example.com/dir/a.mp3", kResource},
      {"embed", "src", "http://example.com/dir/e.swf", kResource},
      {"object", "data", "http://example.com/dir/o.svg", kResource},
      {"iframe", "src", "http://example.com/dir/f.html", kDocument},
      {"input", "src", "http://example.com/dir/b.png", kResource},
      {"img", "src", "http://example.com/dir/im.png", kResource},
      {"a", "xlink:href", "http://example.com/dir/svg.html", kDocument},
  };
  for (const auto reading :
       {markup_reading::compact, markup_reading::shrunk, markup_reading::whole}) {
    EXPECT_EQ(refs(html, reading), expected);
  }
  expect_readings_agree(html);
}

TEST(ExtractReferences, FramesAreDocuments) {
  EXPECT_EQ(refs("<frameset><frame src=left.html><frame src=right.html></frameset>"),
            (ref_list{{"frame", "src", "http://example.com/dir/left.html", kDocument},
                      {"frame", "src", "http://example.com/dir/right.html", kDocument}}));
}

TEST(ExtractReferences, LinkRelDecidesTheKind) {
  const std::string html =
      R"(<link rel=preconnect href=https://cdn.example/><link rel="DNS-Prefetch" href=//d.example/>)"
      R"(<link rel="alternate stylesheet" href=alt.css><link rel="shortcut icon" href=f.ico>)"
      R"(<link rel=apple-touch-icon href=t.png><link rel=preload href=p.js><link rel=prefetch)"
      R"( href=n.js><link rel=modulepreload href=m.js><link rel=manifest href=app.json>)"
      R"(<link rel=canonical href=c.html><link rel=next href=2.html><link href=norel.html>)"
      R"(<link rel="preload stylesheet" href=ps.css>)";
  EXPECT_EQ(refs(html), (ref_list{
                            {"link", "href", "http://example.com/dir/alt.css", kDocument},
                            {"link", "href", "http://example.com/dir/f.ico", kResource},
                            {"link", "href", "http://example.com/dir/t.png", kResource},
                            {"link", "href", "http://example.com/dir/p.js", kResource},
                            {"link", "href", "http://example.com/dir/n.js", kResource},
                            {"link", "href", "http://example.com/dir/m.js", kResource},
                            {"link", "href", "http://example.com/dir/app.json", kResource},
                            {"link", "href", "http://example.com/dir/c.html", kDocument},
                            {"link", "href", "http://example.com/dir/2.html", kDocument},
                            {"link", "href", "http://example.com/dir/norel.html", kDocument},
                            {"link", "href", "http://example.com/dir/ps.css", kDocument},
                        }));
  expect_readings_agree(html);
}

TEST(ExtractReferences, ALinkIsADocumentIfAnyOfItsReferencesIs) {
  const page_links page = extract_references("<img src=x.png><a href=x.png><img src=y.png>", kPage);
  ASSERT_EQ(page.links.size(), 2U);
  EXPECT_EQ(page.links[0].kind, kDocument);
  EXPECT_EQ(page.links[1].kind, kResource);
  EXPECT_EQ(page.references.size(), 3U);
  EXPECT_EQ(page.references[1].link, 0U);
}

TEST(ExtractReferences, Srcset) {
  const auto srcset = [](std::string_view value) {
    std::vector<std::string> out;
    for (const auto& [element, attribute, url, kind] :
         refs("<img srcset=\"" + std::string(value) + "\">"))
      out.push_back(url.substr(std::string_view("http://example.com/dir/").size()));
    return out;
  };
  EXPECT_EQ(srcset("a.png"), links{"a.png"});
  EXPECT_EQ(srcset("a.png 1x, b.png 2x"), (links{"a.png", "b.png"}));
  EXPECT_EQ(srcset("  a.png 100w,b.png   200w ,c.png"), (links{"a.png", "b.png", "c.png"}));
  // A URL may hold commas; trailing ones are stripped (and end the candidate).
  EXPECT_EQ(srcset("a,b.png 1x, c.png,, d.png"), (links{"a,b.png", "c.png", "d.png"}));
  EXPECT_EQ(refs("<img srcset='data:image/png;base64,AAA= 2x'>"),
            (ref_list{{"img", "srcset", "data:image/png;base64,AAA=", kResource}}));
  // Parentheses keep a comma inside a descriptor; invalid descriptors drop the candidate.
  EXPECT_EQ(srcset("a.png (x, y), b.png 2x"), links{"b.png"});
  EXPECT_EQ(srcset("a.png 1x 2x, b.png 0w, c.png 10h, d.png 10w 10h, e.png 1.5x"),
            (links{"d.png", "e.png"}));
  EXPECT_EQ(srcset(" , ,"), links{});
  EXPECT_EQ(srcset(""), links{});
  expect_readings_agree("<img srcset='a,b.png 1x, c.png,, d.png'><source srcset=\"x 1x,y 2x\">");
}

TEST(ExtractReferences, MetaRefresh) {
  const auto refresh = [](std::string_view content) {
    std::vector<std::string> out;
    const std::string html = "<meta http-equiv=refresh content=\"" + std::string(content) + "\">";
    for (const auto& [element, attribute, url, kind] : refs(html)) {
      EXPECT_EQ(element, "meta");
      EXPECT_EQ(attribute, "content");
      out.push_back(url);
    }
    return out;
  };
  const std::string dir = "http://example.com/dir/";
  EXPECT_EQ(refresh("5; url=page.html"), links{dir + "page.html"});
  EXPECT_EQ(refresh("0;URL='x'"), links{dir + "x"});
  EXPECT_EQ(refresh("3, url = &quot;y&quot; trailing"), links{dir + "y"});
  EXPECT_EQ(refresh("1 ; Url=z.html"), links{dir + "z.html"});
  EXPECT_EQ(refresh("2.5 'q.html' x"), links{dir + "q.html"});
  EXPECT_EQ(refresh("0; urx.html"), links{dir + "urx.html"});
  EXPECT_EQ(refresh("0 http://other.org/"), links{"http://other.org/"});
  EXPECT_EQ(refresh("5"), links{});
  EXPECT_EQ(refresh("5; "), links{});
  EXPECT_EQ(refresh("url=nothing.html"), links{});
  EXPECT_EQ(refresh("5x; url=a"), links{});
  EXPECT_EQ(refs("<meta http-equiv=content-type content='0; url=no'><meta content='0; url=n'>"),
            ref_list{});
  expect_readings_agree("<meta http-equiv=REFRESH content='0;URL=\"a b\"'>");
}

TEST(ExtractReferences, Fragments) {
  const page_links page = extract_references(
      R"(<a href="#top"></a><a href="p.html#sec%202"></a><a href="q&#35;dec"></a>)"
      R"(<a href=" r.html# spaced "></a><a href="s.html"></a><a href="t.html#"></a>)"
      R"(<img srcset="i.png#one 1x, j.png#two 2x">)",
      kPage);
  std::vector<std::optional<std::string_view>> fragments;
  for (const page_reference& r : page.references)
    fragments.push_back(r.fragment.get());
  EXPECT_EQ(fragments, (std::vector<std::optional<std::string_view>>{
                           "top", "sec%202", "dec", "spaced", std::nullopt, "", "one", "two"}));
  EXPECT_EQ(page.links[0].url, kPage);  // links have no fragment
}

TEST(ExtractReferences, Anchors) {
  const std::string html =
      R"(<div id=top><a name="n1"></a><a name="a&amp;b" id='i&#x41;'></a><span id=""></span>)"
      R"(<svg id=s><g id=g></g><a name=svgname></a></svg><math><mi id=m></mi></math>)"
      R"(<template id=tpl><p id=inside></p><a name=in></a></template><p name=notanchor></p>)"
      R"(<noscript><p id=ns></p></noscript>)";
  const page_links page = expect_readings_agree(html);
  EXPECT_EQ(sorted(page.anchors),
            sorted(links{"top", "n1", "iA", "a&b", "s", "g", "m", "tpl", "ns"}));
  EXPECT_EQ(extract_references(html, kPage).anchors,
            (links{"top", "n1", "iA", "a&b", "s", "g", "m", "tpl", "ns"}));
}

TEST(ExtractReferences, TemplateAndNoscriptContentIsReferenced) {
  const std::string html =
      R"(<head><noscript><link rel=stylesheet href=ns.css></noscript></head><body>)"
      R"(<template><img src=t.png><table><tr><td><a href=cell.html></table></template>)"
      R"(<noscript><img src=pixel.gif></noscript><template><base href=/t/></template>)";
  EXPECT_EQ(refs(html), (ref_list{{"link", "href", "http://example.com/dir/ns.css", kDocument},
                                  {"img", "src", "http://example.com/dir/t.png", kResource},
                                  {"a", "href", "http://example.com/dir/cell.html", kDocument},
                                  {"img", "src", "http://example.com/dir/pixel.gif", kResource}}));
  expect_readings_agree(html);
}

TEST(ExtractReferences, Positions) {
  const std::string html = "<p>\r\n <a href=a>\r<img src=b>\n\xC3\xA9\xE2\x82\xAC <a href=c>" +
                           std::string(100000, 'x') + "<img src=d><a\nhref=e>";
  const page_links page = expect_readings_agree(html);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> places;
  for (const page_reference& r : page.references)
    places.emplace_back(r.line, r.column);
  EXPECT_EQ(places, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{
                        {2, 2}, {3, 1}, {4, 4}, {4, 100014}, {4, 100025}}));
}

TEST(ExtractReferences, PositionsOnALongSingleLineStayLinear) {
  std::string html;
  for (int i = 0; i < 100000; ++i)
    html += "<img src=" + std::to_string(i) + "><span id=s" + std::to_string(i) + " style=x>";
  // Counting each place from the line's start would make this quadratic: 100,000 tags on a
  // 3 MB line. (How long it takes is for the benchmarks, not a test, to say.)
  const page_links page = extract_references(html, kPage);
  ASSERT_EQ(page.references.size(), 100000U);
  EXPECT_EQ(page.references.back().line, 1U);
  EXPECT_EQ(page.references.back().column, html.rfind("<img") + 1);
  EXPECT_EQ(page.anchors.size(), 100000U);
  EXPECT_EQ(page.styles.size(), 100000U);
}

TEST(ExtractReferences, InlineCss) {
  const std::string html =
      "<head><style media=x>a { background: url(&amp;a.png) }</style></head>\n"
      "<body style=\"color: red; background: url('b&amp;.png')\">"
      "<div style='x: url(c.png)'>\n<svg><style>ignored{}</style><rect style=fill:red /></svg>"
      "<template><p style=in-template></template><span style=\"\"></span>";
  const page_links page = expect_readings_agree(html);
  EXPECT_EQ(page.styles, (std::vector<inline_css>{
                             {"a { background: url(&amp;a.png) }", "style", false, 1, 22},
                             {"color: red; background: url('b&.png')", "body", true, 2, 1},
                             {"x: url(c.png)", "div", true, 2, 57},
                             {"fill:red", "rect", true, 3, 30},
                             {"in-template", "p", true, 3, 69},
                         }));
}

TEST(ExtractReferences, DecodedValuesAndPositionsInTheCompactReading) {
  // Values with character references are decoded by gumbo from the compact reading's chunks.
  std::string html;
  for (int i = 0; i < 3000; ++i) {
    html += "<p id='p&amp;" + std::to_string(i) +
            "' style='a:&#x62;'><img src=" + std::to_string(i) + ">\n";
  }
  const page_links page = expect_readings_agree(html);
  ASSERT_EQ(page.anchors.size(), 3000U);
  EXPECT_EQ(page.anchors[2999], "p&2999");
  ASSERT_EQ(page.styles.size(), 3000U);
  EXPECT_EQ(page.styles[2999], (inline_css{"a:b", "p", true, 3000, 1}));
  const page_links compact = extract_references(html, kPage);
  EXPECT_EQ(compact.anchors, page.anchors);
  EXPECT_EQ(compact.styles, page.styles);
}

TEST(ExtractReferences, DroppedTagsHaveNoAnchors) {
  // Table parts outside a table, a form in a form, <html>/<body> merged: the tree builder
  // makes no element of these tags.
  for (const char* html : {
           "<td id=a style=x><tr id=b><col style=c>",
           "<table><tr><td id=a style=x></table><caption id=c><td id=d>",
           "<table><td><table><td id=in></table><td id=out></table>",
           "<table><table><td id=x></table><td id=y>",
           "<form id=f1><form id=f2 style=s></form><form id=f3>",
           "<div><form id=f1></div><form id=f2>",
           "<template><form id=f1></template><form id=f2><form id=f3>",
           "<body id=b><body id=c style=s><html id=h>",
           "<a href=x><body style=late>",
           "<head><noscript><noscript id=n></noscript></noscript></head>",
           "<template><td id=a></template><td id=b>",
           // Found by fuzzing: the limiter took a self-closing <svg/> for open SVG content, and
           // dropped (as SVG) a table part that the tree builder ignores.
           "<svg/><td id=a style=x>",
           "<svg <svg /><col style=c>",
       }) {
    expect_readings_agree(html);
  }
  EXPECT_EQ(extract_references("<td id=a style=x><form id=f><form id=g>", kPage).anchors,
            links{"f"});
}

TEST(ExtractReferences, DeepNestingKeepsAnchorsAndStyles) {
  // The limiter drops start tags nested too deep, but writes their id and style on a <wbr>.
  const std::string html = repeat("<div>", 600) + "<span id=deep style=s><img src=i>";
  const page_links page = expect_readings_agree(html);
  EXPECT_EQ(page.anchors, links{"deep"});
  ASSERT_EQ(page.styles.size(), 1U);
  EXPECT_EQ(page.styles[0].element, "span");
  EXPECT_EQ(page.references.size(), 1U);
}

}  // namespace
}  // namespace corocrawl::link_tests
