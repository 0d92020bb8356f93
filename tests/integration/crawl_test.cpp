// The real crawler against a real HTTP server on 127.0.0.1: every case of the chapter's test.py,
// and the failures a link checker meets on real sites.
#include "corocrawl/crawl.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <functional>

#include "corocrawl/errors.hpp"
#include "crawl_helpers.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

using namespace std::chrono_literals;
using testing::misbehaviour;
using testing::raw_bytes;
using testing::record;
using testing::reply;
using testing::request;
using testing::response;
using testing::test_server;
using testing::urls;

class CrawlTest : public ::testing::Test {
 protected:
  /// Crawls `roots` (the server's "/" by default) after `adjust` has had its say.
  crawl_result crawl(std::vector<std::string> roots = {},
                     const std::function<void(crawl_options&)>& adjust = {}) {
    auto options =
        testing::options_for(roots.empty() ? std::vector{server_.url("/")} : std::move(roots));
    if (adjust) adjust(options);
    return run_crawl(options);
  }

  test_server server_;
};

// --- The chapter's test.py ------------------------------------------------------------------

TEST_F(CrawlTest, Link) {
  server_.add_page("/", {"/foo"});
  const auto result = crawl();
  ASSERT_EQ(result.records.size(), 2u);
  const auto& root = record(result, server_.url("/"));
  EXPECT_EQ(root.status, 200u);
  EXPECT_EQ(root.num_urls, 1u);
  EXPECT_EQ(root.num_new_urls, 1u);
  EXPECT_EQ(root.referrer, std::nullopt);
  const auto& foo = record(result, server_.url("/foo"));
  EXPECT_EQ(foo.status, 404u);
  EXPECT_EQ(foo.referrer, server_.url("/"));
  ASSERT_EQ(result.broken.size(), 1u);
  EXPECT_EQ(result.broken[0].url, server_.url("/foo"));
  EXPECT_EQ(result.broken[0].referrers, std::vector{server_.url("/")});
  EXPECT_FALSE(passed(result));
}

TEST_F(CrawlTest, LinkCycle) {
  const auto foo = server_.add_page("/foo", {"/bar"});
  server_.add_page("/bar", {"/foo"});
  const auto result = crawl({foo});
  ASSERT_EQ(result.records.size(), 2u);
  EXPECT_EQ(record(result, foo).num_urls, 1u);
  EXPECT_EQ(record(result, foo).num_new_urls, 1u);
  EXPECT_EQ(record(result, server_.url("/bar")).num_urls, 1u);
  EXPECT_EQ(record(result, server_.url("/bar")).num_new_urls, 0u);
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(server_.requests_for("/foo"), 1u);
}

TEST_F(CrawlTest, ProhibitedHost) {
  server_.add_page("/", {"http://example.com", "https://other.invalid/x"});
  const auto result = crawl();
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].num_urls, 0u);
}

TEST_F(CrawlTest, Redirect) {
  const auto foo = server_.url("/foo");
  const auto bar = server_.url("/bar");
  const auto root = server_.add_redirect("/", foo);
  server_.add_redirect("/foo", bar);

  auto result = crawl({root});
  ASSERT_EQ(result.records.size(), 3u);
  EXPECT_EQ(record(result, root).status, 302u);
  EXPECT_EQ(record(result, root).next_url, foo);
  EXPECT_EQ(record(result, foo).status, 302u);
  EXPECT_EQ(record(result, foo).next_url, bar);
  EXPECT_EQ(record(result, bar).status, 404u);
  EXPECT_EQ(record(result, bar).referrer, foo);

  result = crawl({root}, [](crawl_options& o) { o.max_redirect = 1; });
  ASSERT_EQ(result.records.size(), 2u);
  EXPECT_EQ(record(result, root).next_url, foo);
  EXPECT_EQ(record(result, root).error, std::nullopt);
  EXPECT_EQ(record(result, foo).status, 302u);
  EXPECT_EQ(record(result, foo).error, "redirect limit reached");
  ASSERT_EQ(result.broken.size(), 1u);
  EXPECT_EQ(result.broken[0].url, foo);
  EXPECT_EQ(result.broken[0].error, "redirect limit reached");
}

