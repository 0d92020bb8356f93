// The checking options: status codes ("200-299,403"), [[rules]], sitemaps and the switches
// external, fragments and robots, from the command line, corocrawl.toml and code, and the
// status judge the crawl plan compiles from them.

#include "corocrawl/status_rules.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "cli.hpp"
#include "config/plan_details.hpp"
#include "config/status_judge.hpp"
#include "config/value_parsers.hpp"
#include "config_error_of.hpp"
#include "corocrawl/config.hpp"
#include "corocrawl/errors.hpp"
#include "corocrawl/plan.hpp"
#include "settings.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
using range = status_codes::range;

using testing::error_of;

// ---- status_codes and parse_status_codes ----------------------------------------------------

TEST(StatusCodes, SortsAndMergesRanges) {
  const status_codes codes{{403, 403}, {200, 299}, {250, 310}, {311, 320}, {404, 404}};
  EXPECT_EQ(codes.ranges(), (std::vector<range>{{200, 320}, {403, 404}}));
  EXPECT_EQ(codes.to_string(), "200-320,403-404");
  EXPECT_TRUE(codes.contains(200));
  EXPECT_TRUE(codes.contains(320));
  EXPECT_TRUE(codes.contains(404));
  EXPECT_FALSE(codes.contains(321));
  EXPECT_FALSE(codes.contains(199));
  EXPECT_FALSE(codes.contains(0));
  EXPECT_EQ(codes, (status_codes{{200, 320}, {403, 404}}));
  EXPECT_TRUE(status_codes{}.empty());
  EXPECT_EQ(status_codes{}.to_string(), "");
  EXPECT_EQ((status_codes{{500, 500}}.to_string()), "500");
}

TEST(StatusCodes, RejectsWhatIsNoStatusCode) {
  error_of([] { status_codes({{99, 200}}); }, {"status codes", "99", "100 to 599"});
  error_of([] { status_codes({{200, 600}}); }, {"status codes", "600"});
  error_of([] { status_codes({{300, 200}}); }, {"status codes", "300-200", "goes down"});
}

TEST(ParseStatusCodes, CodesAndRanges) {
  EXPECT_EQ(parse_status_codes("--accept", "200-299,403"), (status_codes{{200, 299}, {403, 403}}));
  EXPECT_EQ(parse_status_codes("--accept", " 200 - 299 , 403 "),
            (status_codes{{200, 299}, {403, 403}}));
  EXPECT_EQ(parse_status_codes("--accept", "404"), (status_codes{{404, 404}}));
  EXPECT_EQ(parse_status_codes("--accept", "100-599"), (status_codes{{100, 599}}));
  // Repeats and overlaps merge, so equal sets print alike.
  EXPECT_EQ(parse_status_codes("--accept", "403,200-299,403,250-310").to_string(), "200-310,403");
  EXPECT_EQ(parse_status_codes("--accept", "200,201,202").to_string(), "200-202");
}

TEST(ParseStatusCodes, CanonicalTextParsesBackToTheSameCodes) {
  for (const char* text : {"200-399", "200-299,403", "100,599", "301-302,404,500-599"}) {
    const status_codes codes = parse_status_codes("accept", text);
    EXPECT_EQ(codes.to_string(), text);
    EXPECT_EQ(parse_status_codes("accept", codes.to_string()), codes);
  }
}

TEST(ParseStatusCodes, RejectsBadText) {
  EXPECT_EQ(error_of([] { parse_status_codes("--accept", ""); }, {}),
            "--accept: expected status codes such as \"200-299,403\", got \"\"");
  error_of([] { parse_status_codes("--accept", "  "); }, {"--accept", "expected status codes"});
  EXPECT_EQ(error_of([] { parse_status_codes("--accept", "99"); }, {}),
            "--accept: 99 is not an HTTP status code (100 to 599)");
  EXPECT_EQ(error_of([] { parse_status_codes("--accept", "600"); }, {}),
            "--accept: 600 is not an HTTP status code (100 to 599)");
  EXPECT_EQ(error_of([] { parse_status_codes("--accept", "300-200"); }, {}),
            "--accept: the range \"300-200\" goes down (write \"200-300\")");
  EXPECT_EQ(error_of([] { parse_status_codes("--accept", "abc"); }, {}),
            "--accept: expected a status code or a range such as 200-299, got \"abc\"");
  EXPECT_EQ(error_of([] { parse_status_codes("--accept", "200-"); }, {}),
            "--accept: expected a status code or a range such as 200-299, got \"200-\"");
  // An item of several is shown in the whole text.
  EXPECT_EQ(error_of([] { parse_status_codes("warn", "200,,300"); }, {}),
            "warn: expected a status code or a range such as 200-299, got \"\" in \"200,,300\"");
  error_of([] { parse_status_codes("warn", "200,9999"); }, {"warn: 9999 is not", "\"200,9999\""});
  for (const char* bad : {"-200", "200-300-400", "2xx", "+200", "200,", ",200", "1e2",
                          "99999999999999999999", "200 300", "0x190"}) {
    SCOPED_TRACE(bad);
    error_of([&] { parse_status_codes("--warn", bad); }, {"--warn: "});
  }
}

