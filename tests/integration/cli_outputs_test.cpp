// The --output formats as CI reads them, through the binary: each parsed back (an XML parser
// for JUnit, a JSON parser for SARIF and the summary), folder mode's file names, where the
// text report goes, and the progress line and colours on a pseudo-terminal.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "binary_test.hpp"
#include "json_text.hpp"
#include "process.hpp"
#include "xml_elements.hpp"

namespace corocrawl {
namespace {

namespace json = boost::json;
using testing::process_result;
using testing::terminal;

constexpr std::string_view erase_line = "\r\x1b[K";
constexpr std::string_view red = "\x1b[1;31m";

class OutputsTest : public testing::binary_test {
 protected:
  /// "/" links to "/ok" and (at line 1, column 15) to "/missing".
  void serve_site_with_a_broken_link() {
    server_.add_page("/", {"/ok", "/missing"});
    server_.add_page("/ok", {"/"});
  }
  /// The binary run with `tty` a pseudo-terminal.
  process_result run_on(terminal tty, std::vector<std::string> args) const {
    args.insert(args.begin(), COROCRAWL_BINARY);
    return testing::run_on_terminal(args, tty, dir_);
  }
  /// The binary run with one more environment variable.
  process_result run_with_env(std::string variable, std::vector<std::string> args,
                              terminal tty) const {
    args.insert(args.begin(), {"/usr/bin/env", std::move(variable), COROCRAWL_BINARY});
    return testing::run_on_terminal(args, tty, dir_);
  }
  std::string read(const std::string& file) const { return temp_.read(file); }
};

TEST_F(OutputsTest, EveryFormatAtOnceEachReadBackAsCiReadsIt) {
  serve_site_with_a_broken_link();
  const auto result =
      run({"--output", "junit:r.xml", "-o", "markdown:r.md", "-o", "github:r.txt", "-o",
           "sarif:r.sarif", "-o", "json:r.json", "-o", "text:r.log", server_.url("/")});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_EQ(result.out, "") << "text goes where --output sends it, not to stdout as well";
  const std::string missing = server_.url("/missing");
  const std::string place = server_.url("/") + ":1:";

  // JUnit, as GitLab reads it: a test case per URL, a failure per broken one with its place.
  const auto elements = testing::parse_xml(read("r.xml"));
  std::vector<std::string> cases, failed;
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (elements[i].name != "testcase") continue;
    EXPECT_FALSE(elements[i].attributes.at("classname").empty());
    cases.push_back(elements[i].attributes.at("name"));
    if (i + 1 < elements.size() && elements[i + 1].name == "failure") {
      failed.push_back(cases.back());
      EXPECT_NE(elements[i + 1].text.find(place), std::string::npos) << elements[i + 1].text;
    }
  }
  EXPECT_EQ(cases.size(), 3u);
  EXPECT_EQ(failed, std::vector<std::string>{missing});
  EXPECT_EQ(elements.front().name, "testsuites");
  EXPECT_EQ(elements.front().attributes.at("failures"), "1");

  // SARIF 2.1.0, with what code scanning requires.
  const auto sarif = json::parse(read("r.sarif"));
  EXPECT_EQ(sarif.at("version"), "2.1.0");
  EXPECT_TRUE(testing::text(sarif.at("$schema")).ends_with("sarif-schema-2.1.0.json"));
  const auto& run0 = sarif.at("runs").at(0);
  EXPECT_EQ(run0.at("tool").at("driver").at("name"), "corocrawl");
  ASSERT_EQ(run0.at("results").as_array().size(), 1u);
  const auto& finding = run0.at("results").at(0);
  EXPECT_EQ(finding.at("ruleId"), "broken-link");
  EXPECT_TRUE(testing::text(finding.at("message").at("text")).starts_with(missing + " 404"));
  const auto& physical = finding.at("locations").at(0).at("physicalLocation");
  EXPECT_EQ(testing::text(physical.at("artifactLocation").at("uri")), server_.url("/"));
  EXPECT_EQ(physical.at("region").at("startLine"), 1);

