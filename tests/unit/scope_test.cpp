// Scope: the chapter's host rules (test.py) plus exclusion patterns.

#include "url/scope.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "corocrawl/errors.hpp"

namespace corocrawl {
namespace {

scope make_scope(std::vector<std::string> roots, bool strict = true,
                 std::vector<std::string> exclude = {}) {
  return scope(roots, strict, compile_patterns(exclude, "--exclude"));
}

// ---- ported from the chapter's test.py ----------------------------------------------------------

TEST(Scope, ProhibitedHost) {
  const scope s = make_scope({"http://127.0.0.1:8080/"});
  EXPECT_FALSE(s.allows("http://example.com/"));
  EXPECT_TRUE(s.allows("http://127.0.0.1:8080/foo"));
}

TEST(Scope, StrictHostChecking) {
  const scope s = make_scope({"http://example.com"}, true);
  EXPECT_TRUE(s.allows("http://www.example.com"));
  EXPECT_FALSE(s.allows("http://foo.example.com"));
}

TEST(Scope, LenientHostChecking) {
  const scope s = make_scope({"http://example.com"}, false);
  EXPECT_TRUE(s.allows("http://www.example.com"));
  EXPECT_TRUE(s.allows("http://foo.example.com"));
}

TEST(Scope, Exclude) {
  const scope s = make_scope({"http://example.com"}, true, {".*pattern"});
  EXPECT_TRUE(s.allows("http://example.com"));
  EXPECT_FALSE(s.allows("http://example.com/pattern"));
}

TEST(Scope, Roots) {
  const scope s = make_scope({"http://a", "http://b", "not-a-host"});
  EXPECT_TRUE(s.allows("http://a/a"));
  EXPECT_TRUE(s.allows("http://b/b"));
  EXPECT_FALSE(s.allows("http://c/c"));
  EXPECT_FALSE(s.allows("http://127.0.0.1"));
}

TEST(Scope, DeepRoot) {
  const scope s = make_scope({"http://a/a#fragment"});
  EXPECT_TRUE(s.allows("http://a/b"));
}

TEST(Scope, NonHttp) {
  const scope s = make_scope({"http://example.com"});
  EXPECT_FALSE(s.allows("ftp://example.com"));
  EXPECT_FALSE(s.allows("ftp://example.com/"));
  EXPECT_FALSE(s.allows("mailto:someone@example.com"));
  EXPECT_FALSE(s.allows("javascript:void(0)"));
  EXPECT_FALSE(s.allows("file:///etc/passwd"));
}

// ---- strict rule
// ---------------------------------------------------------------------------------

TEST(Scope, StrictAcceptsRootWithoutWww) {
  const scope s = make_scope({"http://www.example.com/"});
  EXPECT_TRUE(s.host_allowed("www.example.com"));
  EXPECT_TRUE(s.host_allowed("example.com"));
  EXPECT_FALSE(s.host_allowed("foo.example.com"));
  EXPECT_FALSE(s.host_allowed("www.foo.example.com"));
}

TEST(Scope, StrictRemovesOneLeadingWww) {
  // The chapter's rule: equal after removing (or adding) one leading "www.".
  const scope s = make_scope({"http://www.example.com/"});
  EXPECT_TRUE(s.host_allowed("www.www.example.com"));
  EXPECT_FALSE(s.host_allowed("www.www.www.example.com"));
}

TEST(Scope, StrictRejectsOtherDomains) {
  const scope s = make_scope({"http://example.com/"});
  EXPECT_FALSE(s.host_allowed("example.org"));
  EXPECT_FALSE(s.host_allowed("notexample.com"));
  EXPECT_FALSE(s.host_allowed("example.com.evil.org"));
  EXPECT_FALSE(s.host_allowed("com"));
  EXPECT_FALSE(s.host_allowed(""));
}

// ---- lenient rule
// --------------------------------------------------------------------------------

TEST(Scope, LenientComparesLastTwoLabels) {
  const scope s = make_scope({"http://docs.example.com/"}, false);
  EXPECT_TRUE(s.host_allowed("example.com"));
  EXPECT_TRUE(s.host_allowed("a.b.example.com"));
  EXPECT_FALSE(s.host_allowed("example.org"));
  EXPECT_FALSE(s.host_allowed("badexample.com"));
}

TEST(Scope, LenientLabelsAreNotConcatenated) {
  // crawling.py joined the labels without a dot, so "ab.c" matched "a.bc".
  const scope s = make_scope({"http://a.bc/"}, false);
  EXPECT_FALSE(s.host_allowed("ab.c"));
  EXPECT_TRUE(s.host_allowed("x.a.bc"));
}

TEST(Scope, LenientSingleLabelRoot) {
  const scope s = make_scope({"http://localhost:8000/"}, false);
  EXPECT_TRUE(s.host_allowed("localhost"));
  EXPECT_FALSE(s.host_allowed("x.localhost"));
  EXPECT_FALSE(s.host_allowed("other"));
}

// ---- IP literals -------------------------------------------------------------------------------

TEST(Scope, Ipv4MatchesOnlyLiterally) {
  for (const bool strict : {true, false}) {
    const scope s = make_scope({"http://127.0.0.1:8080/"}, strict);
    EXPECT_TRUE(s.host_allowed("127.0.0.1")) << strict;
    EXPECT_FALSE(s.host_allowed("www.127.0.0.1")) << strict;
    EXPECT_FALSE(s.host_allowed("10.0.0.1")) << strict;
    EXPECT_FALSE(s.host_allowed("1.0.0.1")) << strict;
    EXPECT_FALSE(s.host_allowed("0.1")) << strict;
  }
}

TEST(Scope, LenientNameDoesNotMatchIpRootByLastLabels) {
  const scope s = make_scope({"http://1.2/"}, false);
  EXPECT_TRUE(s.host_allowed("1.2"));
  EXPECT_FALSE(s.host_allowed("x.1.2"));
}

TEST(Scope, WwwIpRootDoesNotAllowTheIp) {
  const scope s = make_scope({"http://www.10.0.0.1/"});
  EXPECT_FALSE(s.host_allowed("10.0.0.1"));
}

TEST(Scope, Ipv6MatchesOnlyLiterally) {
  for (const bool strict : {true, false}) {
    const scope s = make_scope({"http://[::1]:8080/"}, strict);
    EXPECT_TRUE(s.allows("http://[::1]/x")) << strict;
    EXPECT_TRUE(s.allows("https://[::1]:9/")) << strict;
    EXPECT_TRUE(s.host_allowed("::1")) << strict;
    EXPECT_TRUE(s.host_allowed("[::1]")) << strict;
    EXPECT_FALSE(s.host_allowed("::2")) << strict;
    EXPECT_FALSE(s.allows("http://[::2]/")) << strict;
  }
}

TEST(Scope, Ipv6IsCaseInsensitive) {
  const scope s = make_scope({"http://[FE80::1]/"});
  EXPECT_TRUE(s.host_allowed("fe80::1"));
  EXPECT_TRUE(s.allows("http://[fe80::1]/"));
}

TEST(Scope, IpRootDoesNotAllowNames) {
  const scope s = make_scope({"http://127.0.0.1/"}, false);
  EXPECT_FALSE(s.host_allowed("localhost"));
  EXPECT_FALSE(s.allows("http://example.com/"));
}

// ---- case, ports, schemes ----------------------------------------------------------------------

TEST(Scope, HostsAreCaseInsensitive) {
  const scope s = make_scope({"http://Example.COM/"});
  EXPECT_TRUE(s.host_allowed("example.com"));
  EXPECT_TRUE(s.host_allowed("EXAMPLE.com"));
  EXPECT_TRUE(s.host_allowed("WWW.Example.Com"));
  EXPECT_TRUE(s.allows("http://EXAMPLE.COM/Path"));
}

TEST(Scope, PortsAndSchemesDoNotMatterForTheHost) {
  const scope s = make_scope({"http://example.com:8080/"});
  EXPECT_TRUE(s.allows("http://example.com/"));
  EXPECT_TRUE(s.allows("https://example.com:9443/x"));
}

TEST(Scope, TrailingDotIsTheSameHost) {
  const scope s = make_scope({"http://example.com./"}, false);
  EXPECT_TRUE(s.host_allowed("example.com"));
  EXPECT_TRUE(s.host_allowed("www.example.com."));
}

TEST(Scope, NoRootsAllowNothing) {
  const scope s = make_scope({});
  EXPECT_FALSE(s.allows("http://example.com/"));
  EXPECT_FALSE(s.host_allowed("example.com"));
}

TEST(Scope, HostlessRootsAreIgnored) {
  const scope s = make_scope({"mailto:x@example.com", "/relative", "http:no-host", "file:///x"});
  EXPECT_FALSE(s.allows("http://example.com/"));
  EXPECT_FALSE(s.host_allowed(""));
}

TEST(Scope, UrlsWithoutHostAreNotAllowed) {
  const scope s = make_scope({"http://example.com/"});
  EXPECT_FALSE(s.allows("http:/x"));
  EXPECT_FALSE(s.allows("/x"));
  EXPECT_FALSE(s.allows(""));
  EXPECT_FALSE(s.allows("not a url"));
}

// ---- exclusion
// -----------------------------------------------------------------------------------

TEST(Scope, ExcludeSearchesNotMatches) {
  const scope s = make_scope({"http://example.com/"}, true, {"\\.pdf$", "/private/"});
  EXPECT_TRUE(s.excluded("http://example.com/doc.pdf"));
  EXPECT_TRUE(s.excluded("http://example.com/a/private/b"));
  EXPECT_FALSE(s.excluded("http://example.com/doc.pdf.html"));
  EXPECT_FALSE(s.excluded("http://example.com/privately"));
  EXPECT_FALSE(s.allows("http://example.com/doc.pdf"));
  EXPECT_TRUE(s.allows("http://example.com/doc.html"));
}

TEST(Scope, ExcludeAppliesToWholeUrl) {
  const scope s = make_scope({"http://example.com/"}, true, {"^https:"});
  EXPECT_TRUE(s.allows("http://example.com/"));
  EXPECT_FALSE(s.allows("https://example.com/"));
}

TEST(Scope, ExcludedDoesNotCareAboutHosts) {
  const scope s = make_scope({"http://example.com/"}, true, {"x"});
  EXPECT_TRUE(s.excluded("http://other.org/x"));
  EXPECT_FALSE(s.excluded("http://other.org/y"));
}

TEST(Scope, NoPatternsExcludeNothing) {
  const scope s = make_scope({"http://example.com/"});
  EXPECT_FALSE(s.excluded("http://example.com/anything"));
}

// ---- hostile patterns and URLs ----------------------------------------------------------------

// An 8 KiB URL of the letter "a", without a "z".
const std::string hostile_url = "http://example.com/?" + std::string(8000, 'a');

TEST(Scope, PatternThatRecursedPerCharacterDoesNotCrash) {
  // std::regex's matcher recursed once per character here and overflowed the stack.
  const scope s = make_scope({"http://example.com"}, true, {"((a|b)|(a|c))*z"});
  EXPECT_TRUE(s.allows(hostile_url));  // gave up: not excluded
  EXPECT_FALSE(s.allows(hostile_url + "z"));
}

TEST(Scope, CatastrophicBacktrackingGivesUpAndDoesNotExclude) {
  // Exponential for a backtracking matcher: std::regex ran for minutes.
  const scope s = make_scope({"http://example.com"}, true, {"(a*)*z"});
  EXPECT_TRUE(s.allows(hostile_url));
  EXPECT_TRUE(s.allows(hostile_url));  // the same URL again
  EXPECT_TRUE(s.excluded("http://example.com/?aaaaz"));
  EXPECT_TRUE(s.excluded(hostile_url + "z"));  // found at once, whatever the length
}

TEST(Scope, AUrlAPatternGaveUpOnIsNotSearchedAgain) {
  const scope s = make_scope({"http://example.com"}, true, {"(a*)*z", "((a|b)|(a|c))*z"});
  EXPECT_EQ(s.give_ups(), 0u);
  EXPECT_FALSE(s.excluded(hostile_url));
  EXPECT_EQ(s.give_ups(), 2u);  // one per pattern
  EXPECT_FALSE(s.excluded(hostile_url));
  EXPECT_EQ(s.give_ups(), 2u);
  EXPECT_FALSE(s.excluded(hostile_url + "b"));
  EXPECT_EQ(s.give_ups(), 4u);
  EXPECT_FALSE(s.excluded("http://example.com/short"));
  EXPECT_EQ(s.give_ups(), 4u);
}

TEST(Scope, OtherPatternsStillExcludeWhenOneGivesUp) {
  const scope s = make_scope({"http://example.com"}, true, {"(a*)*z", "\\?a{100}"});
  EXPECT_TRUE(s.excluded(hostile_url));
  EXPECT_FALSE(s.excluded("http://example.com/b"));
}

// ---- compile_patterns --------------------------------------------------------------------------

TEST(Scope, UrlsLongerThanTheLimitAreNotAllowed) {
  // Servers refuse request lines this long (414); the limit also bounds every pattern search.
  const scope s = make_scope({"http://example.com"}, true, {".*pattern"});
  const std::string base = "http://example.com/";
  EXPECT_TRUE(s.allows(base + std::string(max_url_length - base.size(), 'x')));
  EXPECT_FALSE(s.allows(base + std::string(max_url_length - base.size() + 1, 'x')));
  EXPECT_FALSE(s.allows(base + std::string(100 * 1024, 'x')));
}

TEST(CompilePatterns, EmptyListGivesNoPatterns) {
  EXPECT_TRUE(compile_patterns({}, "--exclude").empty());
}

TEST(CompilePatterns, BadRegexNamesOptionAndPattern) {
  const std::vector<std::string> patterns{"ok", "a(b"};
  try {
    compile_patterns(patterns, "--exclude");
    FAIL() << "no config_error";
  } catch (const config_error& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with("--exclude: invalid regular expression \"a(b\": ")) << message;
    EXPECT_GT(message.size(),
              std::string("--exclude: invalid regular expression \"a(b\": ").size());
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(CompilePatterns, UsesTheGivenOptionName) {
  const std::vector<std::string> patterns{"[z-a]"};
  try {
    compile_patterns(patterns, "crawl.exclude");
    FAIL() << "no config_error";
  } catch (const config_error& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("crawl.exclude: invalid regular expression"))
        << e.what();
  }
}

TEST(CompilePatterns, MessageStaysOnOneLine) {
  const std::vector<std::string> patterns{"a\n("};
  try {
    compile_patterns(patterns, "--exclude");
    FAIL() << "no config_error";
  } catch (const config_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_NE(message.find("\"a\\x0a(\""), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace corocrawl