// ---- sitemaps -------------------------------------------------------------------------------

TEST(Sitemaps, RobotsOrAbsoluteHttpUrls) {
  EXPECT_EQ(normalized_sitemap("sitemaps", "robots"), "robots");
  EXPECT_EQ(normalized_sitemap("sitemaps", "HTTPS://Example.COM:443/a/../sitemap.xml"),
            "https://example.com/sitemap.xml");
  EXPECT_EQ(normalized_sitemap("sitemaps", "http://example.com"), "http://example.com/");
  EXPECT_EQ(parse_sitemap("--sitemap", "HTTP://example.com/s.xml"), "HTTP://example.com/s.xml");
  for (const char* bad : {"", "Robots", "example.com/sitemap.xml", "/sitemap.xml",
                          "ftp://example.com/s.xml", "http://", "https://a.test:99999/"}) {
    SCOPED_TRACE(bad);
    error_of([&] { normalized_sitemap("--sitemap", bad); },
             {"--sitemap: expected \"robots\" or an absolute http(s) URL, got "});
  }
  const std::string message =
      error_of([] { normalized_sitemap("sitemaps", "https://alice:secret@a.test/s.xml"); },
               {"sitemaps: ", "user name or password", "https://***@a.test/s.xml"});
  EXPECT_EQ(message.find("secret"), std::string::npos) << message;
  error_of([] { normalized_sitemap("sitemaps", "https://a.test/" + std::string(9000, 'a')); },
           {"sitemaps: ", "8192"});
}

TEST(Sitemaps, PlanHoldsThemNormalised) {
  crawl_options options;
  options.roots = {"https://example.com/"};
  EXPECT_TRUE(make_plan(options).get().sitemap_urls.empty());
  EXPECT_FALSE(make_plan(options).get().sitemaps_from_robots);
  options.sitemaps = {"https://Example.com/sitemap.xml", "robots", "http://b.test",
                      "https://example.com:443/sitemap.xml"};
  const crawl_plan plan = make_plan(options);
  EXPECT_EQ(plan.get().sitemap_urls,
            (std::vector<std::string>{"https://example.com/sitemap.xml", "http://b.test/"}));
  EXPECT_TRUE(plan.get().sitemaps_from_robots);
  EXPECT_EQ(plan.options().sitemaps, options.sitemaps);  // as given

  options.sitemaps = {"robots", "sitemap.xml"};
  error_of([&] { make_plan(options); }, {"sitemaps: ", "\"sitemap.xml\""});
}

// ---- rules ----------------------------------------------------------------------------------

TEST(StatusRules, EachRuleIsChecked) {
  error_of([] { checked_status_rule("rules[1]", {.skip = true}); },
           {"rules[1]: expected match = \"REGEX\""});
  error_of([] { checked_status_rule("rules[2]", {.match = "(", .skip = true}); },
           {"rules[2].match", "\"(\""});
  EXPECT_EQ(error_of([] { checked_status_rule("rules[1]", {.match = "x"}); }, {}),
            "rules[1]: expected accept, warn or skip = true: the rule does nothing");
  error_of(
      [] {
        checked_status_rule("rules[3]",
                            {.match = "x", .accept = status_codes{{200, 200}}, .skip = true});
      },
      {"rules[3]: skip = true goes with neither accept nor warn"});
  error_of([] { checked_status_rule("rules[1]", {.match = "x", .accept = status_codes{}}); },
           {"rules[1].accept: expected at least one status code"});
  checked_status_rule("rules[1]", {.match = "x", .skip = true});
  checked_status_rule("rules[1]", {.match = "x", .warn = status_codes{{403, 403}}});
  checked_status_rule("rules[1]", {.match = "x", .warn = status_codes{}});  // warns of nothing
}