  const std::string github = read("r.txt");
  EXPECT_TRUE(github.starts_with("::error file=http%3A//127.0.0.1%3A")) << github;
  EXPECT_EQ(std::ranges::count(github, '\n'), 1) << github;
  EXPECT_NE(read("r.md").find("| URL | Status | Where |"), std::string::npos);
  EXPECT_EQ(json::parse(read("r.json")).at("broken").as_array().size(), 1u);
  EXPECT_NE(read("r.log").find("Broken links (1):\n  " + missing + " 404\n    " + place),
            std::string::npos)
      << read("r.log");
}

TEST_F(OutputsTest, AnOutputOnStdoutSendsTheTextReportToStderr) {
  serve_site_with_a_broken_link();
  const auto result = run({"--output", "github", server_.url("/")});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_TRUE(result.out.starts_with("::error file=")) << result.out;
  EXPECT_NE(result.err.find("Broken links (1):"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("FAILED: 1 broken URL of 3 checked"), std::string::npos);
}

TEST_F(OutputsTest, TheTextReportListsEveryUrlOnlyWhenFull) {
  serve_site_with_a_broken_link();
  const auto brief = run({server_.url("/")});
  EXPECT_EQ(brief.out.find("*** Report ***"), std::string::npos) << brief.out;
  EXPECT_EQ(brief.out.find(server_.url("/ok")), std::string::npos) << brief.out;
  EXPECT_NE(brief.out.find("3 URLs checked in "), std::string::npos) << brief.out;
  const auto full = run({"--report", "full", server_.url("/")});
  EXPECT_NE(full.out.find("*** Report ***\n"), std::string::npos) << full.out;
  EXPECT_NE(full.out.find(server_.url("/ok") + " 200 "), std::string::npos) << full.out;
  const auto none = run({"--report", "none", server_.url("/")});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_EQ(none.out, "");
}

TEST_F(OutputsTest, BadOutputsAreUsageErrors) {
  expect_config_error({"--output", "xml", server_.url("/")},
                      "--output: expected \"text\", \"json\", \"junit\", \"markdown\", "
                      "\"github\" or \"sarif\", got \"xml\"");
  expect_config_error({"--output", "junit", "--json", "-", server_.url("/")},
                      "only one output can go to stdout, and junit and json both do");
  expect_config_error({"-o", "junit:-", "-o", "sarif", server_.url("/")},
                      "only one output can go to stdout");
  expect_config_error({"-o", "junit:a.xml", "-o", "sarif:a.xml", server_.url("/")},
                      "\"a.xml\" is named by two outputs");
  expect_config_error({"-o", "junit:", server_.url("/")}, "--output: expected a file name");
  expect_config_error({"-o", "junit:no/such/dir/r.xml", server_.url("/")},
                      "--output: cannot write \"no/such/dir/r.xml\"");
}

TEST_F(OutputsTest, AConfigFilesOutputsAreTakenFromItsDirectory) {
  serve_site_with_a_broken_link();
  temp_.write("ci/corocrawl.toml", "outputs = [\"junit:reports/links.xml\", \"markdown\"]\n");
  std::filesystem::create_directories(dir_ / "ci/reports");
  const auto result = run({"--config", "ci/corocrawl.toml", server_.url("/")});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_TRUE(result.out.starts_with("## corocrawl: FAILED")) << result.out;
  EXPECT_FALSE(testing::parse_xml(read("ci/reports/links.xml")).empty());
  temp_.write("bad.toml", "outputs = [\"pdf:x\"]\n");
  testing::expect_config_error(run({"--config", "bad.toml", server_.url("/")}),
                               "outputs: expected \"text\"");
}

TEST_F(OutputsTest, FolderModeNamesFilesNotPortsInEveryFormat) {
  temp_.write("site/index.html", "<p>\n<a href=\"blog/\">Blog</a>\n");
  temp_.write("site/blog/index.html", "<p>\n  <img src=\"../img/gone.png\">\n");
  const std::vector<std::string> args = {
      "-o", "github", "-o", "sarif:s.json", "-o", "junit:j.xml", "--json", "summary.json", "site"};
  const auto first = run(args);
  EXPECT_EQ(first.exit_code, 1) << first.err;
  EXPECT_EQ(first.out,
            "::error file=site/blog/index.html,line=2,col=3,title=broken link::site/img/gone.png "
            "404 (img src)\n");
  EXPECT_NE(first.err.find("  site/img/gone.png 404\n    site/blog/index.html:2:3 img src\n"),
            std::string::npos)
      << first.err;
  const auto sarif = json::parse(read("s.json"));
  EXPECT_EQ(sarif.at("runs")
                .at(0)
                .at("results")
                .at(0)
                .at("locations")
                .at(0)
                .at("physicalLocation")
                .at("artifactLocation")
                .at("uri"),
            "site/blog/index.html");
  bool named = false;
  for (const auto& e : testing::parse_xml(read("j.xml")))
    named |= e.name == "testcase" && e.attributes.at("name") == "site/img/gone.png";
  EXPECT_TRUE(named) << read("j.xml");
  // The summary keeps the URLs and adds the files.
  const auto summary = json::parse(read("summary.json"));
  const auto& broken = summary.at("broken").at(0);
  EXPECT_TRUE(testing::text(broken.at("url")).starts_with("http://127.0.0.1:"));
  EXPECT_EQ(broken.at("file"), "site/img/gone.png");
  EXPECT_EQ(broken.at("sources").at(0).at("file"), "site/blog/index.html");
  EXPECT_EQ(summary.at("urls").at(0).at("file"), "site/index.html");
  // Another run, another port: the same report.
  EXPECT_EQ(run(args).out, first.out);
}

TEST_F(OutputsTest, APlaceReachedByTwoUrlsOfOneFileIsReportedOnce) {
  // "/" and "/index.html" are two URLs, both parsed, but one file: one place to fix.
  temp_.write("site/index.html", "<a href=index.html>home</a> <a href=gone.html>gone</a>");
  const auto result = run({"-o", "github", "-o", "sarif:s.json", "-o", "junit:j.xml", "site"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_EQ(result.out,
            "::error file=site/index.html,line=1,col=29,title=broken link::site/gone.html 404 "
            "(a href)\n");
  EXPECT_NE(result.err.find("  site/gone.html 404\n    site/index.html:1:29 a href\n3 URLs"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(json::parse(read("s.json")).at("runs").at(0).at("results").as_array().size(), 1u);
  // One test case per file, the broken one's.
  std::vector<std::string> cases;
  for (const auto& e : testing::parse_xml(read("j.xml")))
    if (e.name == "testcase") cases.push_back(e.attributes.at("name"));
  EXPECT_EQ(cases, (std::vector<std::string>{"site/index.html", "site/gone.html"}));
}

TEST_F(OutputsTest, AFailedCrawlWithNothingBrokenIsAnnotatedToo) {
  serve_site_with_a_broken_link();
  const auto result = run({"--max-urls", "1", "-o", "github", server_.url("/ok")});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_EQ(result.out,
            "::error title=corocrawl::FAILED: 1 URL left unchecked, 1 checked, "
            "nothing broken\n");
}

TEST_F(OutputsTest, BaseUrlChecksAPublishedSitesAbsoluteLinksAgainstItsFolder) {
  temp_.write("public/index.html",
              "<a href=\"https://example.com/docs/about.html\">About</a>\n"
              "<a href=\"/docs/about.html#team\">Team</a>\n"
              "<a href=\"https://example.com/docs\">Home</a>\n"
              "<a href=\"https://example.com/docs/gone.html\">Gone</a>\n"
              "<a href=\"https://example.com/blog/\">Blog</a>\n");
  temp_.write("public/about.html", "<h2 id=\"team\">Team</h2>");
  const auto result = run({"--base-url", "https://example.com/docs/", "--no-external", "--json",
                           "summary.json", "-o", "github", "public"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_EQ(result.out,
            "::error file=public/index.html,line=4,col=1,title=broken link::public/gone.html 404 "
            "(a href)\n");
  const auto summary = json::parse(read("summary.json"));
  std::vector<std::string> files;
  for (const auto& url : summary.at("urls").as_array()) {
    EXPECT_TRUE(testing::text(url.at("url")).starts_with("http://127.0.0.1:")) << url;
    files.push_back(testing::text(url.at("file")));
  }
  // The blog lies outside the folder's address: another site, not checked here.
  EXPECT_EQ(files, (std::vector<std::string>{"public/index.html", "public/index.html",
                                             "public/about.html", "public/gone.html"}));
  EXPECT_EQ(summary.at("config").at("base_url"), "https://example.com/docs/");
}

TEST_F(OutputsTest, BaseUrlNeedsOneFolderAndAnAddress) {
  temp_.write("a/index.html", "a");
  temp_.write("b/index.html", "b");
  expect_config_error({"--base-url", "https://example.com/", server_.url("/")},
                      "base_url: stands for one local folder among the roots, and 0 are given");
  expect_config_error({"--base-url", "https://example.com/", "a", "b"}, "and 2 are given");
  expect_config_error({"--base-url", "ftp://example.com/", "a"},
                      "--base-url: expected an absolute http(s) URL, got \"ftp://example.com/\"");
  expect_config_error({"--base-url", "https://example.com/?v=2", "a"},
                      "--base-url: expected a site's address without user name, query or fragment");
}

TEST_F(OutputsTest, ABaselineFailsOnlyOnNewBreakageAndListsWhatWasFixed) {
  temp_.write("site/index.html",
              "<a href=a.html>a</a> <a href=gone1.html>1</a> <a href=gone2.html>2</a>");
  temp_.write("site/a.html", "a");
  EXPECT_EQ(run({"--json", "base.json", "site"}).exit_code, 1);

  // gone1 fixed (no longer linked), gone2 still broken, gone3 new.
  temp_.write("site/index.html",
              "<a href=a.html>a</a> <a href=gone2.html>2</a> <a href=gone3.html>3</a>");
  const auto result = run({"--baseline", "base.json", "--json", "now.json", "-o", "junit:j.xml",
                           "-o", "markdown:m.md", "site"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.out.find("New broken links (1):\n  site/gone3.html 404\n"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("Known broken links (in the baseline) (1):\n  site/gone2.html 404\n"),
            std::string::npos);
  EXPECT_NE(result.out.find("Fixed since the baseline (1):\n  site/gone1.html\n"),
            std::string::npos);
  EXPECT_NE(result.out.find("FAILED: 1 new broken URL (1 known) of 4 checked"), std::string::npos);

  const auto summary = json::parse(read("now.json"));
  EXPECT_EQ(summary.at("broken").as_array().size(), 2u);
  EXPECT_TRUE(testing::text(summary.at("baseline")).ends_with("/base.json"));
  EXPECT_TRUE(testing::text(summary.at("new").at(0)).ends_with("/gone3.html"));
  EXPECT_TRUE(testing::text(summary.at("known").at(0)).ends_with("/gone2.html"));
  EXPECT_EQ(summary.at("fixed"), json::array{"site/gone1.html"});
  EXPECT_EQ(summary.at("passed"), false);

  const auto junit = testing::parse_xml(read("j.xml"));
  std::map<std::string, std::string> outcome;  // test case name: its first child
  for (std::size_t i = 0; i + 1 < junit.size(); ++i) {
    if (junit[i].name == "testcase")
      outcome[junit[i].attributes.at("name")] =
          junit[i + 1].depth > junit[i].depth ? junit[i + 1].name : "passed";
  }
  EXPECT_EQ(outcome["site/gone3.html"], "failure");
  EXPECT_EQ(outcome["site/gone2.html"], "skipped");
  EXPECT_EQ(junit.back().attributes.at("name"), "site/gone1.html");  // the fixed suite's case
  EXPECT_EQ(junit.front().attributes.at("failures"), "1");
  const std::string markdown = read("m.md");
  EXPECT_NE(markdown.find("### New broken links (1)"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("### Known broken links (in the baseline) (1)"), std::string::npos);
  EXPECT_NE(markdown.find("### Fixed since the baseline (1)\n\n- site\\/gone1\\.html"),
            std::string::npos);

  // Only known breakage left: the build passes.
  temp_.write("site/index.html", "<a href=a.html>a</a> <a href=gone2.html>2</a>");
  const auto known_only = run({"--baseline", "base.json", "-o", "github", "site"});
  EXPECT_EQ(known_only.exit_code, 0) << known_only.err;
  EXPECT_TRUE(known_only.out.starts_with("::notice file=site/index.html,")) << known_only.out;
  EXPECT_NE(known_only.err.find("PASSED: 3 URLs checked, nothing new broken (1 known)"),
            std::string::npos)
      << known_only.err;
}

TEST_F(OutputsTest, ABaselineThatCannotBeReadIsAUsageError) {
  temp_.write("site/index.html", "<p>");
  expect_config_error({"--baseline", "missing.json", "site"}, "--baseline: ");
  temp_.write("notes.json", "{\"broken\": []}");
  expect_config_error({"--baseline", "notes.json", "site"},
                      "is not a corocrawl JSON summary (schema corocrawl-summary/1)");
  temp_.write("cut.json", "{\"schema\": \"corocrawl-summary/1\", \"bro");
  expect_config_error({"--baseline", "cut.json", "site"}, "is not JSON");
}

TEST_F(OutputsTest, TheProgressLineIsDrawnOnATerminalAndErased) {
  serve_site_with_a_broken_link();
  const auto shown = run_on(terminal::err, {"--report", "none", server_.url("/")});
  EXPECT_EQ(shown.exit_code, 1);
  EXPECT_TRUE(shown.err.starts_with(std::string(erase_line) + "0 checked, ")) << shown.err;
  // Erased before the log's last line: nothing is left of it on the screen.
  EXPECT_NE(shown.err.rfind(erase_line), std::string::npos);
  EXPECT_EQ(shown.err.find("req/s", shown.err.rfind(erase_line)), std::string::npos);

  const auto never = run_on(terminal::err, {"--progress", "never", server_.url("/")});
  EXPECT_EQ(never.err.find(erase_line), std::string::npos) << never.err;
  const auto piped = run({server_.url("/")});
  EXPECT_EQ(piped.err.find(erase_line), std::string::npos) << piped.err;
  const auto always = run({"--progress", "always", server_.url("/")});
  EXPECT_NE(always.err.find(erase_line), std::string::npos) << always.err;
}

TEST_F(OutputsTest, ColoursOnATerminalUnlessNoColorOrNever) {
  serve_site_with_a_broken_link();
  const auto coloured = run_on(terminal::out, {server_.url("/")});
  EXPECT_NE(coloured.out.find(std::string(red) + "404\x1b[0m"), std::string::npos) << coloured.out;
  EXPECT_NE(coloured.out.find(std::string(red) + "FAILED: "), std::string::npos);

  const auto no_color = run_with_env("NO_COLOR=1", {server_.url("/")}, terminal::out);
  EXPECT_EQ(no_color.exit_code, 1);
  EXPECT_EQ(no_color.out.find("\x1b["), std::string::npos) << no_color.out;
  const auto never = run_on(terminal::out, {"--color", "never", server_.url("/")});
  EXPECT_EQ(never.out.find("\x1b["), std::string::npos) << never.out;
  EXPECT_EQ(run({server_.url("/")}).out.find("\x1b["), std::string::npos);
  EXPECT_NE(run({"--color", "always", server_.url("/")}).out.find(red), std::string::npos);
}

}  // namespace
}  // namespace corocrawl