TEST_F(CrawlTest, RedirectRelativeLocationAndNoRedirectsAllowed) {
  const auto root = server_.add_redirect("/old/page", "../new/page", 301);
  server_.add_page("/new/page");
  auto result = crawl({root});
  EXPECT_EQ(record(result, root).next_url, server_.url("/new/page"));
  EXPECT_EQ(record(result, server_.url("/new/page")).status, 200u);
  EXPECT_TRUE(passed(result));

  result = crawl({root}, [](crawl_options& o) { o.max_redirect = 0; });
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(record(result, root).error, "redirect limit reached");
}

TEST_F(CrawlTest, RedirectCycle) {
  const auto foo = server_.url("/foo");
  const auto bar = server_.url("/bar");
  const auto root = server_.add_redirect("/bar", foo);
  server_.add_redirect("/foo", bar);
  const auto result = crawl({root});
  ASSERT_EQ(result.records.size(), 2u);
  EXPECT_EQ(record(result, bar).next_url, foo);
  EXPECT_EQ(record(result, foo).next_url, bar);
  EXPECT_EQ(server_.requests_for("/foo"), 1u);
  EXPECT_EQ(server_.requests_for("/bar"), 1u);
}

TEST_F(CrawlTest, RedirectJoin) {
  // foo -> baz, bar -> baz -> quux: baz is fetched once.
  const auto foo = server_.url("/foo");
  const auto bar = server_.url("/bar");
  const auto baz = server_.url("/baz");
  const auto quux = server_.url("/quux");
  server_.add_redirect("/foo", baz);
  server_.add_redirect("/bar", baz);
  server_.add_redirect("/baz", quux);
  const auto result = crawl({foo, bar});
  ASSERT_EQ(result.records.size(), 4u);
  EXPECT_EQ(record(result, foo).next_url, baz);
  EXPECT_EQ(record(result, bar).next_url, baz);
  EXPECT_EQ(record(result, baz).next_url, quux);
  EXPECT_EQ(record(result, quux).status, 404u);
  EXPECT_EQ(server_.requests_for("/baz"), 1u);
  ASSERT_EQ(result.broken.size(), 1u);
  EXPECT_EQ(result.broken[0].referrers, std::vector{baz});
}

TEST_F(CrawlTest, MaxTasksBoundObservedAtTheServer) {
  std::atomic<int> in_flight = 0;
  std::atomic<int> most = 0;
  std::vector<std::string> links;
  for (int i = 0; i < 12; ++i) {
    links.push_back("/" + std::to_string(i));
    server_.add_handler(links.back(), [&](const request&) -> boost::asio::awaitable<reply> {
      const int now = ++in_flight;
      int seen = most.load();
      while (now > seen && !most.compare_exchange_weak(seen, now)) {
      }
      co_await testing::sleep_for(100ms);
      --in_flight;
      co_return response{200, "text/plain", ""};
    });
  }
  const auto home = server_.add_page("/", links);
  const auto result = crawl({home}, [](crawl_options& o) { o.max_tasks = 3; });
  EXPECT_EQ(most.load(), 3);
  EXPECT_EQ(result.records.size(), 13u);
}

TEST_F(CrawlTest, MaxTriesWithConnectionsReset) {
  std::atomic<int> tries = 0;
  server_.add_handler("/", [&](const request&) -> boost::asio::awaitable<reply> {
    if (++tries <= 2) co_return misbehaviour::reset;
    co_return response{200, "text/html", ""};
  });
  auto result = crawl();
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].status, 200u);
  EXPECT_EQ(result.records[0].tries, 3);
  EXPECT_TRUE(passed(result));

  tries = 0;
  result = crawl({}, [](crawl_options& o) { o.max_tries = 1; });
  ASSERT_EQ(result.records.size(), 1u);
  const auto& failed = result.records[0];
  EXPECT_EQ(failed.status, std::nullopt);
  EXPECT_EQ(failed.tries, 1);
  EXPECT_EQ(failed.error, "connection reset");
  EXPECT_EQ(failed.failure, fetch_failure::reset);
  ASSERT_EQ(result.broken.size(), 1u);
  EXPECT_EQ(result.broken[0].error, "connection reset");
}

TEST_F(CrawlTest, EveryTryFailsWhenTheServerClosesWithoutAnswering) {
  server_.add_handler(
      "/", [](const request&) -> boost::asio::awaitable<reply> { co_return misbehaviour::close; });
  const auto result = crawl({}, [](crawl_options& o) { o.max_tries = 3; });
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].status, std::nullopt);
  EXPECT_EQ(result.records[0].tries, 3);
  EXPECT_EQ(result.records[0].failure, fetch_failure::closed);
  EXPECT_EQ(server_.requests_for("/"), 3u);
}

