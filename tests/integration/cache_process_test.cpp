// --cache through the corocrawl binary, as CI runs it: a folder site linking to another site
// (server_, as "ext.test" through --resolve), run after run and two runs at once on one cache
// file; and the usage errors of the cache's options.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "binary_test.hpp"
#include "process.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace std::chrono_literals;

class CacheProcessTest : public testing::binary_test {
 protected:
  /// The URL of `path` on the other site.
  std::string ext(std::string_view path) const {
    return server_.origin("ext.test") + std::string(path);
  }

  /// A folder site `name` whose page links to `path` on the other site.
  void write_site(const std::string& name, std::string_view path) const {
    temp_.write(name + "/index.html",
                "<a href=about.html>About</a> <a href=\"" + ext(path) + "\">elsewhere</a>");
    temp_.write(name + "/about.html", "<a href=\"/\">Home</a>");
  }

  /// The arguments of a run of folder site `site` with the cache in dir_/cache.json.
  std::vector<std::string> cached_run(const std::string& site) const {
    return {"--cache",   "cache.json",
            "--resolve", "ext.test:" + std::to_string(server_.port()) + ":127.0.0.1",
            "--json",    "-",
            site};
  }

  /// The URLs the cache file holds; fails the test unless it is a valid cache.
  std::vector<std::string> cached_urls() const {
    const json::value doc = json::parse(temp_.read("cache.json"));  // throws when not JSON
    EXPECT_EQ(doc.at("format"), "corocrawl-cache/1");
    std::vector<std::string> urls;
    for (const auto& [url, entry] : doc.at("entries").as_object())
      urls.emplace_back(url);
    return urls;
  }

  /// The record of `url` in a JSON summary.
  static json::object record_of(const json::value& summary, const std::string& url) {
    for (const auto& r : summary.at("urls").as_array())
      if (json::value_to<std::string>(r.at("url")) == url) return r.as_object();
    ADD_FAILURE() << "no record of " << url;
    return {};
  }
};

TEST_F(CacheProcessTest, AFolderSitesExternalSuccessesAreReusedAndItsPagesNever) {
  server_.add_page("/ok");
  write_site("site", "/ok");

  const auto first = run(cached_run("site"));
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(server_.requests_for("/ok"), 1u);
  EXPECT_EQ(cached_urls(), std::vector<std::string>{ext("/ok")});
  const json::value first_summary = json::parse(first.out);
  EXPECT_EQ(first_summary.at("stats").at("cached"), 0);
  EXPECT_EQ(record_of(first_summary, ext("/ok")).at("cached"), false);

  const auto second = run(cached_run("site"));
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(server_.requests_for("/ok"), 1u);
  const json::value summary = json::parse(second.out);
  EXPECT_EQ(summary.at("stats").at("cached"), 1);
  EXPECT_EQ(summary.at("config").at("cache"), "cache.json");
  EXPECT_EQ(summary.at("config").at("cache_max_age"), 86400);
  const json::object reused = record_of(summary, ext("/ok"));
  EXPECT_EQ(reused.at("cached"), true);
  EXPECT_EQ(reused.at("status"), 200);
  EXPECT_EQ(reused.at("tries"), 0);
  EXPECT_EQ(cached_urls(), std::vector<std::string>{ext("/ok")});
}

TEST_F(CacheProcessTest, AFileThatIsNotACacheIsAWarningNotAFailure) {
  server_.add_page("/ok");
  write_site("site", "/ok");
  temp_.write("cache.json", "{\"format\": \"something else\"}");
  const auto result = run(cached_run("site"));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("the cache is not used: cache.json: not a corocrawl cache"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(server_.requests_for("/ok"), 1u);
  EXPECT_EQ(cached_urls(), std::vector<std::string>{ext("/ok")});
}

// Each run's external URL answers only once the other run has asked for its own, so both runs
// have read the cache before either writes it: each must merge into what the other wrote.
TEST_F(CacheProcessTest, TwoRunsAtOnceKeepEachOthersEntries) {
  const auto answer_after = [this](std::string other) {
    return [this, other](const testing::request&) -> boost::asio::awaitable<testing::reply> {
      while (server_.requests_for(other) == 0)
        co_await testing::sleep_for(5ms);
      co_return testing::response{200, "text/plain", "ok"};
    };
  };
  server_.add_handler("/a", answer_after("/b"));
  server_.add_handler("/b", answer_after("/a"));
  write_site("site-a", "/a");
  write_site("site-b", "/b");
  const auto command = [&](const std::string& site) {
    std::vector<std::string> args = cached_run(site);
    args.insert(args.begin(), {COROCRAWL_BINARY, "--max-tries", "1"});
    return args;
  };
  testing::child_process a{command("site-a"), dir_};
  testing::child_process b{command("site-b"), dir_};
  const auto a_result = a.wait(60s);
  const auto b_result = b.wait(60s);
  EXPECT_EQ(a_result.exit_code, 0) << a_result.err;
  EXPECT_EQ(b_result.exit_code, 0) << b_result.err;
  EXPECT_EQ(cached_urls(), (std::vector<std::string>{ext("/a"), ext("/b")}));
}

TEST_F(CacheProcessTest, BadCacheOptionsAreUsageErrors) {
  server_.add_page("/");
  const auto url = server_.url("/");
  expect_config_error({"--cache-max-age", "soon", url}, "--cache-max-age: expected a duration");
  expect_config_error({"--cache-max-age=-1d", url}, "--cache-max-age");
  expect_config_error({"--cache", "c.json", "--cache-max-age", "400d", url},
                      "--cache-max-age: at most 365d");
  expect_config_error({"--cache", "no/such/dir/cache.json", url},
                      "cache: cannot write \"no/such/dir/cache.json\": No such file or directory");
  expect_config_error({"--cache", "-", url}, "--cache: expected a file name");
  temp_.write("corocrawl.toml", "cache_max_age = \"1w\"\n");
  expect_config_error({url}, "cache_max_age: expected a duration");
  fs::remove(dir_ / "corocrawl.toml");
  EXPECT_FALSE(fs::exists(dir_ / "c.json"));
}

}  // namespace
}  // namespace corocrawl
