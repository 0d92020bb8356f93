// The `sarif` format, parsed back and checked for what GitHub's code scanning reads.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <sstream>
#include <string>

#include "corocrawl/report.hpp"

namespace corocrawl {
namespace {

namespace json = boost::json;

json::value sarif(const crawl_result& result) {
  std::ostringstream out;
  write_sarif_report(out, result, [](std::string_view page) {
    if (page == "http://a.test/") return std::string("site/index.html");
    if (page == "http://a.test/a%20b.html") return std::string("site/a b#1%\xC3\xA9.html");
    return std::string(page);
  });
  return json::parse(out.str());
}

TEST(SarifReport, HasWhatCodeScanningRequires) {
  crawl_result result;
  result.broken = {{.url = "http://a.test/logo.png",
                    .status = 404,
                    .referrers = {"http://a.test/"},
                    .sources = {{"http://a.test/", "img", "src", 12, 5}}}};
  const auto log = sarif(result);
  EXPECT_EQ(log.at("version"), "2.1.0");
  EXPECT_TRUE(log.at("$schema").as_string().ends_with("sarif-schema-2.1.0.json"));
  const auto& run = log.at("runs").at(0);
  EXPECT_EQ(run.at("tool").at("driver").at("name"), "corocrawl");
  EXPECT_FALSE(run.at("tool").at("driver").at("rules").as_array().empty());
  const auto& found = run.at("results").at(0);
  EXPECT_EQ(found.at("ruleId"), "broken-link");
  EXPECT_EQ(found.at("level"), "error");
  EXPECT_EQ(found.at("message").at("text"), "http://a.test/logo.png 404 (img src)");
  const auto& physical = found.at("locations").at(0).at("physicalLocation");
  EXPECT_EQ(physical.at("artifactLocation").at("uri"), "site/index.html");
  EXPECT_EQ(physical.at("region").at("startLine"), 12);
  EXPECT_EQ(physical.at("region").at("startColumn"), 5);
}

TEST(SarifReport, AFilesPathIsAUriReference) {
  crawl_result result;
  result.broken = {{.url = "http://a.test/gone",
                    .status = 404,
                    .referrers = {"http://a.test/a%20b.html"},
                    .sources = {{"http://a.test/a%20b.html", "a", "href", 1, 1}}}};
  const auto log = sarif(result);
  const auto& location = log.at("runs").at(0).at("results").at(0).at("locations").at(0);
  EXPECT_EQ(location.at("physicalLocation").at("artifactLocation").at("uri"),
            "site/a%20b%231%25%C3%A9.html");
}

TEST(SarifReport, MissingFragmentsWarningsAndReferrerOnlyProblems) {
  crawl_result result;
  result.broken = {
      {.url = "http://a.test/#x",
       .status = 200,
       .error = "missing fragment",
       .sources = {{"http://a.test/", "a", "href", 3, 1}}},
      {.url = "http://a.test/gone", .error = "timed out", .referrers = {"http://a.test/r"}}};
  result.warnings = {{.url = "http://a.test/moved", .status = 301}};
  const auto results = sarif(result).at("runs").at(0).at("results").as_array();
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].at("ruleId"), "missing-fragment");
  EXPECT_EQ(results[1].at("ruleId"), "broken-link");
  const auto& physical = results[1].at("locations").at(0).at("physicalLocation");
  EXPECT_EQ(physical.at("artifactLocation").at("uri"), "http://a.test/r");
  EXPECT_FALSE(physical.as_object().contains("region"));
  EXPECT_EQ(results[2].at("ruleId"), "link-warning");
  EXPECT_EQ(results[2].at("level"), "warning");
  EXPECT_TRUE(results[2].at("locations").as_array().empty());
}

TEST(SarifReport, IllFormedTextIsStillOneValidDocument) {
  crawl_result result;
  result.broken = {{.url = "http://a.test/\xFF\"}", .error = "\x01\n"}};
  const auto text = sarif(result).at("runs").at(0).at("results").at(0).at("message").at("text");
  EXPECT_EQ(text, "http://a.test/\xEF\xBF\xBD\"} error \x01\n");
}

}  // namespace
}  // namespace corocrawl