TEST_F(CrawlTest, Encoding) {
  const auto check = [this](const std::string& path, const std::string& content_type,
                            const std::optional<std::string>& encoding) {
    const auto url = server_.add_page(path, {}, "", content_type);
    EXPECT_EQ(crawl({url}).records.at(0).encoding, encoding) << content_type;
  };
  check("/none", "text/html", "utf-8");
  check("/utf8", "text/html; charset=utf-8", "utf-8");
  check("/ascii", "text/html; charset=ascii", "ascii");
  check("/latin1", "text/html; charset=\"ISO-8859-1\"", "iso-8859-1");
  check("/xml", "application/xml", "utf-8");
  check("/png", "image/png", std::nullopt);
}

TEST_F(CrawlTest, ContentType) {
  server_.add_page("/", {}, "", "foo");
  auto result = crawl();
  EXPECT_EQ(result.records.at(0).content_type, "foo");

  server_.add_page("/", {}, "", "Text/HTML; Charset=UTF-8");
  result = crawl();
  EXPECT_EQ(result.records.at(0).content_type, "text/html");

  server_.add_page("/", {}, "", "");
  result = crawl();
  EXPECT_EQ(result.records.at(0).content_type, std::nullopt);
}

TEST_F(CrawlTest, NonHtml) {
  // Only HTML and XML are searched for links.
  const std::string body = "<a href=\"" + server_.url("/") + "\">";
  const auto xml = server_.add_page("/xml", {}, body, "application/xml");
  server_.add_page("/");
  auto result = crawl({xml});
  EXPECT_EQ(record(result, xml).content_type, "application/xml");
  EXPECT_EQ(record(result, xml).num_urls, 1u);
  EXPECT_EQ(record(result, server_.url("/")).status, 200u);

  const auto image = server_.add_page("/image", {}, body, "image");
  result = crawl({image});
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(record(result, image).content_type, "image");
  EXPECT_EQ(record(result, image).num_urls, 0u);

  const auto text = server_.add_page("/text", {}, body, "text/plain");
  result = crawl({text});
  EXPECT_EQ(result.records.size(), 1u);
}

TEST_F(CrawlTest, NonHttp) {
  server_.add_page("/", {}, R"html(<a href="ftp://example.com"></a><a href="mailto:a@b.c"></a>
      <a href="javascript:void(0)"></a><a href="tel:+123"></a><a href="data:text/html,x"></a>)html");
  const auto result = crawl();
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].num_urls, 0u);
}

// --- Scope, with host names mapped to 127.0.0.1 by --resolve ----------------------------------

class ScopeCrawlTest : public CrawlTest {
 protected:
  std::string at(const std::string& host, const std::string& path = "/") const {
    return "http://" + host + ":" + std::to_string(server_.port()) + path;
  }
  crawl_result crawl_hosts(bool strict) {
    const auto all = {"site.test", "www.site.test", "docs.site.test", "other.test"};
    server_.add_page(
        "/", {at("www.site.test", "/w"), at("docs.site.test", "/d"), at("other.test", "/o")});
    for (const auto* path : {"/w", "/d", "/o"})
      server_.add_page(path);
    return crawl({at("site.test")}, [&](crawl_options& o) {
      o.strict = strict;
      for (const auto* host : all)
        o.resolve.push_back({host, server_.port(), {"127.0.0.1"}});
    });
  }
};

TEST_F(ScopeCrawlTest, StrictFollowsWwwOnly) {
  const auto result = crawl_hosts(true);
  EXPECT_EQ(urls(result), (std::vector{at("site.test"), at("www.site.test", "/w")}));
  EXPECT_EQ(record(result, at("site.test")).num_urls, 1u);
}

TEST_F(ScopeCrawlTest, LenientFollowsTheSameDomain) {
  const auto result = crawl_hosts(false);
  EXPECT_EQ(urls(result),
            (std::vector{at("docs.site.test", "/d"), at("site.test"), at("www.site.test", "/w")}));
}