TEST(StatusRules, MakePlanNamesTheRuleFromOne) {
  crawl_options options;
  options.roots = {"https://example.com/"};
  options.rules = {{.match = "a", .skip = true}, {.match = "b"}};
  error_of([&] { make_plan(options); }, {"rules[2]: expected accept, warn or skip"});
  options.rules = {{.match = "a", .skip = true}, {.match = "[", .skip = true}};
  error_of([&] { make_plan(options); }, {"rules[2].match"});
  options.rules.clear();
  options.accept = status_codes{};
  error_of([&] { make_plan(options); }, {"accept: expected at least one status code"});
}

// ---- the judge ------------------------------------------------------------------------------

status_judge judge_of(status_codes accept, status_codes warn, std::vector<status_rule> rules) {
  return status_judge(std::move(accept), std::move(warn), rules);
}

TEST(StatusJudge, DefaultAcceptsTwoAndThreeHundreds) {
  const status_judge judge;
  EXPECT_EQ(judge.judge("https://a.test/", 200), status_verdict::ok);
  EXPECT_EQ(judge.judge("https://a.test/", 204), status_verdict::ok);
  EXPECT_EQ(judge.judge("https://a.test/", 304), status_verdict::ok);
  EXPECT_EQ(judge.judge("https://a.test/", 399), status_verdict::ok);
  EXPECT_EQ(judge.judge("https://a.test/", 400), status_verdict::broken);
  EXPECT_EQ(judge.judge("https://a.test/", 429), status_verdict::broken);
  EXPECT_EQ(judge.judge("https://a.test/", 503), status_verdict::broken);
  EXPECT_EQ(judge.judge("https://a.test/", 199), status_verdict::broken);
  EXPECT_FALSE(judge.skips("https://a.test/"));
  EXPECT_EQ(judge.rules(), 0u);

  // And so does a plan from default options.
  crawl_options options;
  options.roots = {"https://a.test/"};
  const crawl_plan plan = make_plan(options);
  EXPECT_EQ(plan.get().status.judge("https://a.test/x", 302), status_verdict::ok);
  EXPECT_EQ(plan.get().status.judge("https://a.test/x", 404), status_verdict::broken);
}

TEST(StatusJudge, WarnBeatsAccept) {
  const status_judge judge = judge_of({{200, 299}, {403, 403}}, {{403, 404}}, {});
  EXPECT_EQ(judge.judge("https://a.test/", 200), status_verdict::ok);
  EXPECT_EQ(judge.judge("https://a.test/", 403), status_verdict::warning);
  EXPECT_EQ(judge.judge("https://a.test/", 404), status_verdict::warning);
  EXPECT_EQ(judge.judge("https://a.test/", 301), status_verdict::broken);
}

TEST(StatusJudge, FirstMatchingRuleWins) {
  const status_judge judge =
      judge_of({{200, 399}}, {},
               {{.match = "^https://ext\\.test/private/", .skip = true},
                {.match = "^https://ext\\.test/", .accept = status_codes{{200, 299}, {403, 403}}},
                {.match = "ext", .accept = status_codes{{500, 500}}, .skip = false}});
  EXPECT_TRUE(judge.skips("https://ext.test/private/x"));
  EXPECT_FALSE(judge.skips("https://ext.test/public"));
  EXPECT_FALSE(judge.skips("https://a.test/"));
  EXPECT_EQ(judge.judge("https://ext.test/a", 403), status_verdict::ok);
  EXPECT_EQ(judge.judge("https://ext.test/a", 301), status_verdict::broken);  // rule 2's accept
  EXPECT_EQ(judge.judge("https://ext.test/a", 500), status_verdict::broken);  // rule 3 not reached
  EXPECT_EQ(judge.judge("https://next.test/", 500), status_verdict::ok);      // rule 3
  EXPECT_EQ(judge.judge("https://next.test/", 200), status_verdict::broken);
  EXPECT_EQ(judge.judge("https://a.test/", 301), status_verdict::ok);  // no rule: global
  EXPECT_EQ(judge.judge("https://a.test/", 403), status_verdict::broken);
  // A skipped URL judged anyway gets the global meaning: its rule gives no codes.
  EXPECT_EQ(judge.judge("https://ext.test/private/x", 301), status_verdict::ok);
}

