// Statistics, the JSON summary and the text report, from hand-made crawl results.
#include "corocrawl/report.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <memory>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include "corocrawl/utf8.hpp"
#include "json_text.hpp"
#include "store/crawl_store.hpp"

namespace corocrawl {
namespace {

namespace json = boost::json;

fetch_record page(std::string url, unsigned status, std::string type, std::uint64_t size) {
  return {.url = std::move(url),
          .status = status,
          .tries = 1,
          .size = size,
          .content_type = std::move(type),
          .encoding = "utf-8"};
}

crawl_result sample_result() {
  crawl_result result;
  result.roots = {"http://a.test/"};
  auto home = page("http://a.test/", 200, "text/html", 100);
  home.num_urls = 4;
  home.num_new_urls = 4;
  result.records = {
      home,
      page("http://a.test/logo.png", 200, "image/png", 40),
      page("http://a.test/missing", 404, "text/html", 9),
      {.url = "http://a.test/old", .status = 301, .next_url = "http://a.test/", .tries = 1},
      {.url = "http://a.test/slow",
       .error = "timed out",
       .failure = fetch_failure::timeout,
       .tries = 4},
  };
  result.broken = {
      {"http://a.test/missing",
       404,
       std::nullopt,
       {"http://a.test/"},
       {{"http://a.test/", "a", "href", 12, 5}, {"http://a.test/", "img", "src", 30, 1}}},
      {"http://a.test/slow", std::nullopt, "timed out", {"http://a.test/"}}};
  result.elapsed = std::chrono::milliseconds(1500);
  result.requests = 8;
  result.connections = 3;
  return result;
}

TEST(Stats, SeedCategoriesWithStatusAndFailureKinds) {
  const auto stats = compute_stats(sample_result().records);
  const std::map<std::string, std::uint64_t> expected = {
      {"urls", 5},         {"html", 1},     {"html_bytes", 100}, {"other", 1},
      {"other_bytes", 40}, {"redirect", 1}, {"error", 1},        {"error_bytes", 9},
      {"status_404", 1},   {"fail", 1},     {"fail_timeout", 1}, {"rate_limited", 0},
      {"external", 0},     {"cached", 0}};
  EXPECT_EQ(stats, expected);
}

TEST(Stats, EveryFailureKindHasItsOwnKey) {
  using enum fetch_failure;
  const std::vector<std::pair<fetch_failure, std::string>> kinds = {
      {refused, "fail_refused"}, {reset, "fail_reset"},
      {closed, "fail_closed"},   {truncated, "fail_truncated"},
      {timeout, "fail_timeout"}, {dns, "fail_dns"},
      {tls, "fail_tls"},         {protocol, "fail_protocol"},
      {proxy, "fail_proxy"},     {body_too_large, "fail_body_too_large"},
      {network, "fail_network"}};
  std::vector<fetch_record> records;
  for (const auto& [kind, key] : kinds)
    records.push_back({.url = key, .failure = kind, .tries = 1});
  records.push_back({.url = "no kind", .tries = 1});
  const auto stats = compute_stats(records);
  for (const auto& [kind, key] : kinds)
    EXPECT_EQ(stats.count(key) ? stats.at(key) : 0u, 1u) << key;
  EXPECT_EQ(stats.at("fail_unknown"), 1u);
  EXPECT_EQ(stats.at("fail"), kinds.size() + 1);
}

TEST(Stats, BaseKeysArePresentWhenZero) {
  const auto stats = compute_stats({});
  EXPECT_EQ(stats.size(), 12u);
  for (const auto& [key, count] : stats)
    EXPECT_EQ(count, 0u) << key;
}

TEST(Stats, OnlyStatus200HtmlIsHtml) {
  const std::vector records = {page("http://a.test/", 203, "text/html", 5),
                               page("http://a.test/x", 200, "application/xhtml+xml", 7)};
  const auto stats = compute_stats(records);
  EXPECT_EQ(stats.at("html"), 0u);
  EXPECT_EQ(stats.at("other"), 2u);
  EXPECT_EQ(stats.at("other_bytes"), 12u);
}

TEST(Stats, RecordsFromTheCacheAreCountedAndShownAsSuch) {
  fetch_record reused = page("https://other.test/", 200, "text/html", 0);
  reused.external = true;
  reused.cached = true;
  reused.tries = 0;
  reused.method = "HEAD";
  reused.encoding.reset();
  crawl_result result;
  result.records = std::vector{page("http://a.test/", 200, "text/html", 5), reused};
  EXPECT_EQ(compute_stats(result.records).at("cached"), 1u);
  EXPECT_EQ(compute_stats(result.records).at("external"), 1u);

  std::ostringstream summary;
  write_json_summary(summary, result, {});
  const auto doc = json::parse(summary.str());
  EXPECT_EQ(doc.at("stats").at("cached"), 1);
  EXPECT_EQ(doc.at("urls").at(0).at("cached"), false);
  EXPECT_EQ(doc.at("urls").at(1).at("cached"), true);
  EXPECT_EQ(doc.at("urls").at(1).at("tries"), 0);

  std::ostringstream text;
  write_text_report(text, result, {}, {.detail = text_detail::full});
  EXPECT_NE(text.str().find("https://other.test/ 200 text/html - 0 (cached)\n"), std::string::npos)
      << text.str();
}

TEST(Broken, WhatCountsAsBroken) {
  EXPECT_FALSE(is_broken(page("u", 200, "text/html", 0)));
  EXPECT_FALSE(is_broken({.url = "u", .status = 302, .next_url = "v"}));
  EXPECT_TRUE(is_broken({.url = "u", .status = 302, .error = "redirect limit reached"}));
  EXPECT_TRUE(is_broken(page("u", 404, "text/html", 0)));
  EXPECT_TRUE(is_broken(page("u", 500, "text/html", 0)));
  EXPECT_TRUE(
      is_broken({.url = "u", .error = "connection refused", .failure = fetch_failure::refused}));
}

TEST(Passed, NeedsNothingBrokenAndNoInterruption) {
  crawl_result result;
  EXPECT_TRUE(passed(result));
  result.interrupted = true;
  EXPECT_FALSE(passed(result));
  result.interrupted = false;
  result.broken = {{"u", 404, std::nullopt, {}}};
  EXPECT_FALSE(passed(result));
}

TEST(Passed, FalseWithUncheckedUrlsButNotWithSkippedOnes) {
  crawl_result result;
  result.skipped = {{"http://a.test/a/a/a/a/", "trap", "http://a.test/"}};
  EXPECT_TRUE(passed(result));
  result.unchecked = {{"http://a.test/later", "http://a.test/"}};
  EXPECT_FALSE(passed(result));
}

crawl_result stopped_result() {
  crawl_result result;
  result.roots = {"http://a.test/"};
  result.records = {page("http://a.test/", 200, "text/html", 10)};
  result.unchecked = {{"http://a.test/a", "http://a.test/"}, {"http://a.test/b", std::nullopt}};
  result.skipped = {{"http://a.test/x/x/x/x/", "the path repeats a segment", "http://a.test/"}};
  result.frontier_peak = 7;
  return result;
}

TEST(JsonSummary, ListsUncheckedAndSkippedUrlsAndTheLimits) {
  crawl_options options;
  options.max_urls = 1;
  options.max_depth = 3;
  options.trap_rules = false;
  std::ostringstream out;
  write_json_summary(out, stopped_result(), options);
  const auto doc = json::parse(out.str());
  EXPECT_EQ(doc.at("passed"), false);
  EXPECT_EQ(doc.at("config").at("max_urls"), 1);
  EXPECT_EQ(doc.at("config").at("max_depth"), 3);
  EXPECT_EQ(doc.at("config").at("trap_rules"), false);
  EXPECT_EQ(doc.at("stats").at("unchecked"), 2);
  EXPECT_EQ(doc.at("stats").at("skipped"), 1);
  EXPECT_EQ(doc.at("stats").at("frontier_peak"), 7);
  EXPECT_EQ(doc.at("unchecked"), json::parse(R"([
      {"url": "http://a.test/a", "referrer": "http://a.test/", "reason": null},
      {"url": "http://a.test/b", "referrer": null, "reason": null}])"));
  EXPECT_EQ(doc.at("skipped"), json::parse(R"([{"url": "http://a.test/x/x/x/x/",
      "reason": "the path repeats a segment", "referrer": "http://a.test/", "referrers": [],
      "sources": []}])"));
  // One record per line, as for the other lists.
  EXPECT_NE(out.str().find("\"unchecked\":[\n{\"url\":\"http://a.test/a\""), std::string::npos);
}

// Bytes a hostile server can put in a record: ill-formed UTF-8 in every string.
crawl_result hostile_result() {
  crawl_result result;
  result.roots = {"http://a.test/\xC0"};
  result.records = {{.url = "http://a.test/\xFF",
                     .status = 200,
                     .next_url = "http://a.test/\xE2\x82",
                     .error = "bad HTTP response: \xED\xA0\x80",
                     .tries = 1,
                     .content_type = "text/h\xF4\x90\x80\x80tml",
                     .encoding = "utf-8\xC3",
                     .referrer = "http://a.test/\x80"}};
  result.broken = {{"http://a.test/\xFE", std::nullopt, "reset \xC1\xBF", {"http://a.test/\xF8"}}};
  result.rate_limited = {{"http://a.test/\xF5", 429, std::nullopt, {}}};
  result.unchecked = {{"http://a.test/\xC2", "http://a.test/\xE0\x80"}};
  result.skipped = {{"http://a.test/\xF0\x80", "reason \xFF", "http://a.test/\xBF"}};
  return result;
}

TEST(JsonSummary, EveryStringIsValidUtf8) {
  crawl_options options;
  options.exclude = {"caf\xC3\xA9", "\xFF"};
  std::ostringstream out;
  write_json_summary(out, hostile_result(), options);
  // Boost.JSON's parser refuses ill-formed UTF-8, as Python's json.load does.
  json::value doc;
  ASSERT_NO_THROW(doc = json::parse(out.str())) << out.str();
  const std::string fffd = "\xEF\xBF\xBD";
  const auto& url = doc.at("urls").at(0);
  EXPECT_EQ(testing::text(url.at("url")), "http://a.test/" + fffd);
  EXPECT_EQ(testing::text(url.at("next_url")), "http://a.test/" + fffd);
  EXPECT_EQ(testing::text(url.at("error")), "bad HTTP response: " + fffd + fffd + fffd);
  EXPECT_EQ(testing::text(url.at("content_type")), "text/h" + fffd + fffd + fffd + fffd + "tml");
  EXPECT_EQ(testing::text(url.at("encoding")), "utf-8" + fffd);
  EXPECT_EQ(testing::text(url.at("referrer")), "http://a.test/" + fffd);
  EXPECT_EQ(testing::text(doc.at("roots").at(0)), "http://a.test/" + fffd);
  EXPECT_EQ(doc.at("config").at("exclude"), json::parse("[\"caf\xC3\xA9\", \"" + fffd + "\"]"));
  EXPECT_EQ(testing::text(doc.at("broken").at(0).at("error")), "reset " + fffd + fffd);
  EXPECT_EQ(testing::text(doc.at("broken").at(0).at("referrers").at(0)), "http://a.test/" + fffd);
  EXPECT_EQ(testing::text(doc.at("rate_limited").at(0).at("url")), "http://a.test/" + fffd);
  EXPECT_EQ(testing::text(doc.at("unchecked").at(0).at("referrer")),
            "http://a.test/" + fffd + fffd);
  EXPECT_EQ(testing::text(doc.at("skipped").at(0).at("url")), "http://a.test/" + fffd + fffd);
  EXPECT_EQ(testing::text(doc.at("skipped").at(0).at("reason")), "reason " + fffd);
}

// A device that takes `room` bytes and then fails every write, as a full disk does.
class full_device final : public std::streambuf {
 public:
  explicit full_device(std::size_t room) : room_(room) {}
  std::size_t taken() const { return taken_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char byte = traits_type::to_char_type(c);
    return xsputn(&byte, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char*, std::streamsize size) override {
    const auto n = std::min<std::streamsize>(size, static_cast<std::streamsize>(room_ - taken_));
    taken_ += static_cast<std::size_t>(n);
    return n;
  }

 private:
  std::size_t room_;
  std::size_t taken_ = 0;
};

TEST(JsonSummary, StopsWritingOnceTheStreamFails) {
  full_device device(100);
  std::ostream out(&device);
  write_json_summary(out, sample_result(), {});  // returns, and leaves the failure to the caller
  EXPECT_TRUE(out.bad());
  EXPECT_EQ(device.taken(), 100u);  // everything up to the failure was written
}

std::string numbered_page(int i) {
  std::string digits = std::to_string(i);
  return "http://a.test/p" + std::string(5 - std::min<std::size_t>(5, digits.size()), '0') + digits;
}

// A crawl's tables with `pages` pages under one root, every third broken (a 404 with its
// place on the root page), as its lists are read after a crawl.
crawl_result long_lists(int pages) {
  auto store = std::make_shared<crawl_store>();
  const auto root = store->add_url("http://a.test/", std::nullopt);
  store->note_anchors(root, {});
  store->finish(root, {.status = 200}, verdict::ok);
  for (int i = 0; i < pages; ++i) {
    const auto page = store->add_url(numbered_page(i), root);
    const bool broken = i % 3 == 0;
    if (broken) {
      store->note_source(page, {.page = root,
                                .element = "a",
                                .attribute = "href",
                                .line = static_cast<unsigned>(i + 1)});
    }
    store->finish(page, {.status = broken ? 404U : 200U}, broken ? verdict::broken : verdict::ok);
  }
  store->sort_by_url();
  crawl_result result;
  result.records = record_list(store);
  result.broken = crawl_store::problems(store, verdict::broken);
  return result;
}

TEST(JsonSummary, LongListsAreWrittenWholeAndInOrder) {
  constexpr int pages = 3'000;  // a dozen blocks of records, some of broken links
  std::ostringstream out;
  write_json_summary(out, long_lists(pages), {});
  const std::string text = out.str();
  const auto doc = json::parse(text);
  const auto& urls = doc.at("urls").as_array();
  ASSERT_EQ(urls.size(), std::size_t{pages} + 1);
  EXPECT_EQ(urls[0].at("url"), "http://a.test/");
  for (int i = 0; i < pages; ++i) {
    const auto& url = urls[static_cast<std::size_t>(i) + 1];
    ASSERT_EQ(testing::text(url.at("url")), numbered_page(i));
    ASSERT_EQ(url.at("status"), i % 3 == 0 ? 404 : 200);
  }
  const auto& broken = doc.at("broken").as_array();
  ASSERT_EQ(broken.size(), std::size_t{pages / 3});
  for (int i = 0; i < pages; i += 3) {
    const auto& link = broken[static_cast<std::size_t>(i / 3)];
    ASSERT_EQ(testing::text(link.at("url")), numbered_page(i));
    ASSERT_EQ(link.at("sources").at(0).at("line"), i + 1);
  }
  // One item per line, as in a short list: a line more than an empty crawl's per item.
  std::ostringstream empty;
  write_json_summary(empty, crawl_result{}, {});
  const auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  EXPECT_EQ(lines(text), lines(empty.str()) + pages + 1 + pages / 3);
}

TEST(JsonSummary, StopsWritingALongListOnceTheStreamFails) {
  full_device device(100'000);
  std::ostream out(&device);
  write_json_summary(out, long_lists(20'000), {});
  EXPECT_TRUE(out.bad());
  EXPECT_EQ(device.taken(), 100'000u);
}

TEST(JsonSummary, FollowsTheSchema) {
  crawl_options options;
  options.exclude = {"/private/"};
  options.strict = false;
  std::ostringstream out;
  write_json_summary(out, sample_result(), options);
  const auto doc = json::parse(out.str()).as_object();

  EXPECT_EQ(doc.at("schema"), "corocrawl-summary/1");
  EXPECT_EQ(doc.at("roots"), json::parse(R"(["http://a.test/"])"));
  EXPECT_EQ(doc.at("config"), json::parse(R"({"roots": [], "max_tasks": 100, "threads": null,
      "exclude": ["/private/"], "strict": false, "max_time": null, "max_urls": null,
      "max_depth": null, "trap_rules": true, "external": true, "base_url": null, "baseline": null, "cache": null,
      "cache_max_age": 86400, "fragments": true,
      "robots": true, "sitemaps": [], "accept": "200-399", "warn": "", "rules": [], "timeout": 30, "max_redirect": 10, "max_tries": 4,
      "max_body": 10485760, "resolve": [], "max_per_host": 16, "rate_limit": 0,
      "max_retry_wait": 60, "fail_on_rate_limit": false, "insecure": false, "ca_file": "",
      "user_agent": "", "headers": {}, "hosts": {}, "user": null, "proxy": "",
      "no_proxy": ""})"));
  EXPECT_EQ(doc.at("elapsed_seconds"), 1.5);
  EXPECT_EQ(doc.at("interrupted"), false);
  EXPECT_EQ(doc.at("passed"), false);
  EXPECT_EQ(doc.at("stats").at("fail_timeout"), 1);
  EXPECT_EQ(doc.at("stats").at("unchecked"), 0);
  EXPECT_EQ(doc.at("stats").at("skipped"), 0);
  EXPECT_EQ(doc.at("stats").at("frontier_peak"), 0);
  EXPECT_FALSE(doc.at("stats").as_object().contains("status_200"));
  EXPECT_EQ(doc.at("connections"),
            json::parse(R"({"opened": 3, "requests": 8, "requests_per_connection": 2.667})"));

  const auto& urls = doc.at("urls").as_array();
  ASSERT_EQ(urls.size(), 5u);
  EXPECT_EQ(urls[0], json::parse(R"({"url": "http://a.test/", "status": 200, "next_url": null,
      "error": null, "tries": 1, "size": 100, "content_type": "text/html", "encoding": "utf-8",
      "num_urls": 4, "num_new_urls": 4, "referrer": null, "external": false,
      "method": "GET", "cached": false})"));
  EXPECT_EQ(urls[3].at("next_url"), "http://a.test/");
  EXPECT_TRUE(urls[4].at("status").is_null());
  EXPECT_EQ(urls[4].at("error"), "timed out");
  EXPECT_EQ(urls[4].at("tries"), 4);
  EXPECT_EQ(doc.at("broken"), json::parse(R"([
      {"url": "http://a.test/missing", "status": 404, "error": null, "external": false,
       "referrers": ["http://a.test/"],
       "sources": [{"page": "http://a.test/", "element": "a", "attribute": "href", "line": 12,
                    "column": 5},
                   {"page": "http://a.test/", "element": "img", "attribute": "src", "line": 30,
                    "column": 1}]},
      {"url": "http://a.test/slow", "status": null, "error": "timed out", "external": false,
       "referrers": ["http://a.test/"], "sources": []}])"));
  EXPECT_EQ(doc.at("warnings"), json::array{});
  EXPECT_EQ(doc.at("orphans"), json::array{});
  EXPECT_EQ(doc.at("stats").at("warning"), 0);
  EXPECT_EQ(doc.at("stats").at("orphan"), 0);
  EXPECT_EQ(doc.at("stats").at("external"), 0);
}

TEST(JsonSummary, ListsWarningsOrphansAndMissingFragments) {
  crawl_result result;
  result.broken = {{.url = "http://a.test/page#gone",
                    .status = 200,
                    .error = "missing fragment",
                    .referrers = {"http://a.test/"},
                    .sources = {{"http://a.test/", "a", "href", 3, 7}}}};
  result.warnings = {{.url = "http://other.test/", .status = 403, .external = true}};
  result.orphans = {"http://a.test/lost", "http://a.test/lost2"};
  std::ostringstream out;
  write_json_summary(out, result, {});
  const auto doc = json::parse(out.str());
  EXPECT_EQ(doc.at("warnings"), json::parse(R"([{"url": "http://other.test/", "status": 403,
      "error": null, "external": true, "referrers": [], "sources": []}])"));
  EXPECT_EQ(doc.at("orphans"), json::parse(R"(["http://a.test/lost", "http://a.test/lost2"])"));
  EXPECT_EQ(doc.at("stats").at("warning"), 1);
  EXPECT_EQ(doc.at("stats").at("orphan"), 2);
  EXPECT_EQ(doc.at("stats").at("missing_fragment"), 1);
  EXPECT_EQ(doc.at("passed"), false);

  std::ostringstream text;
  write_text_report(text, result, {}, {.detail = text_detail::full});
  EXPECT_NE(text.str().find("  http://a.test/page#gone 200 missing fragment\n"
                            "    http://a.test/:3:7 a href\n"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("Warnings (1):\n  http://other.test/ 403 (external)\n"),
            std::string::npos);
  EXPECT_NE(text.str().find("Orphans (in a sitemap, linked from no page) (2):\n"),
            std::string::npos);
}

TEST(JsonSummary, EscapesStringsAndHandlesAnEmptyCrawl) {
  crawl_result result;
  result.roots = {"http://a.test/\"quoted\"\\"};
  result.interrupted = true;
  std::ostringstream out;
  write_json_summary(out, result, {});
  const auto doc = json::parse(out.str());
  EXPECT_EQ(doc.at("roots").at(0), "http://a.test/\"quoted\"\\");
  EXPECT_EQ(doc.at("interrupted"), true);
  EXPECT_EQ(doc.at("passed"), false);
  EXPECT_EQ(doc.at("urls"), json::array{});
  EXPECT_EQ(doc.at("broken"), json::array{});
  EXPECT_EQ(doc.at("unchecked"), json::array{});
  EXPECT_EQ(doc.at("skipped"), json::array{});
}

TEST(TextReport, OneLinePerUrlBrokenLinksCountersVerdict) {
  std::ostringstream out;
  write_text_report(out, sample_result(), {}, {.detail = text_detail::full});
  const auto text = out.str();
  EXPECT_TRUE(text.starts_with("*** Report ***\n"));
  EXPECT_NE(text.find("http://a.test/ 200 text/html utf-8 100 4/4\n"), std::string::npos);
  EXPECT_NE(text.find("http://a.test/old 301 redirect http://a.test/\n"), std::string::npos);
  EXPECT_NE(text.find("http://a.test/slow error timed out (4 tries)\n"), std::string::npos);
  // Where each page references a broken URL, as editors link "file:line:column"; a referrer
  // with no source (a redirect) as "linked from".
  EXPECT_NE(text.find("Broken links (2):\n  http://a.test/missing 404\n"
                      "    http://a.test/:12:5 a href\n"
                      "    http://a.test/:30:1 img src\n"
                      "  http://a.test/slow error timed out\n"
                      "    linked from http://a.test/\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Finished 5 urls in 1.500 secs (max_tasks=100)"), std::string::npos);
  EXPECT_NE(text.find("\n8 requests over 3 connections (2.7 each)\n"), std::string::npos);
  EXPECT_NE(text.find("       100 html_bytes\n"), std::string::npos);
  EXPECT_TRUE(text.ends_with("FAILED: 2 broken URLs of 5 checked\n")) << text;
}

TEST(TextReport, ErrorsOnlyKeepsBrokenLinksAndVerdict) {
  std::ostringstream out;
  write_text_report(out, sample_result(), {}, {.detail = text_detail::brief});
  const auto text = out.str();
  EXPECT_EQ(text.find("*** Report ***"), std::string::npos);
  EXPECT_EQ(text.find("logo.png"), std::string::npos);
  EXPECT_TRUE(text.starts_with("Broken links (2):\n"));
  EXPECT_TRUE(text.ends_with("FAILED: 2 broken URLs of 5 checked\n"));
}

TEST(TextReport, PassedAndInterruptedVerdicts) {
  crawl_result result;
  result.records = {page("http://a.test/", 200, "text/html", 1)};
  std::ostringstream passed_out;
  write_text_report(passed_out, result, {}, {.detail = text_detail::brief});
  EXPECT_EQ(passed_out.str(), "PASSED: 1 URL checked, nothing broken\n");
  result.interrupted = true;
  std::ostringstream interrupted_out;
  write_text_report(interrupted_out, result, {}, {.detail = text_detail::full});
  EXPECT_TRUE(
      interrupted_out.str().ends_with("INTERRUPTED: stopped after 1 URL, 0 broken so far\n"));
}

TEST(TextReport, NoControlCharacterOrIllFormedUtf8ReachesTheTerminal) {
  auto result = hostile_result();
  auto broken = result.broken.front();
  broken.error =
      "\x1B]0;owned\x07\x1B[2J\x1B[31mred\r\n\x9B"
      "1m\xC2\x9B"
      "1m\x7F";
  result.broken = {broken};
  result.records = {{.url = "http://a.test/\x1B[8m",
                     .status = 200,
                     .error = "\tdetail",
                     .tries = 1,
                     .content_type = "text/html\x1B[0m",
                     .encoding = "\xE2\x80\xAEutf-8"}};
  for (const bool errors_only : {false, true}) {
    std::ostringstream out;
    write_text_report(out, result, {},
                      {.detail = errors_only ? text_detail::brief : text_detail::full});
    const auto text = out.str();
    SCOPED_TRACE(text);
    EXPECT_TRUE(is_valid_utf8(text));
    for (std::size_t i = 0; i < text.size(); ++i) {
      const auto byte = static_cast<unsigned char>(text[i]);
      EXPECT_TRUE(byte >= 0x20 || byte == '\n') << "control byte " << int{byte} << " at " << i;
      EXPECT_NE(byte, 0x7F);
      if (byte == 0xC2 && i + 1 < text.size()) {
        const auto next = static_cast<unsigned char>(text[i + 1]);
        EXPECT_FALSE(next >= 0x80 && next <= 0x9F) << "C1 control at " << i;
      }
    }
    EXPECT_EQ(text.find("\xE2\x80\xAE"), std::string::npos);  // no right-to-left override
    EXPECT_NE(text.find("[2J"), std::string::npos);           // what was there stays readable
  }
}

TEST(TextReport, ListsUncheckedAndSkippedUrlsWithTheVerdict) {
  std::ostringstream out;
  write_text_report(out, stopped_result(), {}, {.detail = text_detail::full});
  const auto text = out.str();
  EXPECT_NE(text.find("Left unchecked (2):\n  http://a.test/a\n    linked from http://a.test/\n"
                      "  http://a.test/b\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Skipped (1):\n  http://a.test/x/x/x/x/ (the path repeats a segment)\n"
                      "    linked from http://a.test/\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("         2 unchecked\n"), std::string::npos);
  EXPECT_NE(text.find("         7 frontier_peak\n"), std::string::npos);
  EXPECT_TRUE(text.ends_with("FAILED: 2 URLs left unchecked, 1 checked, nothing broken\n")) << text;
}

TEST(TextReport, QuietListsUncheckedButNotSkippedUrls) {
  std::ostringstream out;
  write_text_report(out, stopped_result(), {}, {.detail = text_detail::brief});
  EXPECT_EQ(out.str(),
            "Left unchecked (2):\n  http://a.test/a\n    linked from http://a.test/\n"
            "  http://a.test/b\n"
            "FAILED: 2 URLs left unchecked, 1 checked, nothing broken\n");
}

TEST(TextReport, ListsTheFirstTwentyUncheckedUrlsOnly) {
  auto result = stopped_result();
  std::vector<unchecked_url> unchecked;
  for (int i = 100; i < 1100; ++i)
    unchecked.push_back({"http://a.test/" + std::to_string(i), std::nullopt});
  result.unchecked = std::move(unchecked);
  result.timed_out = true;
  std::ostringstream out;
  write_text_report(out, result, {}, {.detail = text_detail::full});
  const auto text = out.str();
  EXPECT_NE(text.find("Left unchecked (1000):\n"), std::string::npos);
  EXPECT_NE(text.find("  http://a.test/119\n  ... and 980 more (see the JSON summary)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("http://a.test/120"), std::string::npos);
  EXPECT_TRUE(text.ends_with(
      "TIMED OUT: stopped by --max-time after 1 URL, 0 broken so far, 1000 left unchecked\n"))
      << text;
}

TEST(TextReport, BrokenAndUncheckedInOneVerdict) {
  auto result = sample_result();
  result.unchecked = {{"http://a.test/later", std::nullopt}};
  std::ostringstream out;
  write_text_report(out, result, {}, {.detail = text_detail::brief});
  EXPECT_TRUE(out.str().ends_with("FAILED: 2 broken URLs of 5 checked, 1 left unchecked\n"))
      << out.str();
}

}  // namespace
}  // namespace corocrawl
