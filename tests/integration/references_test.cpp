// Every reference a page makes, checked against a real server on 127.0.0.1: assets, frames,
// stylesheets, meta refresh, fragments, links to other sites (other names for 127.0.0.1
// through --resolve), HEAD with a GET behind it, and what a page over --max-body still gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "compression.hpp"
#include "corocrawl/crawl.hpp"
#include "corocrawl/report.hpp"
#include "crawl_helpers.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

using testing::record;
using testing::reply;
using testing::request;
using testing::response;
using testing::test_server;

class ReferencesTest : public ::testing::Test {
 protected:
  crawl_result crawl(const std::function<void(crawl_options&)>& adjust = {}) {
    auto options = testing::checking_options_for({server_.url("/")}, server_.port());
    if (adjust) adjust(options);
    return run_crawl(options);
  }

  // The broken link of `url`, or an empty one (and a failure) when it is not broken.
  static broken_link broken(const crawl_result& result, const std::string& url) {
    const auto it = std::ranges::find(result.broken, url, &broken_link::url);
    if (it != result.broken.end()) return *it;
    ADD_FAILURE() << url << " is not broken";
    return {};
  }

  static std::vector<std::string> broken_urls(const crawl_result& result) {
    std::vector<std::string> all;
    for (const auto& b : result.broken)
      all.push_back(b.url);
    return all;
  }

  // The methods of the requests for `path`, in order.
  std::vector<std::string> methods_for(std::string_view path) const {
    std::vector<std::string> methods;
    for (const auto& r : server_.requests()) {
      if (r.path() == path) methods.push_back(r.method);
    }
    return methods;
  }

  test_server server_;
};

// The page of the issue: each missing asset a page references is reported, where it is.
TEST_F(ReferencesTest, EveryMissingAssetIsBrokenWithItsSource) {
  server_.add_page("/", {},
                   "<!DOCTYPE html>\n"
                   "<html><head>\n"
                   "<link rel=stylesheet href=/missing.css>\n"
                   "<meta http-equiv=refresh content=\"30; url=/gone.html\">\n"
                   "<style>body { background: url(/bg.png) }\n"
                   "@import '/imported.css';</style>\n"
                   "<script src=/app.js></script>\n"
                   "</head><body>\n"
                   "<img src=/logo.png srcset=\"/logo-2x.png 2x, /logo-3x.png 3x\">\n"
                   "<picture><source srcset=/photo.webp><img src=/photo.jpg></picture>\n"
                   "  <iframe src=/frame.html></iframe>\n"
                   "<div style=\"background-image: url('/tile.png')\">x</div>\n"
                   "<video src=/clip.mp4 poster=/poster.jpg><track src=/subs.vtt></video>\n"
                   "<audio src=/sound.ogg></audio><embed src=/flash.swf>"
                   "<object data=/doc.pdf></object><input type=image src=/button.png>\n"
                   "<link rel=preconnect href=http://ext.test/><link rel=dns-prefetch "
                   "href=http://ext.test/>\n"
                   "</body></html>\n");
  const auto result = crawl([](crawl_options& o) { o.external = false; });
  const std::vector<std::string> missing{
      "/app.js",      "/bg.png",     "/button.png",  "/clip.mp4",     "/doc.pdf",
      "/flash.swf",   "/frame.html", "/gone.html",   "/imported.css", "/logo-2x.png",
      "/logo-3x.png", "/logo.png",   "/missing.css", "/photo.jpg",    "/photo.webp",
      "/poster.jpg",  "/sound.ogg",  "/subs.vtt",    "/tile.png"};
  std::vector<std::string> expected;
  for (const auto& path : missing)
    expected.push_back(server_.url(path));
  std::ranges::sort(expected);
  EXPECT_EQ(broken_urls(result), expected);
  EXPECT_FALSE(passed(result));

  const auto page = server_.url("/");
  const auto source = [&](const std::string& path) { return broken(result, server_.url(path)); };
  EXPECT_EQ(source("/logo-2x.png").sources,
            (std::vector<link_source>{{page, "img", "srcset", 9, 1}}));
  EXPECT_EQ(source("/bg.png").sources, (std::vector<link_source>{{page, "style", "url", 5, 27}}));
  EXPECT_EQ(source("/imported.css").sources,
            (std::vector<link_source>{{page, "style", "import", 6, 1}}));
  EXPECT_EQ(source("/tile.png").sources, (std::vector<link_source>{{page, "div", "style", 12, 1}}));
  EXPECT_EQ(source("/frame.html").sources,
            (std::vector<link_source>{{page, "iframe", "src", 11, 3}}));
  EXPECT_EQ(source("/gone.html").sources,
            (std::vector<link_source>{{page, "meta", "content", 4, 1}}));
  EXPECT_EQ(source("/doc.pdf").sources,
            (std::vector<link_source>{{page, "object", "data", 14, 53}}));
  EXPECT_EQ(source("/logo.png").referrers, std::vector{page});
  EXPECT_EQ(server_.requests_for("/"), 1u);

  // The text report names each place: page:line:column element attribute.
  std::ostringstream report;
  write_text_report(report, result, testing::options_for({page}), {.detail = text_detail::brief});
  EXPECT_NE(report.str().find(page + ":9:1 img srcset"), std::string::npos) << report.str();
}