TEST(StatusJudge, RulesReplaceOnlyWhatTheyGive) {
  const status_judge judge =
      judge_of({{200, 299}}, {{404, 404}},
               {{.match = "/warn-only/", .warn = status_codes{{403, 403}}},
                {.match = "/accept-only/", .accept = status_codes{{200, 204}, {404, 404}}}});
  // warn replaced, the global accept kept.
  EXPECT_EQ(judge.judge("https://a.test/warn-only/", 403), status_verdict::warning);
  EXPECT_EQ(judge.judge("https://a.test/warn-only/", 404), status_verdict::broken);
  EXPECT_EQ(judge.judge("https://a.test/warn-only/", 250), status_verdict::ok);
  // accept replaced, the global warn kept, and it still wins.
  EXPECT_EQ(judge.judge("https://a.test/accept-only/", 250), status_verdict::broken);
  EXPECT_EQ(judge.judge("https://a.test/accept-only/", 204), status_verdict::ok);
  EXPECT_EQ(judge.judge("https://a.test/accept-only/", 404), status_verdict::warning);

  // An empty warn takes the global warn away.
  const status_judge no_warn =
      judge_of({{200, 299}}, {{404, 404}}, {{.match = "ext", .warn = status_codes{}}});
  EXPECT_EQ(no_warn.judge("https://ext.test/", 404), status_verdict::broken);
  EXPECT_EQ(no_warn.judge("https://a.test/", 404), status_verdict::warning);
}

TEST(StatusJudge, OnlySkipRulesLeaveStatusesToTheGlobalCodes) {
  const status_judge judge = judge_of({{200, 299}}, {}, {{.match = "/x", .skip = true}});
  EXPECT_TRUE(judge.skips("https://a.test/x"));
  EXPECT_EQ(judge.judge("https://a.test/y", 200), status_verdict::ok);
  EXPECT_EQ(judge.judge("https://a.test/y", 302), status_verdict::broken);
}

TEST(StatusJudge, ASearchThatGivesUpIsNoMatch) {
  const std::string url = "https://a.test/" + std::string(8000, 'a');
  const status_judge judge = judge_of(
      {{200, 299}}, {},
      {{.match = "(a*)*z", .skip = true}, {.match = "a", .warn = status_codes{{404, 404}}}});
  EXPECT_FALSE(judge.skips(url));
  EXPECT_EQ(judge.judge(url, 404), status_verdict::warning);
}

// ---- corocrawl.toml -------------------------------------------------------------------------

class CheckingFileTest : public ::testing::Test {
 protected:
  cli::settings apply(std::string_view content) {
    cli::settings s;
    cli::apply_config_file(temp_.write("corocrawl.toml", content), s);
    return s;
  }

  std::string error_for(std::string_view content, std::initializer_list<std::string_view> parts) {
    const fs::path file = temp_.write("corocrawl.toml", content);
    const std::string message = error_of(
        [&] {
          cli::settings s;
          cli::apply_config_file(file, s);
        },
        parts);
    EXPECT_TRUE(message.starts_with(file.string() + ":")) << message;
    return message;
  }

  testing::temp_dir temp_;
};

TEST_F(CheckingFileTest, Defaults) {
  const crawl_options c = apply("").crawl;
  EXPECT_TRUE(c.external);
  EXPECT_TRUE(c.fragments);
  EXPECT_TRUE(c.robots);
  EXPECT_TRUE(c.sitemaps.empty());
  EXPECT_EQ(c.accept, (status_codes{{200, 399}}));
  EXPECT_TRUE(c.warn.empty());
  EXPECT_TRUE(c.rules.empty());
}

TEST_F(CheckingFileTest, SwitchesAndSitemaps) {
  const crawl_options c = apply(
                              "external = false\nfragments = false\nrobots = false\n"
                              "sitemaps = [\"robots\", \"https://a.test/sitemap.xml\"]\n")
                              .crawl;
  EXPECT_FALSE(c.external);
  EXPECT_FALSE(c.fragments);
  EXPECT_FALSE(c.robots);
  EXPECT_EQ(c.sitemaps, (std::vector<std::string>{"robots", "https://a.test/sitemap.xml"}));
  error_for("external = \"no\"\n", {":1: external: expected a boolean, got a string"});
  error_for("sitemaps = \"robots\"\n", {":1: sitemaps: expected an array of strings"});
  error_for("sitemaps = [\"robots\",\n  \"sitemap.xml\"]\n",
            {":2: sitemaps: expected \"robots\" or an absolute http(s) URL, got \"sitemap.xml\""});
}

