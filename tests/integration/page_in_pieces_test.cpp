// Big pages (a body announced larger than 512 KiB) read as they arrive, never held whole
// (page_in_pieces, html/links.hpp): the crawl finds in them what it finds in the same page
// read whole, which a page without a Content-Length is (its body is kept as it comes).

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "corocrawl/crawl.hpp"
#include "crawl_helpers.hpp"
#include "hostile_server.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

using testing::test_server;

// About 800 KB: links to missing pages and to fragments, ids, inline CSS, a script and a
// comment with markup in them, non-ASCII text, and lines ending in LF, CR LF and CR.
std::string big_page(const std::string& extra = {}) {
  std::string page =
      "<!DOCTYPE html><html><head><meta charset=utf-8><title>big</title>\r\n"
      "<style>body { background: url(/missing-bg.png) }</style></head><body>\n";
  for (int i = 0; i < 8000; ++i) {
    const std::string n = std::to_string(i);
    page += "<p id=\"p" + n +
            "\">Stra\xC3\x9F"
            "e " +
            n + " <a class=\"x\" href=\"/missing-" + std::to_string(i % 500) +
            "\">link</a> <a href=\"#p" + n + "\">here</a>";
    page += i % 3 == 0 ? "\r\n" : i % 3 == 1 ? "\n" : "\r";
    if (i % 1000 == 0) {
      page +=
          "<!-- <a href=\"/not-a-link\"> --><script>var s = \"</scr\" + \"ipt><a href=x>\";"
          "</script><img src=\"/missing-img-" +
          n + ".png\" style=\"background: url(/missing-style-" + n + ".png)\"><a href=\"#nowhere-" +
          n + "\">gone</a>\n";
    }
  }
  return page + extra + "<a href=\"/missing-last\">last</a></body></html>\n";
}

// The same page without a Content-Length: its body ends when the connection closes.
testing::handler without_length(std::string body) {
  return [body =
              std::move(body)](const testing::request&) -> boost::asio::awaitable<testing::reply> {
    co_return testing::raw_bytes{
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nConnection: close\r\n\r\n" +
        body};
  };
}

// The status line and headers of a 200 UTF-8 page announcing `body`'s length.
std::string head_of(const std::string& body) {
  return "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n";
}

testing::handler with_length(std::string body, std::string content_type) {
  return [body = std::move(body), content_type = std::move(content_type)](
             const testing::request&) -> boost::asio::awaitable<testing::reply> {
    co_return testing::response{200, content_type, body};
  };
}

class PageInPiecesTest : public ::testing::Test {
 protected:
  crawl_result crawl(const std::function<void(crawl_options&)>& adjust = {}) {
    auto options = testing::options_for({server_.url("/")});
    if (adjust) adjust(options);
    return run_crawl(options);
  }

  // Where `page` links to each broken URL (its own URL replaced by "PAGE" in those of
  // missing fragments), as line:column element attribute.
  std::vector<std::string> places_in(const crawl_result& result, const std::string& page) const {
    const std::string url = server_.url(page);
    std::vector<std::string> places;
    for (const broken_link& broken : result.broken) {
      std::string target = broken.url;
      if (target.starts_with(url + "#")) target = "PAGE" + target.substr(url.size());
      for (const link_source& source : broken.sources) {
        if (source.page != url) continue;
        places.push_back(target + " " + std::to_string(source.line) + ":" +
                         std::to_string(source.column) + " " + source.element + " " +
                         source.attribute);
      }
    }
    std::ranges::sort(places);
    return places;
  }

  // How many times `page` is among the referrers of each broken URL it links to, by URL (its
  // own URL replaced by "PAGE").
  std::map<std::string, std::size_t> referrals_in(const crawl_result& result,
                                                  const std::string& page) const {
    const std::string url = server_.url(page);
    std::map<std::string, std::size_t> counts;
    for (const broken_link& broken : result.broken) {
      const auto times = static_cast<std::size_t>(std::ranges::count(broken.referrers, url));
      if (times == 0) continue;
      const bool own = broken.url.starts_with(url + "#");
      counts[own ? "PAGE" + broken.url.substr(url.size()) : broken.url] = times;
    }
    return counts;
  }

