// Exclude patterns: ECMAScript syntax searched in URLs, with bounds on what compiles and on how
// long a search may run.

#include "url/url_pattern.hpp"

#include <gtest/gtest.h>

#include <boost/regex.hpp>
#include <string>
#include <thread>
#include <vector>

#include "corocrawl/errors.hpp"

namespace corocrawl {
namespace {

url_pattern compiled(const std::string& pattern) {
  return url_pattern(pattern, "--exclude");
}

// The message of the config_error that compiling `pattern` throws ("" when it compiles).
std::string error_for(const std::string& pattern, std::string_view option = "--exclude") {
  try {
    url_pattern(pattern, option);
  } catch (const config_error& e) {
    return e.what();
  }
  return "";
}

constexpr auto match = search_outcome::match;
constexpr auto no_match = search_outcome::no_match;
constexpr auto gave_up = search_outcome::gave_up;

// ---- syntax and semantics ----------------------------------------------------------------------

TEST(UrlPattern, CompilesEcmaScriptPatterns) {
  const std::vector<std::string> patterns{"a+b", "(?:x|y)\\d{2}", "\\bword\\b"};
  const auto list = compile_patterns(patterns, "--exclude");
  ASSERT_EQ(list.size(), 3U);
  EXPECT_EQ(list[0].text(), "a+b");
  EXPECT_EQ(list[0].search("xaab"), match);
  EXPECT_EQ(list[1].search("y42"), match);
  EXPECT_EQ(list[2].search("swords"), no_match);
  EXPECT_EQ(list[2].search("a word."), match);
}

TEST(UrlPattern, SearchesAnywhereInTheUrl) {
  const auto p = compiled("/private/");
  EXPECT_EQ(p.search("http://example.com/a/private/b"), match);
  EXPECT_EQ(p.search("http://example.com/privately"), no_match);
  EXPECT_EQ(p.search(""), no_match);
}

TEST(UrlPattern, AnchorsMatchAtTheEndsOfTheUrlOnly) {
  EXPECT_EQ(compiled("^https:").search("https://example.com/"), match);
  EXPECT_EQ(compiled("^https:").search("http://example.com/?u=https:"), no_match);
  EXPECT_EQ(compiled("\\.pdf$").search("http://example.com/a.pdf"), match);
  EXPECT_EQ(compiled("\\.pdf$").search("http://example.com/a.pdf?x"), no_match);
  // Not at line breaks either, as in ECMAScript without the m flag.
  EXPECT_EQ(compiled("^b$").search("a\nb\nc"), no_match);
}

TEST(UrlPattern, EcmaScriptFeatures) {
  EXPECT_EQ(compiled("(\\w+)-\\1").search("http://h/ab-ab"), match);  // back-reference
  EXPECT_EQ(compiled("(\\w+)-\\1").search("http://h/ab-cd"), no_match);
  EXPECT_EQ(compiled("/a(?=/b)").search("http://h/a/b"), match);             // lookahead
  EXPECT_EQ(compiled("/a(?!/b)").search("http://h/a/b"), no_match);          // negative
  EXPECT_EQ(compiled("[^/]+\\.png$").search("http://h/i/logo.png"), match);  // classes
  EXPECT_EQ(compiled("x{2,3}?y").search("http://h/xxxy"), match);            // lazy counted
  EXPECT_EQ(compiled("\\x41\\x{42}").search("http://h/AB"), match);          // escapes
  EXPECT_EQ(compiled("/Docs/").search("http://h/docs/"), no_match);          // case-sensitive
  EXPECT_EQ(compiled("(?i)/Docs/").search("http://h/docs/"), match);         // Perl's modifier
}

// ---- what compiles -----------------------------------------------------------------------------

TEST(UrlPattern, InvalidPatternNamesOptionPatternAndProblem) {
  EXPECT_EQ(error_for("a(b"),
            "--exclude: invalid regular expression \"a(b\": Unmatched marking parenthesis ( or "
            "\\(. (at byte 3)");
  EXPECT_TRUE(error_for("[z-a]", "crawl.exclude")
                  .starts_with("crawl.exclude: invalid regular expression \"[z-a]\": "));
  EXPECT_NE(error_for("*a").find("cannot start a regular expression"), std::string::npos);
  EXPECT_EQ(error_for("a\n(").find('\n'), std::string::npos);
}

TEST(UrlPattern, LongInvalidPatternIsShortenedInTheMessage) {
  const std::string pattern = std::string(3000, 'a') + "(";
  const std::string message = error_for(pattern);
  EXPECT_TRUE(message.starts_with("--exclude: invalid regular expression \"aaaa")) << message;
  EXPECT_NE(message.find("... (3001 bytes)\": Unmatched marking parenthesis"), std::string::npos)
      << message;
  EXPECT_LT(message.size(), 200u) << message;
}

TEST(UrlPattern, PatternLengthIsBounded) {
  EXPECT_EQ(error_for(std::string(max_pattern_length, 'a')), "");
  const std::string message = error_for(std::string(max_pattern_length + 1, 'a'));
  EXPECT_TRUE(message.starts_with("--exclude: invalid regular expression \"aaaa")) << message;
  EXPECT_TRUE(message.ends_with("(4097 bytes)\": longer than the 4096 bytes allowed")) << message;
}

TEST(UrlPattern, NestingIsBounded) {
  const auto nested = [](std::size_t depth) {
    return std::string(depth, '(') + "a" + std::string(depth, ')');
  };
  EXPECT_EQ(error_for(nested(max_pattern_nesting)), "");
  EXPECT_EQ(compiled(nested(max_pattern_nesting)).search("http://h/a"), match);
  EXPECT_NE(error_for(nested(max_pattern_nesting + 1)).find(": groups nested more than 50 deep"),
            std::string::npos);
  EXPECT_NE(error_for("(?:(?=" + nested(max_pattern_nesting - 1) + "))").find("nested"),
            std::string::npos);
  // Side by side is not nested; escaped parentheses and those in brackets are not groups.
  std::string side_by_side;
  for (std::size_t i = 0; i < 2 * max_pattern_nesting; ++i)
    side_by_side += "(a)";
  EXPECT_EQ(error_for(side_by_side), "");
  EXPECT_EQ(error_for(std::string(100, '[') + "(]"), "");
  std::string escaped;
  for (int i = 0; i < 100; ++i)
    escaped += "\\(";
  EXPECT_EQ(error_for(escaped), "");
  EXPECT_EQ(error_for("[](]" + nested(max_pattern_nesting)), "");  // "]" first is a literal
  EXPECT_EQ(error_for("[^](]" + nested(max_pattern_nesting)), "");
}

TEST(UrlPattern, DeepNestingIsAConfigErrorNotACrash) {
  // std::regex's compiler recursed once per "(" and overflowed the stack.
  const std::string message = error_for(std::string(50'000, '('));
  EXPECT_TRUE(message.starts_with("--exclude: invalid regular expression \"((((")) << message;
  EXPECT_LT(message.size(), 200u) << message;
}

TEST(UrlPattern, HugeRepetitionCountsAndBackReferencesAreRefused) {
  // Found by fuzzing: such numbers overflow an int in the regex compiler, which then reads
  // "a{4294967297}" as a pattern that matches nothing and "a{1,99999999999999999999}" as text.
  for (const std::string pattern :
       {"a{4294967297}", "a{1,99999999999999999999}", "(a)\\12345678901", "x{0012345678901}"}) {
    EXPECT_NE(error_for(pattern).find("number too large"), std::string::npos) << pattern;
  }
  const std::vector<std::string> fine{"a{9}?", "/p/12345678901234567890", "\\{12345678901\\}"};
  EXPECT_EQ(compile_patterns(fine, "--exclude").size(), 3U);
}

TEST(UrlPattern, PerlRecursionIsRejected) {
  // Not ECMAScript, and each call makes the matcher's steps longer: "(a(?1)?)z" took four
  // minutes on an 8 KiB URL within the step limit.
  for (const std::string pattern : {"(a(?1)?)z", "(a|(?-1)a)z", "(?<n>a(?&n)?)z", "(?R)?a"}) {
    const std::string message = error_for(pattern);
    EXPECT_TRUE(message.starts_with("--exclude: invalid regular expression \"" + pattern + "\": "))
        << message;
  }
  EXPECT_NE(error_for("(a(?1)?)z").find("(?R) and (?1) are not supported"), std::string::npos);
  EXPECT_EQ(error_for("(a)(?(1)b|c)(?-i:d)"), "");  // conditionals and modifiers are fine
}

// ---- how long a search may run -----------------------------------------------------------------

// An 8 KiB URL of the letter "a".
const std::string long_url = "http://example.com/?" + std::string(8000, 'a');

TEST(UrlPattern, CatastrophicBacktrackingGivesUp) {
  for (const std::string pattern : {"(a*)*z", "((a|b)|(a|c))*z", "(a|aa)*z", "(\\w+\\w+)+z",
                                    "(.*a){20}z", "(?=(a*)*z)", "(a+)+\\1z"}) {
    EXPECT_EQ(compiled(pattern).search(long_url), gave_up) << pattern;
    EXPECT_EQ(compiled(pattern).search(long_url + "z"), match) << pattern;
  }
}

TEST(UrlPattern, StepLimitIsLowerThanBoostsOwn) {
  // About 4.5 million steps: within Boost's own limit for a URL this long (9 million), over
  // max_search_steps.
  const std::string url = "http://h/" + std::string(3000, 'a');
  const boost::regex regex(".*a.*b");
  EXPECT_FALSE(boost::regex_search(url, regex));  // Boost's own limit: no throw
  EXPECT_EQ(compiled(".*a.*b").search(url), gave_up);
  EXPECT_EQ(compiled(".*a.*b").search("http://h/" + std::string(300, 'a')), no_match);
}

TEST(UrlPattern, OrdinaryPatternsAnswerOnTheLongestUrls) {
  for (const std::string pattern : {"/api/", "\\.pdf$", "\\?session=", ".*pattern", "[0-9]+x",
                                    "^https?://[^/]+/(a|b|c)/", "(foo|bar|baz)\\d+"}) {
    EXPECT_EQ(compiled(pattern).search(long_url), no_match) << pattern;
  }
  EXPECT_EQ(compiled("a{8000}$").search(long_url), match);
}

TEST(UrlPattern, CopiesSearchFromSeveralThreadsAtOnce) {
  const auto pattern = compiled("(a*)*z");
  std::vector<std::jthread> threads;
  std::vector<search_outcome> outcomes(4);
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    threads.emplace_back(
        [copy = pattern, &outcome = outcomes[i]] { outcome = copy.search(long_url); });
  }
  threads.clear();  // joins
  for (const auto outcome : outcomes)
    EXPECT_EQ(outcome, gave_up);
}

// ---- messages ----------------------------------------------------------------------------------

TEST(ShortenedForMessage, ShortTextIsKeptWithControlsEscaped) {
  EXPECT_EQ(shortened_for_message("a\tb"), "a\\x09b");
  EXPECT_EQ(shortened_for_message(std::string(60, 'x')), std::string(60, 'x'));
}

TEST(ShortenedForMessage, LongTextKeepsItsStartAndLength) {
  EXPECT_EQ(shortened_for_message(std::string(61, 'x')), std::string(60, 'x') + "... (61 bytes)");
  EXPECT_EQ(shortened_for_message("abcdef", 3), "abc... (6 bytes)");
}

TEST(ShortenedForMessage, DoesNotCutACharacterInTwo) {
  // "é" is two bytes; the cut at byte 3 would fall between them.
  EXPECT_EQ(shortened_for_message("ab\xc3\xa9xyz", 3), "ab... (7 bytes)");
}

}  // namespace
}  // namespace corocrawl