TEST_F(CheckingFileTest, StatusCodesAsStringOrArray) {
  EXPECT_EQ(apply("accept = \"200-299, 403\"\n").crawl.accept,
            (status_codes{{200, 299}, {403, 403}}));
  EXPECT_EQ(apply("accept = [200, 204, 403]\n").crawl.accept,
            (status_codes{{200, 200}, {204, 204}, {403, 403}}));
  EXPECT_EQ(apply("accept = [\"200-299\", 403, \"500,503\"]\nwarn = [404]\n").crawl.accept,
            (status_codes{{200, 299}, {403, 403}, {500, 500}, {503, 503}}));
  EXPECT_EQ(apply("warn = [404, \"400-403\"]\n").crawl.warn, (status_codes{{400, 404}}));
  EXPECT_TRUE(apply("warn = []\n").crawl.warn.empty());
  // An empty accept reads, but make_plan refuses it.
  cli::settings s = apply("roots = [\"a.test\"]\naccept = []\n");
  EXPECT_TRUE(s.crawl.accept.empty());
  error_of([&] { make_plan(s.crawl); }, {"accept: expected at least one status code"});
}

TEST_F(CheckingFileTest, BadStatusCodes) {
  error_for("accept = 200\n", {":1: accept: expected status codes: a string such as "
                               "\"200-299,403\" or an array, got an integer"});
  error_for("accept = true\n", {":1: accept: expected status codes", "got a boolean"});
  error_for("accept = \"\"\n", {":1: accept: expected status codes such as"});
  error_for("warn = [200,\n  600]\n", {":2: warn: 600 is not an HTTP status code (100 to 599)"});
  error_for("warn = [200, 2.5]\n",
            {":1: warn: expected a status code or a string such as \"200-299\", got a float"});
  error_for("warn = [[200]]\n", {"warn: expected a status code", "got an array"});
  error_for("accept = \"300-200\"\n", {":1: accept: the range \"300-200\" goes down"});
}

TEST_F(CheckingFileTest, Rules) {
  const crawl_options c = apply(R"(
[[rules]]
match = "^https://ext\\.test/"
accept = "200-299,403"

[[rules]]
match = "/slow/"
warn = [503, "500-502"]
accept = [200]

[[rules]]
match = "\\.zip$"
skip = true
)")
                              .crawl;
  ASSERT_EQ(c.rules.size(), 3u);
  EXPECT_EQ(c.rules[0], (status_rule{.match = "^https://ext\\.test/",
                                     .accept = status_codes{{200, 299}, {403, 403}}}));
  EXPECT_EQ(c.rules[1], (status_rule{.match = "/slow/",
                                     .accept = status_codes{{200, 200}},
                                     .warn = status_codes{{500, 503}}}));
  EXPECT_EQ(c.rules[2], (status_rule{.match = "\\.zip$", .skip = true}));
  EXPECT_TRUE(apply("rules = []\n").crawl.rules.empty());
  // The inline form is the same array of tables.
  EXPECT_EQ(apply("rules = [{match = \"x\", skip = true}]\n").crawl.rules,
            (std::vector<status_rule>{{.match = "x", .skip = true}}));
}

