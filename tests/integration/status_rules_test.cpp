// What a status means, as accept, warn and [[rules]] say, against a real server on 127.0.0.1;
// and URLs that must be read right to be checked at all: charsets and internationalised hosts.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

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

class StatusRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_.add_page("/", {"/forbidden", "/gone", "/teapot", "/moved", "/private/x", "/limited"});
    serve_status("/forbidden", 403);
    serve_status("/gone", 410);
    serve_status("/teapot", 418);
    serve_status("/limited", 429);
    server_.add_redirect("/moved", "/gone", 301);
  }

  void serve_status(const std::string& path, unsigned status) {
    server_.add_handler(path, [status](const request&) -> boost::asio::awaitable<reply> {
      co_return response{.status = status, .body = "status"};
    });
  }

  crawl_result crawl(const std::function<void(crawl_options&)>& adjust) {
    auto options = testing::options_for({server_.url("/")});
    options.max_tries = 1;
    adjust(options);
    return run_crawl(options);
  }

  static std::vector<std::string> urls_of(const broken_list& links) {
    std::vector<std::string> all;
    for (const auto& link : links)
      all.push_back(link.url);
    return all;
  }

  std::vector<std::string> at(std::initializer_list<const char*> paths) const {
    std::vector<std::string> all;
    for (const char* path : paths)
      all.push_back(server_.url(path));
    std::ranges::sort(all);
    return all;
  }

  test_server server_;
};

TEST_F(StatusRulesTest, ByDefaultEveryStatusFrom400IsBrokenBut429) {
  const auto result = crawl([](crawl_options&) {});
  EXPECT_EQ(urls_of(result.broken), at({"/forbidden", "/gone", "/private/x", "/teapot"}));
  EXPECT_EQ(urls_of(result.rate_limited), at({"/limited"}));
  EXPECT_TRUE(result.warnings.empty());
}

TEST_F(StatusRulesTest, AcceptAndWarnDecideWhatAStatusMeans) {
  const auto result = crawl([](crawl_options& o) {
    o.accept = status_codes{{200, 299}, {403, 403}};
    o.warn = status_codes{{410, 410}, {429, 429}};
  });
  // A followed redirect is judged by where it ends: /moved (301) is neither OK by accept nor
  // broken; /gone, where it ends, is a warning.
  EXPECT_EQ(urls_of(result.broken), at({"/private/x", "/teapot"}));
  EXPECT_EQ(urls_of(result.warnings), at({"/gone", "/limited"}));
  EXPECT_TRUE(result.rate_limited.empty());
  EXPECT_EQ(result.warnings[0].referrers, (std::vector{server_.url("/"), server_.url("/moved")}));
  EXPECT_EQ(record(result, server_.url("/forbidden")).status, 403u);
}

TEST_F(StatusRulesTest, TheFirstMatchingRuleDecides) {
  const auto result = crawl([](crawl_options& o) {
    o.accept = status_codes{{200, 299}};
    o.rules = {{.match = "/private/", .skip = true},
               {.match = "/(teapot|forbidden)$", .warn = status_codes{{418, 418}}},
               {.match = "/teapot$", .accept = status_codes{{418, 418}}}};
  });
  // /private/x is neither fetched nor counted; /teapot is a warning by the first rule that
  // matches it; /forbidden's rule gives only warn, so the global accept still applies to it.
  EXPECT_EQ(server_.requests_for("/private/x"), 0u);
  EXPECT_FALSE(testing::find_record(result, server_.url("/private/x")));
  EXPECT_EQ(urls_of(result.warnings), at({"/teapot"}));
  EXPECT_EQ(urls_of(result.broken), at({"/forbidden", "/gone"}));
  EXPECT_FALSE(passed(result));
}

TEST_F(StatusRulesTest, WarningsNeverFailTheCrawl) {
  const auto result = crawl([](crawl_options& o) {
    o.warn = status_codes{{400, 499}};
    o.rules = {{.match = "/private/", .skip = true}};
  });
  EXPECT_TRUE(result.broken.empty());
  EXPECT_EQ(result.warnings.size(), 4u);  // forbidden, gone, teapot, limited
  EXPECT_TRUE(passed(result));
}

// A Latin-1 page's "café.html" is the UTF-8 path browsers ask for, not "caf%EF%BF%BD.html".
TEST(CharsetCrawlTest, LinksOfALegacyPageAreReadInItsCharset) {
  test_server server;
  server.add_page("/", {}, "<a href=\"caf\xE9.html\">caf\xE9</a>", "text/html; charset=iso-8859-1");
  server.add_page("/caf%C3%A9.html");
  const auto result = run_crawl(testing::options_for({server.url("/")}));
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(server.requests_for("/caf%C3%A9.html"), 1u);
  EXPECT_EQ(record(result, server.url("/")).encoding, "iso-8859-1");
}

// A link to "bücher.test" goes to its A-label, as browsers send it; --resolve takes either.
TEST(IdnaCrawlTest, InternationalisedHostsAreAskedByTheirALabel) {
  test_server server;
  const std::string host =
      "b\xC3\xBC"
      "cher.test";
  const std::string port = std::to_string(server.port());
  server.add_page("/", {"http://" + host + ":" + port + "/page"});
  server.add_page("/page");
  auto options = testing::options_for({server.url("/")});
  options.external = true;
  options.resolve.push_back({"xn--bcher-kva.test", server.port(), {"127.0.0.1"}});
  const auto result = run_crawl(options);
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(record(result, "http://xn--bcher-kva.test:" + port + "/page").status, 200u);
  const auto requests = server.requests();
  const auto page = std::ranges::find(requests, std::string("/page"), &request::target);
  ASSERT_NE(page, requests.end());
  EXPECT_EQ(page->header("Host"), "xn--bcher-kva.test:" + port);
}

}  // namespace
}  // namespace corocrawl