TEST_F(CrawlTest, ExcludedUrlsAreNeitherFetchedNorCounted) {
  server_.add_page("/", {"/a", "/private/b", "/c?session=1"});
  server_.add_page("/a");
  const auto result = crawl({}, [](crawl_options& o) { o.exclude = {"/private/", "session="}; });
  EXPECT_EQ(urls(result), (std::vector{server_.url("/"), server_.url("/a")}));
  EXPECT_EQ(record(result, server_.url("/")).num_urls, 1u);
  EXPECT_EQ(server_.requests_for("/private/b"), 0u);
}

TEST_F(CrawlTest, SeveralRootsAndDeepRoot) {
  server_.add_page("/a/deep", {"/top"});
  server_.add_page("/top");
  server_.add_page("/other");
  const auto result = crawl({server_.url("/a/deep#fragment"), server_.url("/other")});
  EXPECT_EQ(urls(result),
            (std::vector{server_.url("/a/deep"), server_.url("/other"), server_.url("/top")}));
  EXPECT_TRUE(passed(result));
}

// --- Links, normalisation and referrers ------------------------------------------------------

TEST_F(CrawlTest, LinksAreResolvedNormalisedAndCountedOnce) {
  server_.add_page("/dir/", {},
                   R"(<html><head><base href="/base/"></head><body>
      <a href="page">1</a> <a href="./page#x">2</a> <a href="/base/page">3</a>
      <a href="HTTP://127.0.0.1:)" +
                       std::to_string(server_.port()) + R"(/base/%7Epage">4</a>
      <!-- <a href="/commented">no</a> --> <script>var s = '<a href="/scripted">';</script>
      <area href="/area"> <link rel="stylesheet" href="/style.css">)");
  server_.add_page("/base/page");
  server_.add_page("/base/~page");
  server_.add_page("/area");
  server_.add_page("/style.css", {}, "a{}", "text/css");
  const auto result = crawl({server_.url("/dir/")});
  EXPECT_EQ(urls(result), (std::vector{server_.url("/area"), server_.url("/base/page"),
                                       server_.url("/base/~page"), server_.url("/dir/"),
                                       server_.url("/style.css")}));
  EXPECT_EQ(record(result, server_.url("/dir/")).num_urls, 4u);
  EXPECT_EQ(server_.requests_for("/commented") + server_.requests_for("/scripted"), 0u);
}

TEST_F(CrawlTest, BrokenLinkListsEveryReferrer) {
  server_.add_page("/", {"/a", "/b", "/missing"});
  server_.add_page("/a", {"/missing"});
  server_.add_page("/b", {"/missing", "/a"});
  const auto result = crawl();
  ASSERT_EQ(result.broken.size(), 1u);
  EXPECT_EQ(result.broken[0].url, server_.url("/missing"));
  EXPECT_EQ(result.broken[0].status, 404u);
  EXPECT_EQ(result.broken[0].referrers,
            (std::vector{server_.url("/"), server_.url("/a"), server_.url("/b")}));
  EXPECT_EQ(server_.requests_for("/missing"), 1u);
}

TEST_F(CrawlTest, ParseThreadsFindTheSameAsOne) {
  // 300 pages, each linking to the next three and to a missing page every 50th.
  constexpr int pages = 300;
  for (int i = 0; i < pages; ++i) {
    std::vector<std::string> links;
    for (int next = i + 1; next <= i + 3; ++next)
      links.push_back("/p" + std::to_string(next % pages));
    if (i % 50 == 0) links.push_back("/missing" + std::to_string(i));
    server_.add_page(i == 0 ? "/" : "/p" + std::to_string(i), links);
  }
  server_.add_redirect("/p0", "/");
  const auto on_threads = [&](int threads) {
    return crawl({}, [&](crawl_options& o) { o.threads = threads; });
  };
  const auto one = on_threads(1);
  const auto four = on_threads(4);
  EXPECT_EQ(one.records.size(), pages + 1u + pages / 50);
  EXPECT_EQ(urls(four), urls(one));
  ASSERT_EQ(four.broken.size(), one.broken.size());
  for (std::size_t i = 0; i < one.broken.size(); ++i) {
    EXPECT_EQ(four.broken[i].url, one.broken[i].url);
    EXPECT_EQ(four.broken[i].referrers, one.broken[i].referrers);
  }
  for (const auto& r : four.records)
    EXPECT_EQ(r.num_urls, record(one, r.url).num_urls) << r.url;
}

