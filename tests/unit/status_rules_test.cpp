// Status codes ("200-299,403"), [[rules]] and sitemaps as values, and the status judge
// compiled from them.

#include "corocrawl/status_rules.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "config/status_judge.hpp"
#include "config/value_parsers.hpp"
#include "corocrawl/errors.hpp"

namespace corocrawl {
namespace {

using range = status_codes::range;

/// Runs `f`, which must throw config_error; checks the message is one line and contains
/// every part. Returns the message.
std::string error_of(const std::function<void()>& f,
                     std::initializer_list<std::string_view> parts) {
  try {
    f();
  } catch (const config_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    for (std::string_view part : parts) {
      EXPECT_NE(message.find(part), std::string::npos) << "\"" << part << "\" not in: " << message;
    }
    return message;
  }
  ADD_FAILURE() << "no config_error thrown";
  return {};
}

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

}  // namespace
}  // namespace corocrawl