TEST_F(CheckingFileTest, BadRules) {
  error_for("[[rules]]\nmatch = \"a\"\nskip = true\n[[rules]]\naccept = \"200\"\n",
            {":4: rules[2]: expected match = \"REGEX\""});
  error_for("[[rules]]\nmatch = \"(\"\nskip = true\n", {"rules[1].match", "\"(\""});
  error_for("[[rules]]\nmatch = \"a\"\nskip = true\nwarn = 404\n",
            {"rules[1].warn: expected status codes"});
  error_for("[[rules]]\nmatch = \"a\"\nskip = true\nwarn = \"404\"\n",
            {":1: rules[1]: skip = true goes with neither accept nor warn"});
  error_for("[[rules]]\nmatch = \"a\"\n", {":1: rules[1]: expected accept, warn or skip = true"});
  error_for("[[rules]]\nmatch = \"a\"\nskip = false\n", {"rules[1]: expected accept, warn or"});
  error_for("[[rules]]\nmatch = \"a\"\nskip = true\n[[rules]]\nmatch = \"b\"\nacept = \"403\"\n",
            {":6: unknown key rules[2].acept (did you mean \"accept\"?)"});
  error_for("[[rules]]\nmatch = \"a\"\nskip = \"yes\"\n",
            {":3: rules[1].skip: expected a boolean, got a string"});
  error_for("[[rules]]\nmatch = 1\nskip = true\n",
            {":2: rules[1].match: expected a string, got an integer"});
  error_for("[[rules]]\nmatch = \"a\"\naccept = \"99\"\n",
            {":3: rules[1].accept: 99 is not an HTTP status code"});
  error_for("rules = \"x\"\n",
            {":1: rules: expected an array of tables ([[rules]]), got a string"});
  error_for("rules = [\"x\"]\n", {":1: rules[1]: expected a table, got a string"});
  error_for("[rules]\nmatch = \"a\"\n", {"rules: expected an array of tables"});
  error_for("[[rule]]\nmatch = \"a\"\n", {"unknown key \"rule\" (did you mean \"rules\"?)"});
}

// ---- the command line -----------------------------------------------------------------------

class CheckingCliTest : public ::testing::Test {
 protected:
  cli::settings parse(const std::vector<std::string>& args) {
    auto result = cli::parse_command_line(args, temp_.path(), {});
    if (auto* s = std::get_if<cli::settings>(&result)) return *s;
    ADD_FAILURE() << "early exit";
    return {};
  }

  std::string error_for(const std::vector<std::string>& args,
                        std::initializer_list<std::string_view> parts) {
    return error_of([&] { cli::parse_command_line(args, temp_.path(), {}); }, parts);
  }

  testing::temp_dir temp_;
};

TEST_F(CheckingCliTest, Flags) {
  const cli::settings s = parse({"--no-external", "--no-fragments", "--ignore-robots", "--sitemap",
                                 "robots", "--sitemap", "https://a.test/s.xml", "--accept",
                                 "200-299, 403", "--warn", "404", "--accept", "200-204", "a.test"});
  EXPECT_FALSE(s.crawl.external);
  EXPECT_FALSE(s.crawl.fragments);
  EXPECT_FALSE(s.crawl.robots);
  EXPECT_EQ(s.crawl.sitemaps, (std::vector<std::string>{"robots", "https://a.test/s.xml"}));
  EXPECT_EQ(s.crawl.accept, (status_codes{{200, 204}}));  // the last one given
  EXPECT_EQ(s.crawl.warn, (status_codes{{404, 404}}));
  ASSERT_TRUE(s.plan);
  EXPECT_EQ(s.plan->get().sitemap_urls, (std::vector<std::string>{"https://a.test/s.xml"}));
  EXPECT_TRUE(s.plan->get().sitemaps_from_robots);
  EXPECT_EQ(s.plan->get().status.judge("http://a.test/", 404), status_verdict::warning);
}

TEST_F(CheckingCliTest, FlagsOverrideTheFile) {
  temp_.write("corocrawl.toml",
              "roots = [\"a.test\"]\naccept = \"200\"\nsitemaps = [\"robots\"]\nexternal = true\n"
              "[[rules]]\nmatch = \"x\"\nskip = true\n");
  const cli::settings s = parse({"--accept", "200-299", "--sitemap", "http://b.test/s.xml"});
  EXPECT_EQ(s.crawl.accept, (status_codes{{200, 299}}));
  EXPECT_EQ(s.crawl.sitemaps, (std::vector<std::string>{"http://b.test/s.xml"}));
  EXPECT_TRUE(s.crawl.external);
  EXPECT_EQ(s.crawl.rules.size(), 1u);
}

TEST_F(CheckingCliTest, BadValues) {
  EXPECT_EQ(error_for({"--accept", "600", "a.test"}, {}),
            "--accept: 600 is not an HTTP status code (100 to 599)");
  EXPECT_EQ(error_for({"--warn", "", "a.test"}, {}),
            "--warn: expected status codes such as \"200-299,403\", got \"\"");
  error_for({"--sitemap", "ftp://a.test/s.xml", "a.test"},
            {"--sitemap: expected \"robots\" or an absolute http(s) URL"});
  error_for({"--rules", "x", "a.test"}, {"--rules"});  // config file only
  error_for({"--external", "a.test"}, {"--external"});
}

}  // namespace
}  // namespace corocrawl