TEST_F(CrawlTest, RedirectToAnotherHostIsRecordedNotFollowed) {
  const auto root = server_.add_redirect("/", "http://elsewhere.invalid/page");
  const auto result = crawl({root});
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].next_url, "http://elsewhere.invalid/page");
  EXPECT_TRUE(passed(result));
}

TEST_F(CrawlTest, RedirectWithoutLocationIsBroken) {
  server_.add_handler("/", [](const request&) -> boost::asio::awaitable<reply> {
    co_return response{302, "text/html", ""};
  });
  const auto result = crawl();
  ASSERT_EQ(result.broken.size(), 1u);
  EXPECT_EQ(result.broken[0].error, "redirect without a Location header");
}

TEST_F(CrawlTest, MalformedHtmlAndInvalidUtf8StillYieldTheirLinks) {
  std::string body = "<html><body><div><p><a href=/one>\xff\xfe\xc3(<table><a href='/two'>x";
  body += std::string("\0\x80", 2) + "</b></i><a href=\"/three\">";
  server_.add_page("/", {}, body);
  for (const auto* path : {"/one", "/two", "/three"})
    server_.add_page(path);
  const auto result = crawl();
  EXPECT_EQ(record(result, server_.url("/one")).status, 200u);
  EXPECT_EQ(record(result, server_.url("/two")).status, 200u);
  EXPECT_EQ(record(result, server_.url("/three")).status, 200u);
}

TEST_F(CrawlTest, OverlongLinksAreNotFollowed) {
  const std::string long_path = "/" + std::string(100 * 1024, 'x');
  server_.add_page("/", {"/a", long_path});
  server_.add_page("/a");
  const auto result = crawl({}, [](crawl_options& o) { o.exclude = {".*pattern"}; });
  EXPECT_EQ(urls(result), (std::vector{server_.url("/"), server_.url("/a")}));
  EXPECT_EQ(record(result, server_.url("/")).num_urls, 1u);
}

// --- Network failures, time limits, connection reuse -----------------------------------------

TEST_F(CrawlTest, ServerThatNeverAnswersTimesOut) {
  server_.add_handler("/", testing::never_answers());
  const auto result = crawl({}, [](crawl_options& o) {
    o.timeout = 300ms;
    o.max_tries = 2;
  });
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].status, std::nullopt);
  EXPECT_EQ(result.records[0].error, "timed out");
  EXPECT_EQ(result.records[0].failure, fetch_failure::timeout);
  EXPECT_EQ(result.records[0].tries, 2);
  EXPECT_EQ(server_.requests_for("/"), 2u);
}

TEST_F(CrawlTest, ConnectionRefused) {
  std::uint16_t closed_port = 0;
  {
    boost::asio::io_context context;
    boost::asio::ip::tcp::acceptor probe{context, {boost::asio::ip::make_address("127.0.0.1"), 0}};
    closed_port = probe.local_endpoint().port();
  }
  const auto root = "http://127.0.0.1:" + std::to_string(closed_port) + "/";
  const auto result = crawl({root}, [](crawl_options& o) { o.max_tries = 2; });
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].error, "connection refused");
  EXPECT_EQ(result.records[0].failure, fetch_failure::refused);
  EXPECT_EQ(result.records[0].tries, 2);
}

TEST_F(CrawlTest, TruncatedResponse) {
  server_.add_handler("/", [](const request&) -> boost::asio::awaitable<reply> {
    co_return raw_bytes{
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n"
        "only part of it"};
  });
  const auto result = crawl({}, [](crawl_options& o) { o.max_tries = 1; });
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].failure, fetch_failure::truncated);
  EXPECT_EQ(result.records[0].error, "truncated response");
}

TEST_F(CrawlTest, GarbageResponseIsAProtocolFailure) {
  server_.add_handler("/", [](const request&) -> boost::asio::awaitable<reply> {
    co_return raw_bytes{"SMTP READY\r\n\r\n"};
  });
  const auto result = crawl();
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].failure, fetch_failure::protocol);
  EXPECT_EQ(result.records[0].tries, 1);  // not a network failure: not retried
}

