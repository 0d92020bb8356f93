// The JSON summary's "config": every option of the table, with secrets hidden: a user name is
// as private as a password (credential_scope_test.cpp checks the same of the whole output).
#include "report/config_echo.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <sstream>

#include "corocrawl/option_table.hpp"
#include "corocrawl/report.hpp"
#include "url/root.hpp"

namespace corocrawl {
namespace {

namespace json = boost::json;

TEST(ConfigEcho, HasEveryOptionOfTheTable) {
  const auto echo = config_echo(crawl_options{});
  std::size_t keys = 0;
  for (const auto& o : crawl_option_table()) {
    ASSERT_FALSE(o.spec.key.empty()) << o.spec.flag << ": a library option without a key";
    EXPECT_TRUE(echo.contains(o.spec.key)) << o.spec.key;
    ++keys;
  }
  EXPECT_EQ(echo.size(), keys);
}

TEST(ConfigEcho, ShowsValuesAsTheConfigFileWritesThem) {
  crawl_options options;
  options.max_time = std::chrono::milliseconds(1500);
  options.resolve = {{.host = "a.test", .port = 443, .addresses = {"127.0.0.1", "::1"}}};
  options.headers = {{"Accept-Language", "en"}};
  options.host_headers = {{"b.test", {{"accept", "text/html"}}}};
  options.threads = 3;
  const auto echo = config_echo(options);
  EXPECT_EQ(echo.at("max_time"), 1.5);
  EXPECT_EQ(echo.at("timeout"), 30);  // whole numbers are integers
  EXPECT_EQ(echo.at("rate_limit"), 0);
  EXPECT_EQ(echo.at("threads"), 3);
  EXPECT_EQ(echo.at("resolve"), json::parse(R"(["a.test:443:127.0.0.1,[::1]"])"));
  EXPECT_EQ(echo.at("headers"), json::parse(R"({"Accept-Language": "en"})"));
  EXPECT_EQ(echo.at("hosts"), json::parse(R"({"b.test": {"accept": "text/html"}})"));
}

TEST(ConfigEcho, ShowsStatusCodesCanonicallyAndRulesWithTheirKeys) {
  crawl_options options;
  options.accept = {{403, 403}, {200, 299}, {250, 300}};
  options.sitemaps = {"robots", "HTTPS://a.test/sitemap.xml", "https://u:pw@a.test/s.xml"};
  options.rules = {
      {.match = "^https://ext\\.test/", .accept = status_codes{{200, 299}, {403, 403}}},
      {.match = "/slow/", .accept = status_codes{{200, 200}}, .warn = status_codes{{503, 503}}},
      {.match = "\\.zip$", .skip = true}};
  const auto echo = config_echo(options);
  EXPECT_EQ(echo.at("accept"), "200-300,403");
  EXPECT_EQ(echo.at("warn"), "");
  EXPECT_EQ(echo.at("external"), true);
  EXPECT_EQ(echo.at("fragments"), true);
  EXPECT_EQ(echo.at("robots"), true);
  EXPECT_EQ(echo.at("sitemaps"), json::parse(R"(["robots", "HTTPS://a.test/sitemap.xml",
      "https://***@a.test/s.xml"])"));
  EXPECT_EQ(echo.at("rules"), json::parse(R"([
      {"match": "^https://ext\\.test/", "accept": "200-299,403"},
      {"match": "/slow/", "accept": "200", "warn": "503"},
      {"match": "\\.zip$", "skip": true}])"));
  EXPECT_EQ(config_echo(crawl_options{}).at("accept"), "200-399");
  EXPECT_EQ(config_echo(crawl_options{}).at("rules"), json::array{});
}

TEST(ConfigEcho, ShowsTheCacheAndItsMaximumAgeInSeconds) {
  EXPECT_TRUE(config_echo(crawl_options{}).at("cache").is_null());
  EXPECT_EQ(config_echo(crawl_options{}).at("cache_max_age"), 86400);
  crawl_options options;
  options.cache = "ci/links.json";
  options.cache_max_age = std::chrono::minutes(90);
  const auto echo = config_echo(options);
  EXPECT_EQ(echo.at("cache"), "ci/links.json");
  EXPECT_EQ(echo.at("cache_max_age"), 5400);
}

TEST(ConfigEcho, HidesPasswordsTokensAndCredentialHeaders) {
  crawl_options options;
  options.roots = {"https://alice:hunter2@a.test/docs", "bob:opensesame@b.test/", "site/"};
  options.user = "carol:swordfish";
  options.proxy.http_proxy = options.proxy.https_proxy = "http://dave:letmein@proxy.test:3128";
  options.headers = {
      {"Authorization", "Bearer tok-123"}, {"X-Api-Key", "key-456"}, {"Accept-Language", "en"}};
  options.host_headers = {{"c.test", {{"Cookie", "session=abc789"}}}};
  const auto echo = config_echo(options);
  EXPECT_EQ(echo.at("roots"),
            json::parse(R"(["https://***@a.test/docs", "***@b.test/", "site/"])"));
  EXPECT_EQ(echo.at("user"), "***");
  EXPECT_EQ(echo.at("proxy"), "http://***@proxy.test:3128");
  EXPECT_EQ(echo.at("headers"), json::parse(R"({"Authorization": "***", "X-Api-Key": "***",
      "Accept-Language": "en"})"));
  EXPECT_EQ(echo.at("hosts"), json::parse(R"({"c.test": {"Cookie": "***"}})"));

  // Nowhere in the whole summary either.
  std::ostringstream summary;
  write_json_summary(summary, crawl_result{}, options);
  for (const char* secret : {"alice", "hunter2", "bob", "opensesame", "carol", "swordfish", "dave",
                             "letmein", "tok-123", "key-456", "abc789"})
    EXPECT_EQ(summary.str().find(secret), std::string::npos) << secret;
}

TEST(ConfigEcho, WithoutUserinfoKeepsEverythingButTheUserinfo) {
  EXPECT_EQ(without_userinfo("http://a.test/"), "http://a.test/");
  EXPECT_EQ(without_userinfo("http://alice@a.test/"), "http://***@a.test/");
  EXPECT_EQ(without_userinfo("http://alice:pw@[::1]:8080/x"), "http://***@[::1]:8080/x");
  EXPECT_EQ(without_userinfo("http://alice:p@ss@a.test/"), "http://***@a.test/");
  EXPECT_EQ(without_userinfo("http://a.test/p?q=a:b@c"), "http://a.test/p?q=a:b@c");
  EXPECT_EQ(without_userinfo("http://a.test/#x:y@z"), "http://a.test/#x:y@z");
  EXPECT_EQ(without_userinfo("alice:pw@a.test"), "***@a.test");
  EXPECT_EQ(without_userinfo(""), "");
}

}  // namespace
}  // namespace corocrawl