TEST_F(ReferencesTest, ResourcesAreCheckedWithHeadAndPagesWithGet) {
  server_.add_page("/", {}, "<a href=/page.html>p</a><img src=/logo.png>");
  server_.add_page("/page.html");
  server_.add_page("/logo.png", {}, std::string(100'000, 'x'), "image/png");
  const auto result = crawl();
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(methods_for("/logo.png"), std::vector<std::string>{"HEAD"});
  EXPECT_EQ(methods_for("/page.html"), std::vector<std::string>{"GET"});
  EXPECT_EQ(record(result, server_.url("/logo.png")).method, "HEAD");
  EXPECT_EQ(record(result, server_.url("/logo.png")).status, 200u);
}

// Many servers mishandle HEAD: an error answer to it is asked again with GET, whose answer
// counts.
TEST_F(ReferencesTest, AnErrorAnswerToHeadIsAskedAgainWithGet) {
  server_.add_page("/", {}, "<img src=/no-head.png><img src=/gone.png><img src=/refused.png>");
  for (const auto& [path, head_status, get_status] :
       std::vector<std::tuple<std::string, unsigned, unsigned>>{
           {"/no-head.png", 405, 200}, {"/gone.png", 404, 404}, {"/refused.png", 404, 200}}) {
    server_.add_handler(
        path,
        [head = head_status, get = get_status](const request& r) -> boost::asio::awaitable<reply> {
          co_return response{.status = r.method == "HEAD" ? head : get,
                             .content_type = "image/png",
                             .body = "png"};
        });
  }
  const auto result = crawl();
  EXPECT_EQ(broken_urls(result), std::vector{server_.url("/gone.png")});
  EXPECT_EQ(methods_for("/no-head.png"), (std::vector<std::string>{"HEAD", "GET"}));
  EXPECT_EQ(record(result, server_.url("/no-head.png")).method, "GET");
  EXPECT_EQ(record(result, server_.url("/no-head.png")).status, 200u);
  EXPECT_EQ(record(result, server_.url("/refused.png")).status, 200u);
}

// A page of the site linked only as a resource (a preload) is still read for its links.
TEST_F(ReferencesTest, AResourceThatIsAPageOfTheSiteIsReadToo) {
  server_.add_page("/", {}, "<link rel=preload href=/part.html>");
  server_.add_page("/part.html", {"/missing"});
  const auto result = crawl();
  EXPECT_EQ(broken_urls(result), std::vector{server_.url("/missing")});
}

TEST_F(ReferencesTest, OtherSitesAreCheckedOnceNeverCrawled) {
  const auto other = server_.origin("ext.test");
  server_.add_page("/", {other + "/page", other + "/gone", other + "/moved", other + "/page"});
  server_.add_page("/page", {"/deeper"});  // the other site's page: its links are not followed
  server_.add_redirect("/moved", other + "/gone");
  const auto result = crawl();
  EXPECT_EQ(broken_urls(result), (std::vector{other + "/gone"}));
  EXPECT_TRUE(broken(result, other + "/gone").external);
  EXPECT_EQ(broken(result, other + "/gone").referrers,
            (std::vector{server_.url("/"), other + "/moved"}));
  const auto page = record(result, other + "/page");
  EXPECT_TRUE(page.external);
  EXPECT_EQ(page.status, 200u);
  EXPECT_EQ(page.method, "HEAD");
  EXPECT_EQ(server_.requests_for("/deeper"), 0u);
  EXPECT_EQ(record(result, other + "/moved").next_url, other + "/gone");
  EXPECT_FALSE(record(result, server_.url("/")).external);

  const auto off = crawl([](crawl_options& o) { o.external = false; });
  EXPECT_TRUE(passed(off));
  EXPECT_EQ(off.records.size(), 1u);
  const auto excluded = crawl([](crawl_options& o) { o.exclude = {"/gone$"}; });
  EXPECT_TRUE(passed(excluded));
}

TEST_F(ReferencesTest, MissingFragmentsAreBrokenThePageFetchedOnce) {
  server_.add_page("/", {},
                   "<a href=/a.html#intro>1</a>\n<a href=/a.html#nope>2</a>\n"
                   "<a href=/a.html#top>3</a><a href=/a.html#>4</a><a href=/b.html#x>5</a>\n"
                   "<a href=/a.html#caf%C3%A9>6</a><a href=#here>7</a><a href=#not-here>8</a>\n"
                   "<p id=here>");
  server_.add_page("/a.html", {}, "<h1 id=intro>Intro</h1><p id=\"café\">");
  server_.add_page("/b.html", {}, "<a name=x>x</a>");
  const auto result = crawl();
  const auto page = server_.url("/");
  EXPECT_EQ(broken_urls(result), (std::vector{page + "#not-here", server_.url("/a.html#nope")}));
  const auto nope = broken(result, server_.url("/a.html#nope"));
  EXPECT_EQ(nope.status, 200u);
  EXPECT_EQ(nope.error, "missing fragment");
  EXPECT_EQ(nope.sources, (std::vector<link_source>{{page, "a", "href", 2, 1}}));
  EXPECT_EQ(server_.requests_for("/a.html"), 1u);
  EXPECT_FALSE(passed(result));
  EXPECT_TRUE(passed(crawl([](crawl_options& o) { o.fragments = false; })));
}

// Pages of 128 to 512 KiB come whole, and the event loop's thread parses one itself when it is
// idle, as a parse thread does the others: several arriving together still give every link,
// anchor and place, whichever thread read each. (Under the sanitizers, the run that covers it.)
TEST_F(ReferencesTest, MidSizedPagesArrivingTogetherGiveEveryReference) {
  constexpr int pages = 12;
  std::vector<std::string> mids;
  for (int i = 0; i < pages; ++i)
    mids.push_back("/mid" + std::to_string(i) + ".html");
  server_.add_page("/", mids);
  std::string filler;
  while (filler.size() < 300 * 1024)
    filler += "<p><b>filler</b> text</p>\n";
  const auto last_line = static_cast<std::uint32_t>(std::ranges::count(filler, '\n')) + 1;
  std::vector<broken_link> expected;
  for (int i = 0; i < pages; ++i) {
    const std::string& next = mids[(i + 1) % pages];
    const std::string found =
        "<a href=" + next + "#part-" + std::to_string((i + 1) % pages) + ">n</a>";
    server_.add_page(mids[i], {},
                     "<h1 id=part-" + std::to_string(i) + ">" + filler + found + "<a href=" + next +
                         "#gone>g</a><a href=/end" + std::to_string(i) + ">e</a>");
    server_.add_page("/end" + std::to_string(i));
    broken_link gone;
    gone.url = server_.url(next) + "#gone";
    gone.sources = {{server_.url(mids[i]), "a", "href", last_line,
                     static_cast<std::uint32_t>(found.size()) + 1}};
    expected.push_back(gone);
  }
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 1u + 2 * pages);
  for (int i = 0; i < pages; ++i)
    EXPECT_EQ(server_.requests_for("/end" + std::to_string(i)), 1u) << i;
  std::vector<std::string> urls = broken_urls(result);
  std::ranges::sort(urls);
  std::vector<std::string> expected_urls;
  for (const auto& gone : expected)
    expected_urls.push_back(gone.url);
  std::ranges::sort(expected_urls);
  EXPECT_EQ(urls, expected_urls);
  for (const auto& gone : expected)
    EXPECT_EQ(broken(result, gone.url).sources, gone.sources) << gone.url;
}

// A fragment into a page that redirects is looked for where the redirects end.
TEST_F(ReferencesTest, FragmentsFollowRedirects) {
  server_.add_page("/", {"/old#intro", "/old#gone"});
  server_.add_redirect("/old", "/new");
  server_.add_page("/new", {}, "<section id=intro></section>");
  const auto result = crawl();
  EXPECT_EQ(broken_urls(result), std::vector{server_.url("/old#gone")});
}

TEST_F(ReferencesTest, FramesAreCrawledLikePages) {
  server_.add_page("/", {},
                   "<frameset cols=50%,50%><frame src=/left.html><frame src=/right.html>"
                   "</frameset>");
  server_.add_page("/left.html", {"/only-from-a-frame.html"});
  server_.add_page("/right.html", {}, "<iframe src=/inner.html></iframe>");
  server_.add_page("/inner.html", {"/missing"});
  const auto result = crawl();
  EXPECT_EQ(server_.requests_for("/only-from-a-frame.html"), 1u);
  EXPECT_EQ(broken_urls(result),
            (std::vector{server_.url("/missing"), server_.url("/only-from-a-frame.html")}));
}

TEST_F(ReferencesTest, StylesheetsOfTheSiteAreReadForTheirReferences) {
  server_.add_page("/", {}, "<link rel=stylesheet href=/site.css>");
  server_.add_page("/site.css", {},
                   "@import url(/base.css);\nbody {\n  background: url(\"img/bg.png\");\n}\n",
                   "text/css");
  server_.add_page("/base.css", {}, "h1 { background: url(/img/h1.png) }", "text/css");
  server_.add_page("/img/h1.png", {}, "png", "image/png");
  const auto result = crawl();
  EXPECT_EQ(broken_urls(result), std::vector{server_.url("/img/bg.png")});
  EXPECT_EQ(broken(result, server_.url("/img/bg.png")).sources,
            (std::vector<link_source>{{server_.url("/site.css"), "css", "url", 3, 15}}));
  EXPECT_EQ(methods_for("/base.css"), std::vector<std::string>{"GET"});
}

// Links in <template> and <noscript> reach users once scripts run (or do not).
TEST_F(ReferencesTest, TemplatesAndNoscriptAreRead) {
  server_.add_page("/", {},
                   "<template><a href=/from-template>t</a></template>"
                   "<noscript><img src=/from-noscript.png></noscript>");
  const auto result = crawl();
  EXPECT_EQ(broken_urls(result),
            (std::vector{server_.url("/from-noscript.png"), server_.url("/from-template")}));
}

TEST_F(ReferencesTest, APageOverMaxBodyGivesTheLinksOfThePartRead) {
  server_.add_page("/", {},
                   "<a href=/early>early</a>" + std::string(4000, ' ') + "<a href=/late>late</a>");
  const auto result = crawl([](crawl_options& o) { o.max_body = 1000; });
  EXPECT_EQ(server_.requests_for("/early"), 1u);
  EXPECT_EQ(server_.requests_for("/late"), 0u);
  EXPECT_EQ(record(result, server_.url("/")).error, "body too large");
  EXPECT_EQ(record(result, server_.url("/")).status, 200u);
}

// Decoded past max_body, a gzipped page keeps the part decoded up to it, for its links.
TEST_F(ReferencesTest, AGzippedPageOverMaxBodyGivesTheLinksOfThePartDecoded) {
  const std::string html =
      "<a href=/early>early</a>" + std::string(4000, ' ') + "<a href=/late>late</a>";
  server_.add_handler("/", [&html](const request&) -> boost::asio::awaitable<reply> {
    co_return response{.body = testing::gzip(html), .headers = {{"Content-Encoding", "gzip"}}};
  });
  const auto result = crawl([](crawl_options& o) { o.max_body = 1000; });
  EXPECT_EQ(server_.requests_for("/early"), 1u);
  EXPECT_EQ(server_.requests_for("/late"), 0u);
  EXPECT_EQ(record(result, server_.url("/")).error, "body too large");
}

}  // namespace
}  // namespace corocrawl
