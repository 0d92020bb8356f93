// robots.txt and sitemaps against a real server on 127.0.0.1: what a site's owner says about
// crawling it, and the pages it lists.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "compression.hpp"
#include "corocrawl/crawl.hpp"
#include "crawl_helpers.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

using testing::record;
using testing::reply;
using testing::request;
using testing::response;
using testing::test_server;

class RobotsTest : public ::testing::Test {
 protected:
  crawl_result crawl(const std::function<void(crawl_options&)>& adjust = {}) {
    auto options = testing::checking_options_for({server_.url("/")}, server_.port());
    options.max_tries = 2;
    if (adjust) adjust(options);
    return run_crawl(options);
  }

  void robots(std::string text, unsigned status = 200) {
    server_.add_page("/robots.txt", {}, std::move(text), "text/plain");
    if (status != 200) {
      server_.add_handler("/robots.txt", [status](const request&) -> boost::asio::awaitable<reply> {
        co_return response{.status = status, .content_type = "text/plain", .body = "no"};
      });
    }
  }

  test_server server_;
};

TEST_F(RobotsTest, DisallowedUrlsAreSkippedWithTheirReferrers) {
  robots(
      "User-agent: somebot\nDisallow: /\n\n"
      "User-agent: *\nDisallow: /private\nAllow: /private/open\n");
  server_.add_page("/", {}, "<a href=/private/x>x</a>\n<a href=/private/open>o</a>");
  server_.add_page("/private/open");
  const auto result = crawl();
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(server_.requests_for("/private/x"), 0u);
  EXPECT_EQ(server_.requests_for("/private/open"), 1u);
  EXPECT_EQ(server_.requests_for("/robots.txt"), 1u);
  ASSERT_EQ(result.skipped.size(), 1u);
  EXPECT_EQ(result.skipped[0].url, server_.url("/private/x"));
  EXPECT_EQ(result.skipped[0].reason, "robots.txt");
  EXPECT_EQ(result.skipped[0].referrers, std::vector{server_.url("/")});
  EXPECT_EQ(result.skipped[0].sources,
            (std::vector<link_source>{{server_.url("/"), "a", "href", 1, 1}}));

  const auto ignored = crawl([](crawl_options& o) { o.robots = false; });
  EXPECT_TRUE(ignored.skipped.empty());
  EXPECT_EQ(server_.requests_for("/private/x"), 1u);
}

TEST_F(RobotsTest, TheGroupOfOurUserAgentApplies) {
  robots("User-agent: corocrawl\nDisallow: /only-us\n\nUser-agent: *\nDisallow: /\n");
  server_.add_page("/", {"/only-us", "/anyone"});
  server_.add_page("/anyone");
  const auto result = crawl();
  EXPECT_EQ(server_.requests_for("/anyone"), 1u);
  ASSERT_EQ(result.skipped.size(), 1u);
  EXPECT_EQ(result.skipped[0].url, server_.url("/only-us"));
}

TEST_F(RobotsTest, AMissingRobotsTxtAllowsEverything) {
  server_.add_page("/", {"/a"});
  server_.add_page("/a");
  const auto result = crawl();
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(result.records.size(), 2u);
  EXPECT_EQ(server_.requests_for("/robots.txt"), 1u);
}

// RFC 9309 2.3.1.4: robots.txt unreachable or answering 5xx means the origin is not crawled;
// the crawl then fails, saying why, rather than pass having checked nothing.
TEST_F(RobotsTest, AnUnavailableRobotsTxtFailsTheCrawlSayingWhy) {
  robots("", 503);
  server_.add_page("/", {"/a"});
  const auto result = crawl();
  EXPECT_FALSE(passed(result));
  EXPECT_EQ(server_.requests_for("/"), 0u);
  ASSERT_EQ(result.unchecked.size(), 1u);
  EXPECT_EQ(result.unchecked[0].url, server_.url("/"));
  EXPECT_EQ(result.unchecked[0].reason, server_.url("/robots.txt") + " answered 503");
  EXPECT_EQ(server_.requests_for("/robots.txt"), 1u);  // a 503 without Retry-After: one try
}

// A root the user asked for is not skipped quietly: left unchecked, it fails the crawl.
TEST_F(RobotsTest, ADisallowedRootIsLeftUnchecked) {
  robots("User-agent: *\nDisallow: /\n");
  server_.add_page("/");
  const auto result = crawl();
  EXPECT_FALSE(passed(result));
  ASSERT_EQ(result.unchecked.size(), 1u);
  EXPECT_EQ(result.unchecked[0].reason, "robots.txt disallows it (Disallow: /)");
}