// A page over the limit is read no further, and the part read gives its links.
TEST_F(CrawlTest, BodyLargerThanTheLimitIsNotRead) {
  server_.add_page("/", {"/big"});
  server_.add_page("/big", {},
                   "<a href=/early></a>" + std::string(2000, 'x') + "<a href=/hidden></a>");
  server_.add_page("/early");
  const auto result = crawl({}, [](crawl_options& o) { o.max_body = 1000; });
  ASSERT_EQ(result.records.size(), 3u);
  const auto& big = record(result, server_.url("/big"));
  EXPECT_EQ(big.status, 200u);
  EXPECT_EQ(big.error, "body too large");
  EXPECT_EQ(big.tries, 1);
  EXPECT_EQ(big.size, 1000u);
  EXPECT_EQ(big.num_urls, 1u);
  EXPECT_EQ(server_.requests_for("/early"), 1u);
  EXPECT_EQ(server_.requests_for("/hidden"), 0u);
  EXPECT_TRUE(passed(result));  // the link works: the page is only too big to check
}

// Pages over 512 KiB are parsed one at a time on their own strand; several arriving together
// still give all their links. (Under ThreadSanitizer this is the run that covers that strand.)
TEST_F(CrawlTest, BigPagesArrivingTogetherAreAllRead) {
  constexpr int pages = 12;
  std::vector<std::string> bigs;
  for (int i = 0; i < pages; ++i)
    bigs.push_back("/big" + std::to_string(i));
  server_.add_page("/", bigs);
  std::string filler;
  while (filler.size() < 600 * 1024)
    filler += "<p><b>filler</b> text</p>\n";
  for (int i = 0; i < pages; ++i) {
    const auto small = "/small" + std::to_string(i);
    server_.add_page(bigs[i], {}, filler + "<a href=" + small + ">s</a>");
    server_.add_page(small);
  }
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 1u + 2 * pages);
  for (int i = 0; i < pages; ++i)
    EXPECT_EQ(server_.requests_for("/small" + std::to_string(i)), 1u) << i;
  EXPECT_TRUE(passed(result));
}

TEST_F(CrawlTest, KeepAliveConnectionIsReused) {
  server_.add_page("/", {"/a"});
  server_.add_page("/a", {"/b"});
  server_.add_page("/b", {"/c"});
  server_.add_page("/c");
  const auto result = crawl({}, [](crawl_options& o) { o.max_tasks = 1; });
  EXPECT_EQ(result.records.size(), 4u);
  EXPECT_EQ(server_.connections(), 1u);
  // The result counts what the server saw.
  EXPECT_EQ(result.connections, 1u);
  EXPECT_EQ(result.requests, 4u);
}

TEST_F(CrawlTest, IdleConnectionClosedByTheServerIsReplacedWithoutATry) {
  server_.close_after_each_response(true);
  server_.add_page("/", {"/a"});
  server_.add_page("/a", {"/b"});
  server_.add_page("/b");
  const auto result = crawl({}, [](crawl_options& o) {
    o.max_tasks = 1;
    o.max_tries = 1;
  });
  ASSERT_EQ(result.records.size(), 3u);
  EXPECT_EQ(result.connections, server_.connections());
  // A connection seen closed before reuse is not sent to; one closed meanwhile is, and the
  // request goes again on a new one.
  EXPECT_GE(result.requests, 3u);
  EXPECT_LE(result.requests, 3u + (server_.connections() - 1));
  for (const auto& r : result.records) {
    EXPECT_EQ(r.status, 200u) << r.url;
    EXPECT_EQ(r.tries, 1) << r.url;
  }
  EXPECT_EQ(server_.connections(), 3u);
}

TEST_F(CrawlTest, RequestsCarryHostAndUserAgent) {
  server_.add_page("/");
  crawl();
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].header("Host"), "127.0.0.1:" + std::to_string(server_.port()));
  EXPECT_TRUE(requests[0].header("User-Agent").value_or("").starts_with("corocrawl/"));
}

TEST_F(CrawlTest, InvalidOptionsAreRejectedBeforeFetching) {
  server_.add_page("/");
  EXPECT_THROW(crawl({}, [](crawl_options& o) { o.exclude = {"(unclosed"}; }), config_error);
  EXPECT_THROW(crawl({}, [](crawl_options& o) { o.max_tasks = 0; }), config_error);
  EXPECT_THROW(crawl({"ftp://127.0.0.1/"}), config_error);
  EXPECT_EQ(server_.requests().size(), 0u);
}

}  // namespace
}  // namespace corocrawl