  // Expects what the crawl noted of "/in-pieces" to be what it noted of "/whole", the same
  // page read whole: the places of its broken links, its referrals, its count of links.
  void expect_read_as_whole(const crawl_result& result) const {
    EXPECT_EQ(places_in(result, "/in-pieces"), places_in(result, "/whole"));
    EXPECT_EQ(referrals_in(result, "/in-pieces"), referrals_in(result, "/whole"));
    EXPECT_EQ(testing::record(result, server_.url("/in-pieces")).num_urls,
              testing::record(result, server_.url("/whole")).num_urls);
  }

  test_server server_;
};

TEST_F(PageInPiecesTest, FindsWhatReadingThePageWholeFinds) {
  const std::string page = big_page();
  ASSERT_GT(page.size(), 600'000U);
  server_.add_page("/", {"/in-pieces", "/whole"});
  server_.add_handler("/in-pieces", with_length(page, "text/html; charset=utf-8"));
  server_.add_handler("/whole", without_length(page));
  const auto result = crawl();
  const auto in_pieces = places_in(result, "/in-pieces");
  EXPECT_EQ(in_pieces, places_in(result, "/whole"));
  // 8,000 links to 500 missing pages, 8 images, their styles' URLs and missing fragments,
  // the stylesheet's background and the last link.
  EXPECT_EQ(in_pieces.size(), 8000U + 8 * 3 + 2);
  EXPECT_EQ(server_.requests_for("/in-pieces"), 1U);
  const auto record = testing::record(result, server_.url("/in-pieces"));
  EXPECT_EQ(record.size, page.size());
  EXPECT_EQ(record.encoding, "utf-8");
  // Its references are taken in chunk by chunk: a URL linked from many chunks is still one
  // link of the page, counted once, and the page one of its referrers once.
  const auto whole = testing::record(result, server_.url("/whole"));
  EXPECT_EQ(record.num_urls, whole.num_urls);
  EXPECT_EQ(record.num_urls, 500U + 8 * 2 + 3);  // and the background, the last, the page
  std::size_t referred = 0;
  for (const auto& [url, times] : referrals_in(result, "/in-pieces")) {
    EXPECT_LE(times, 1U) << url;
    referred += times;
  }
  EXPECT_EQ(referred, 500U + 8 * 2 + 2 + 8);  // and the page itself, for 8 missing fragments
}

// The references of each chunk of 1,024 link tags are taken in as it is read, not held until
// the page ends: a link early in a big page is requested while the rest of the page waits.
TEST_F(PageInPiecesTest, TakesInTheReferencesOfEachChunkAsItIsRead) {
  using namespace std::chrono_literals;
  using clock = std::chrono::steady_clock;
  testing::hostile::hostile_server hostile;
  const std::string page = big_page();
  const std::string head = head_of(page);
  const std::size_t half = page.size() / 2;  // some 4,000 links
  std::atomic<clock::rep> page_asked{0};
  std::atomic<clock::rep> early_asked{0};
  hostile.add("/", testing::hostile::script{
                       testing::hostile::step::write(testing::hostile::page({"/big"}))});
  hostile.add("/big", [&](const testing::hostile::recorded_request&) {
    page_asked = clock::now().time_since_epoch().count();
    return testing::hostile::script{testing::hostile::step::write(head + page.substr(0, half)),
                                    testing::hostile::step::wait(1500ms),
                                    testing::hostile::step::write(page.substr(half))};
  });
  hostile.add("/missing-7", [&](const testing::hostile::recorded_request&) {
    early_asked = clock::now().time_since_epoch().count();
    return testing::hostile::script{testing::hostile::step::write(
        testing::hostile::response("404 Not Found", {"Content-Type: text/html"}, "gone"))};
  });
  const auto result = run_crawl(testing::options_for({hostile.url("/")}));
  EXPECT_EQ(testing::record(result, hostile.url("/big")).size, page.size());
  ASSERT_NE(early_asked.load(), 0);
  const auto waited = clock::duration(early_asked.load() - page_asked.load());
  EXPECT_LT(waited, 1000ms) << "the link was requested after the page's end";
  EXPECT_EQ(testing::record(result, hostile.url("/missing-7")).status, 404U);
}

// A big page cut short after some of its chunks were taken in is fetched again and read from
// its start: what was taken already is not noted twice.
TEST_F(PageInPiecesTest, APageCutShortIsReadAgainWithoutNotingTwice) {
  const std::string page = big_page();
  auto asked = std::make_shared<std::atomic<int>>(0);
  server_.add_page("/", {"/in-pieces", "/whole"});
  server_.add_handler(
      "/in-pieces",
      [page, asked](const testing::request&) -> boost::asio::awaitable<testing::reply> {
        if (++*asked == 1) {
          co_return testing::raw_bytes{head_of(page) + page.substr(0, page.size() * 3 / 5)};
        }
        co_return testing::response{200, "text/html; charset=utf-8", page};
      });
  server_.add_handler("/whole", without_length(page));
  const auto result = crawl();
  EXPECT_EQ(server_.requests_for("/in-pieces"), 2U);
  expect_read_as_whole(result);
  EXPECT_EQ(testing::record(result, server_.url("/in-pieces")).tries, 2);
}

TEST_F(PageInPiecesTest, APageThatNeedsATreeIsFetchedAgainAndReadWhole) {
  // In a <select>, the tree builder drops tags: its link tags alone cannot tell.
  const std::string page = big_page("<select><option><a href=\"/in-select\">s</a></select>");
  server_.add_page("/", {"/in-pieces", "/whole"});
  server_.add_handler("/in-pieces", with_length(page, "text/html; charset=utf-8"));
  server_.add_handler("/whole", without_length(page));
  const auto result = crawl();
  // Its chunks read before the <select> were taken in: read again whole, it adds only what
  // comes after them, each link of the page noted once.
  expect_read_as_whole(result);
  EXPECT_FALSE(places_in(result, "/in-pieces").empty());
  EXPECT_EQ(server_.requests_for("/in-pieces"), 2U);
  EXPECT_EQ(server_.requests_for("/whole"), 1U);
}

TEST_F(PageInPiecesTest, APageThatNeedsATreeFromItsStartIsReadWholeOnce) {
  // A <select> in the header: the reading in pieces gives up at once, with every byte kept.
  std::string page = big_page();
  page.insert(page.find("</head>"), "<select><option>3.12</option></select>");
  server_.add_page("/", {"/in-pieces", "/whole"});
  server_.add_handler("/in-pieces", with_length(page, "text/html; charset=utf-8"));
  server_.add_handler("/whole", without_length(page));
  const auto result = crawl();
  EXPECT_EQ(places_in(result, "/in-pieces"), places_in(result, "/whole"));
  EXPECT_FALSE(places_in(result, "/in-pieces").empty());
  EXPECT_EQ(server_.requests_for("/in-pieces"), 1U);
}

TEST_F(PageInPiecesTest, APageNotDeclaredUtf8IsKeptWhole) {
  // windows-1252 by its Content-Type: 0xE9 is U+00E9, in a link's path too.
  const std::string page = big_page("<a href=\"/caf\xE9\">caf\xE9</a>");
  server_.add_page("/", {"/latin"});
  server_.add_handler("/latin", with_length(page, "text/html; charset=windows-1252"));
  const auto result = crawl();
  EXPECT_TRUE(testing::find_record(result, server_.url("/caf%C3%A9")));
  EXPECT_EQ(server_.requests_for("/latin"), 1U);
  EXPECT_EQ(testing::record(result, server_.url("/latin")).encoding, "windows-1252");
}

TEST_F(PageInPiecesTest, ABodyCutAtMaxBodyIsReadUpToTheCut) {
  // As a body kept whole is: cut at max_body, which a page of that length read whole shows.
  constexpr std::size_t max_body = 700'000;
  const std::string page = big_page();
  server_.add_page("/", {"/in-pieces", "/first-part"});
  server_.add_handler("/in-pieces", with_length(page, "text/html; charset=utf-8"));
  server_.add_handler("/first-part", without_length(page.substr(0, max_body)));
  const auto result = crawl([](crawl_options& options) { options.max_body = max_body; });
  const auto in_pieces = places_in(result, "/in-pieces");
  // A page cut short has its fragments unchecked (its ids past the cut are unknown), unlike
  // the page that ends there.
  auto first_part = places_in(result, "/first-part");
  std::erase_if(first_part, [](const std::string& place) { return place.starts_with("PAGE#"); });
  EXPECT_EQ(in_pieces, first_part);
  EXPECT_GT(in_pieces.size(), 1000U);
  EXPECT_LT(in_pieces.size(), 8000U);  // not the links past the cut
  const auto record = testing::record(result, server_.url("/in-pieces"));
  EXPECT_EQ(record.size, max_body);
  EXPECT_EQ(record.error, "body too large");
}

}  // namespace
}  // namespace corocrawl
