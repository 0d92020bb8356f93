// Statistics, the JSON summary and the text report, from hand-made crawl results.
#include "corocrawl/report.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <sstream>

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
      {.url = "http://a.test/slow", .error = "timed out", .failure = "timeout", .tries = 4},
  };
  result.broken = {{"http://a.test/missing", 404, std::nullopt, {"http://a.test/"}},
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
      {"status_404", 1},   {"fail", 1},     {"fail_timeout", 1}, {"rate_limited", 0}};
  EXPECT_EQ(stats, expected);
}

TEST(Stats, BaseKeysArePresentWhenZero) {
  const auto stats = compute_stats({});
  EXPECT_EQ(stats.size(), 10u);
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

TEST(Broken, WhatCountsAsBroken) {
  EXPECT_FALSE(is_broken(page("u", 200, "text/html", 0)));
  EXPECT_FALSE(is_broken({.url = "u", .status = 302, .next_url = "v"}));
  EXPECT_TRUE(is_broken({.url = "u", .status = 302, .error = "redirect limit reached"}));
  EXPECT_TRUE(is_broken(page("u", 404, "text/html", 0)));
  EXPECT_TRUE(is_broken(page("u", 500, "text/html", 0)));
  EXPECT_TRUE(is_broken({.url = "u", .error = "connection refused", .failure = "refused"}));
}

TEST(Passed, NeedsNothingBrokenAndNoInterruption) {
  crawl_result result;
  EXPECT_TRUE(passed(result));
  result.interrupted = true;
  EXPECT_FALSE(passed(result));
  result.interrupted = false;
  result.broken.push_back({"u", 404, std::nullopt, {}});
  EXPECT_FALSE(passed(result));
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
  EXPECT_EQ(doc.at("config"), json::parse(R"({"max_tasks": 100, "max_redirect": 10,
      "max_tries": 4, "strict": false, "exclude": ["/private/"]})"));
  EXPECT_EQ(doc.at("elapsed_seconds"), 1.5);
  EXPECT_EQ(doc.at("interrupted"), false);
  EXPECT_EQ(doc.at("passed"), false);
  EXPECT_EQ(doc.at("stats").at("fail_timeout"), 1);
  EXPECT_FALSE(doc.at("stats").as_object().contains("status_200"));
  EXPECT_EQ(doc.at("connections"),
            json::parse(R"({"opened": 3, "requests": 8, "requests_per_connection": 2.667})"));

  const auto& urls = doc.at("urls").as_array();
  ASSERT_EQ(urls.size(), 5u);
  EXPECT_EQ(urls[0], json::parse(R"({"url": "http://a.test/", "status": 200, "next_url": null,
      "error": null, "tries": 1, "size": 100, "content_type": "text/html", "encoding": "utf-8",
      "num_urls": 4, "num_new_urls": 4, "referrer": null})"));
  EXPECT_EQ(urls[3].at("next_url"), "http://a.test/");
  EXPECT_TRUE(urls[4].at("status").is_null());
  EXPECT_EQ(urls[4].at("error"), "timed out");
  EXPECT_EQ(urls[4].at("tries"), 4);
  EXPECT_EQ(doc.at("broken"), json::parse(R"([
      {"url": "http://a.test/missing", "status": 404, "error": null, "referrers": ["http://a.test/"]},
      {"url": "http://a.test/slow", "status": null, "error": "timed out", "referrers": ["http://a.test/"]}])"));
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
}

TEST(TextReport, OneLinePerUrlBrokenLinksCountersVerdict) {
  std::ostringstream out;
  write_text_report(out, sample_result(), {}, false);
  const auto text = out.str();
  EXPECT_TRUE(text.starts_with("*** Report ***\n"));
  EXPECT_NE(text.find("http://a.test/ 200 text/html utf-8 100 4/4\n"), std::string::npos);
  EXPECT_NE(text.find("http://a.test/old 301 redirect http://a.test/\n"), std::string::npos);
  EXPECT_NE(text.find("http://a.test/slow error timed out (4 tries)\n"), std::string::npos);
  EXPECT_NE(text.find("Broken links (2):\n  http://a.test/missing 404\n"
                      "    linked from http://a.test/\n"),
            std::string::npos);
  EXPECT_NE(text.find("Finished 5 urls in 1.500 secs (max_tasks=100)"), std::string::npos);
  EXPECT_NE(text.find("\n8 requests over 3 connections (2.7 each)\n"), std::string::npos);
  EXPECT_NE(text.find("       100 html_bytes\n"), std::string::npos);
  EXPECT_TRUE(text.ends_with("FAILED: 2 broken URLs of 5 checked\n")) << text;
}

TEST(TextReport, ErrorsOnlyKeepsBrokenLinksAndVerdict) {
  std::ostringstream out;
  write_text_report(out, sample_result(), {}, true);
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
  write_text_report(passed_out, result, {}, true);
  EXPECT_EQ(passed_out.str(), "PASSED: 1 URL checked, nothing broken\n");
  result.interrupted = true;
  std::ostringstream interrupted_out;
  write_text_report(interrupted_out, result, {}, false);
  EXPECT_TRUE(
      interrupted_out.str().ends_with("INTERRUPTED: stopped after 1 URL, 0 broken so far\n"));
}

}  // namespace
}  // namespace corocrawl
