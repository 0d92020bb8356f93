// The `junit` format, parsed back with expat as a test report reader would.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "corocrawl/report.hpp"
#include "xml_elements.hpp"

namespace corocrawl {
namespace {

using element = testing::xml_element;

std::vector<element> parse_xml(const std::string& xml) {
  return testing::parse_xml(xml);
}

std::string junit(const crawl_result& result, bool fail_on_rate_limit = false) {
  std::ostringstream out;
  write_junit_report(out, result, fail_on_rate_limit,
                     [](std::string_view page) { return std::string(page); });
  return out.str();
}

crawl_result sample() {
  crawl_result result;
  result.roots = {"http://a.test/"};
  result.records = {
      {.url = "http://a.test/", .status = 200, .tries = 1},
      {.url = "http://a.test/gone", .status = 404, .tries = 1},
      {.url = "http://a.test/moved", .status = 301, .tries = 1},
  };
  result.broken = {
      {.url = "http://a.test/#nowhere",
       .status = 200,
       .error = "missing fragment",
       .referrers = {"http://a.test/"},
       .sources = {{"http://a.test/", "a", "href", 3, 1}}},
      {.url = "http://a.test/gone",
       .status = 404,
       .referrers = {"http://a.test/"},
       .sources = {{"http://a.test/", "img", "src", 12, 5}}},
  };
  result.warnings = {{.url = "http://a.test/moved", .status = 301}};
  result.unchecked = {{.url = "http://a.test/later", .reason = "robots.txt could not be read"}};
  result.skipped = {{.url = "http://a.test/private", .reason = "robots.txt"}};
  return result;
}

TEST(JunitReport, ATestCasePerCheckedUrlAndAFailurePerBrokenOne) {
  const auto elements = parse_xml(junit(sample()));
  ASSERT_GE(elements.size(), 2u);
  EXPECT_EQ(elements[0].name, "testsuites");
  EXPECT_EQ(elements[1].name, "testsuite");
  EXPECT_EQ(elements[1].attributes.at("tests"), "6");
  EXPECT_EQ(elements[1].attributes.at("failures"), "2");
  EXPECT_EQ(elements[1].attributes.at("errors"), "1");
  EXPECT_EQ(elements[1].attributes.at("skipped"), "1");
  std::map<std::string, std::string> outcome;  // test case -> what it holds
  std::string current;
  for (const auto& e : elements) {
    if (e.name == "testcase") current = e.attributes.at("name"), outcome[current] = "passed";
    if (e.name == "failure" || e.name == "error" || e.name == "skipped" || e.name == "system-out")
      outcome[current] =
          e.name + ": " +
          (e.attributes.contains("message") ? e.attributes.at("message") + " | " + e.text : e.text);
  }
  EXPECT_EQ(
      outcome,
      (std::map<std::string, std::string>{
          {"http://a.test/", "passed"},
          {"http://a.test/gone", "failure: 404 | http://a.test/:12:5 img src\n"},
          {"http://a.test/#nowhere", "failure: 200 missing fragment | http://a.test/:3:1 a href\n"},
          {"http://a.test/moved", "system-out: 301\n"},
          {"http://a.test/later", "error: left unchecked: robots.txt could not be read | "},
          {"http://a.test/private", "skipped: robots.txt | "},
      }));
}

TEST(JunitReport, RateLimitedFailsOnlyWhenAskedTo) {
  crawl_result result;
  result.records = {{.url = "http://b.test/", .status = 429, .tries = 3}};
  result.rate_limited = {{.url = "http://b.test/", .status = 429, .external = true}};
  auto elements = parse_xml(junit(result));
  EXPECT_EQ(elements[1].attributes.at("failures"), "0");
  EXPECT_TRUE(std::ranges::none_of(elements, [](const element& e) { return e.name == "failure"; }));
  elements = parse_xml(junit(result, true));
  EXPECT_EQ(elements[1].attributes.at("failures"), "1");
  EXPECT_TRUE(std::ranges::any_of(elements, [](const element& e) { return e.name == "failure"; }));
}

// Markup, quotes, control characters and ill-formed UTF-8 from a hostile server stay text.
TEST(JunitReport, TextFromOutsideIsWellFormedXml) {
  crawl_result result;
  const std::string url = "http://a.test/<x>&\"'\x01\xFF";
  result.records = {
      {.url = url, .error = "</failure>", .failure = fetch_failure::protocol, .tries = 1}};
  result.broken = {{.url = url, .error = "</failure><x a='1'>\r\n"}};
  const auto elements = parse_xml(junit(result));
  const auto failure = std::ranges::find(elements, std::string("failure"), &element::name);
  ASSERT_NE(failure, elements.end());
  EXPECT_EQ(failure->attributes.at("message"), "error </failure><x a='1'>\r\n");
  const auto test = std::ranges::find(elements, std::string("testcase"), &element::name);
  EXPECT_EQ(test->attributes.at("name"), "http://a.test/<x>&\"'\xEF\xBF\xBD\xEF\xBF\xBD");
}

}  // namespace
}  // namespace corocrawl