// Checking a link to another site is one request, not a crawl: its robots.txt is not read.
TEST_F(RobotsTest, ExternalLinksIgnoreTheirSitesRobotsTxt) {
  robots("User-agent: *\nDisallow: /elsewhere\n");
  const auto other = server_.origin("ext.test");
  server_.add_page("/", {other + "/elsewhere"});
  server_.add_page("/elsewhere");
  const auto result = crawl();
  EXPECT_EQ(server_.requests_for("/elsewhere"), 1u);
  EXPECT_EQ(record(result, other + "/elsewhere").status, 200u);
}

TEST_F(RobotsTest, SitemapPagesAreCrawledAndOrphansListed) {
  server_.add_page("/", {"/linked"});
  server_.add_page("/linked");
  server_.add_page("/orphan", {"/from-orphan"});
  server_.add_page("/from-orphan");
  const auto sitemap =
      "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
      "<url><loc>" +
      server_.url("/linked") +
      "</loc></url>"
      "<url><loc>" +
      server_.url("/orphan") +
      "</loc></url>"
      "<url><loc>http://elsewhere.invalid/page</loc></url></urlset>";
  server_.add_page("/sitemap.xml", {}, sitemap, "application/xml");
  const auto result = crawl([&](crawl_options& o) { o.sitemaps = {server_.url("/sitemap.xml")}; });
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(result.orphans, std::vector{server_.url("/orphan")});
  EXPECT_EQ(server_.requests_for("/from-orphan"), 1u);
  EXPECT_EQ(server_.requests_for("/sitemap.xml"), 1u);
  EXPECT_EQ(record(result, server_.url("/sitemap.xml")).status, 200u);
}

TEST_F(RobotsTest, SitemapIndexesGzipAndRobotsSitemapLines) {
  robots("Sitemap: " + server_.url("/index.xml") + "\n");
  server_.add_page("/", {});
  server_.add_page("/a");
  server_.add_page("/index.xml", {},
                   "<sitemapindex><sitemap><loc>" + server_.url("/pages.xml.gz") +
                       "</loc></sitemap>"
                       "</sitemapindex>",
                   "text/xml");
  server_.add_page("/pages.xml.gz", {},
                   testing::gzip("<urlset><url><loc>" + server_.url("/a") +
                                 "</loc></url>"
                                 "<url><loc>" +
                                 server_.url("/missing") + "</loc></url></urlset>"),
                   "application/gzip");
  const auto result = crawl([](crawl_options& o) { o.sitemaps = {"robots"}; });
  EXPECT_EQ(server_.requests_for("/a"), 1u);
  ASSERT_EQ(result.broken.size(), 1u);
  EXPECT_EQ(result.broken[0].url, server_.url("/missing"));
  EXPECT_EQ(result.orphans, (std::vector{server_.url("/a"), server_.url("/missing")}));
}

// With robots.txt ignored, its Sitemap: lines are still read, and an unavailable one keeps
// nothing from being crawled.
TEST_F(RobotsTest, IgnoredRobotsTxtStillGivesItsSitemaps) {
  server_.add_handler("/robots.txt", [this](const request&) -> boost::asio::awaitable<reply> {
    co_return response{
        .status = 503, .content_type = "text/plain", .body = "Sitemap: " + server_.url("/s.txt")};
  });
  server_.add_page("/", {});
  server_.add_page("/a");
  const auto unavailable = crawl([](crawl_options& o) {
    o.robots = false;
    o.sitemaps = {"robots"};
  });
  EXPECT_TRUE(passed(unavailable));
  EXPECT_EQ(unavailable.records.size(), 1u);
  robots("Disallow: /\nSitemap: " + server_.url("/s.txt") + "\n");
  server_.add_page("/s.txt", {}, server_.url("/a") + "\n", "text/plain");
  const auto read = crawl([](crawl_options& o) {
    o.robots = false;
    o.sitemaps = {"robots"};
  });
  EXPECT_TRUE(passed(read));
  EXPECT_EQ(server_.requests_for("/a"), 1u);
}

TEST_F(RobotsTest, ASitemapThatIsNotOneIsBroken) {
  server_.add_page("/", {});
  server_.add_page("/sitemap.xml", {}, "<html><body>not found</body></html>", "text/html");
  const auto result = crawl([&](crawl_options& o) { o.sitemaps = {server_.url("/sitemap.xml")}; });
  EXPECT_FALSE(passed(result));
  ASSERT_EQ(result.broken.size(), 1u);
  EXPECT_EQ(result.broken[0].url, server_.url("/sitemap.xml"));
  EXPECT_EQ(result.broken[0].error,
            "not read as a sitemap: not a sitemap: the root element is <html>");
}

}  // namespace
}  // namespace corocrawl
