// robots.txt parsing and matching (RFC 9309), with the RFC's own examples and the readings
// Google's parser gives where the RFC leaves room.

#include "robots/robots_txt.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace corocrawl {
namespace {

constexpr std::string_view kAgent = "corocrawl";

robots_rules parse_robots(std::string_view text, std::string_view agent = kAgent) {
  return robots_rules::parse(text, agent);
}

// ---- RFC 9309 examples ---------------------------------------------------------------------

// RFC 9309 5.1.
constexpr std::string_view kRfcExample =
    "User-Agent: *\n"
    "Disallow: *.gif$\n"
    "Disallow: /example/\n"
    "Allow: /publications/\n"
    "\n"
    "User-Agent: foobot\n"
    "Disallow:/\n"
    "Allow:/example/page.html\n"
    "Allow:/example/allowed.gif\n"
    "\n"
    "User-Agent: barbot\n"
    "User-Agent: bazbot\n"
    "Disallow: /example/page.html\n"
    "\n"
    "User-Agent: quxbot\n"
    "\n"
    "EOF\n";

TEST(RobotsTxt, RfcExampleForAnOtherCrawler) {
  const auto rules = parse_robots(kRfcExample, "otherbot");
  EXPECT_FALSE(rules.allows("/images/a.gif"));
  EXPECT_TRUE(rules.allows("/images/a.gif?x=1"));  // "$": the target must end there
  EXPECT_FALSE(rules.allows("/example/"));
  EXPECT_FALSE(rules.allows("/example/page.html"));
  EXPECT_TRUE(rules.allows("/example"));
  EXPECT_TRUE(rules.allows("/publications/"));
  EXPECT_TRUE(rules.allows("/"));
}

TEST(RobotsTxt, RfcExampleForFoobot) {
  const auto rules = parse_robots(kRfcExample, "foobot");
  EXPECT_FALSE(rules.allows("/"));
  EXPECT_FALSE(rules.allows("/publications/"));
  EXPECT_TRUE(rules.allows("/example/page.html"));
  EXPECT_TRUE(rules.allows("/example/allowed.gif"));
  EXPECT_FALSE(rules.allows("/example/other.gif"));
}

TEST(RobotsTxt, RfcExampleForBarbotAndBazbot) {
  for (const std::string_view agent : {"barbot", "bazbot"}) {
    const auto rules = parse_robots(kRfcExample, agent);
    EXPECT_FALSE(rules.allows("/example/page.html")) << agent;
    EXPECT_TRUE(rules.allows("/example/other.html")) << agent;
    EXPECT_TRUE(rules.allows("/a.gif")) << agent;  // the "*" group is not theirs
  }
}

TEST(RobotsTxt, RfcExampleForQuxbotWhoseGroupIsEmpty) {
  const auto rules = parse_robots(kRfcExample, "quxbot");
  EXPECT_TRUE(rules.allows("/example/page.html"));
  EXPECT_TRUE(rules.allows("/a.gif"));
  EXPECT_EQ(rules.deciding_rule("/a.gif"), std::nullopt);
}

// RFC 9309 5.2.
TEST(RobotsTxt, RfcLongestMatch) {
  const auto rules = parse_robots(
      "User-Agent: foobot\n"
      "Allow: /example/page/\n"
      "Disallow: /example/page/disallowed.gif\n",
      "foobot");
  EXPECT_TRUE(rules.allows("/example/page/"));
  EXPECT_TRUE(rules.allows("/example/page/allowed.gif"));
  EXPECT_FALSE(rules.allows("/example/page/disallowed.gif"));
  EXPECT_EQ(rules.deciding_rule("/example/page/disallowed.gif"),
            "Disallow: /example/page/disallowed.gif");
  EXPECT_EQ(rules.deciding_rule("/example/page/x"), "Allow: /example/page/");
  EXPECT_EQ(rules.deciding_rule("/elsewhere"), std::nullopt);
}

// RFC 9309 2.2.1: the groups for one crawler are merged.
TEST(RobotsTxt, RfcMergedGroups) {
  const auto rules = parse_robots(
      "user-agent: ExampleBot\n"
      "disallow: /foo\n"
      "disallow: /bar\n"
      "\n"
      "user-agent: ExampleBot\n"
      "disallow: /baz\n",
      "ExampleBot");
  EXPECT_FALSE(rules.allows("/foo"));
  EXPECT_FALSE(rules.allows("/bar"));
  EXPECT_FALSE(rules.allows("/baz"));
  EXPECT_TRUE(rules.allows("/qux"));
}

// RFC 9309 2.2.3: "%2A" and "%24" stand for literal '*' and '$'.
TEST(RobotsTxt, RfcPercentEncodedSpecialCharacters) {
  const auto rules = parse_robots(
      "User-agent: *\n"
      "Disallow: /path/file-with-a-%2A.html\n"
      "Disallow: /path/foo-%24\n");
  EXPECT_FALSE(rules.allows("/path/file-with-a-*.html"));
  EXPECT_FALSE(rules.allows("/path/file-with-a-%2a.html"));
  EXPECT_TRUE(rules.allows("/path/file-with-a-x.html"));  // not a wildcard
  EXPECT_FALSE(rules.allows("/path/foo-$"));
  EXPECT_FALSE(rules.allows("/path/foo-%24"));
  EXPECT_TRUE(rules.allows("/path/foo-"));  // not an anchor
}

// ---- Group selection -----------------------------------------------------------------------

TEST(RobotsTxt, NoRobotsTxtAllowsEverything) {
  const robots_rules rules;
  EXPECT_TRUE(rules.allows("/"));
  EXPECT_TRUE(rules.allows("/anything?at=all"));
  EXPECT_TRUE(rules.sitemaps().empty());
  EXPECT_EQ(rules.deciding_rule("/"), std::nullopt);
  EXPECT_TRUE(parse_robots("").allows("/"));
}

TEST(RobotsTxt, OwnGroupIsChosenOverTheGlobalOne) {
  const auto rules = parse_robots(
      "User-agent: *\n"
      "Disallow: /\n"
      "\n"
      "User-agent: corocrawl\n"
      "Disallow: /private\n");
  EXPECT_TRUE(rules.allows("/public"));
  EXPECT_FALSE(rules.allows("/private/x"));
}

TEST(RobotsTxt, AgentIsMatchedIgnoringCase) {
  constexpr std::string_view text = "User-agent: CoroCrawl\nDisallow: /x\n";
  EXPECT_FALSE(parse_robots(text, "corocrawl").allows("/x"));
  EXPECT_FALSE(parse_robots(text, "COROCRAWL").allows("/x"));
  EXPECT_TRUE(parse_robots(text, "otherbot").allows("/x"));
}

TEST(RobotsTxt, ProductTokenIsTheLeadingNameOfTheValue) {
  EXPECT_FALSE(parse_robots("User-agent: corocrawl/1.0\nDisallow: /x\n").allows("/x"));
  EXPECT_FALSE(
      parse_robots("User-agent: corocrawl (+https://example.com)\nDisallow: /x\n").allows("/x"));
  // Only an equal token counts, not a prefix or a longer name.
  EXPECT_TRUE(parse_robots("User-agent: coro\nDisallow: /x\n").allows("/x"));
  EXPECT_TRUE(parse_robots("User-agent: corocrawler\nDisallow: /x\n").allows("/x"));
  EXPECT_TRUE(parse_robots("User-agent: Mozilla corocrawl\nDisallow: /x\n").allows("/x"));
  // The crawler's own name may carry a version too.
  EXPECT_FALSE(parse_robots("User-agent: corocrawl\nDisallow: /x\n", "corocrawl/2.1").allows("/x"));
  EXPECT_FALSE(parse_robots("User-agent: my_bot-2\nDisallow: /x\n", "my_bot-").allows("/x"));
}

TEST(RobotsTxt, GlobalAgentForms) {
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /x\n").allows("/x"));
  EXPECT_FALSE(parse_robots("User-agent:*\nDisallow: /x\n").allows("/x"));
  EXPECT_FALSE(parse_robots("User-agent: * # everyone\nDisallow: /x\n").allows("/x"));
  EXPECT_FALSE(parse_robots("User-agent: * all bots\nDisallow: /x\n").allows("/x"));
  EXPECT_TRUE(parse_robots("User-agent: *bot\nDisallow: /x\n").allows("/x"));
}

TEST(RobotsTxt, GlobalGroupsAreMergedToo) {
  const auto rules = parse_robots(
      "User-agent: *\nDisallow: /a\n\n"
      "User-agent: otherbot\nDisallow: /b\n\n"
      "User-agent: *\nDisallow: /c\n");
  EXPECT_FALSE(rules.allows("/a"));
  EXPECT_TRUE(rules.allows("/b"));
  EXPECT_FALSE(rules.allows("/c"));
}

TEST(RobotsTxt, NoGroupForTheCrawlerOrForAllAllowsEverything) {
  const auto rules = parse_robots("User-agent: otherbot\nDisallow: /\n");
  EXPECT_TRUE(rules.allows("/"));
  EXPECT_TRUE(rules.allows("/x"));
}

TEST(RobotsTxt, OwnGroupWithoutRulesAllowsEverythingDespiteTheGlobalOne) {
  const auto rules = parse_robots(
      "User-agent: *\nDisallow: /\n\n"
      "User-agent: corocrawl\n");
  EXPECT_TRUE(rules.allows("/x"));
}

TEST(RobotsTxt, UserAgentLinesInARowShareTheirGroup) {
  const auto rules = parse_robots(
      "User-agent: otherbot\n"
      "\n"
      "User-agent: corocrawl\n"
      "# a comment\n"
      "User-agent: thirdbot\n"
      "Disallow: /shared\n"
      "User-agent: fourthbot\n"
      "Disallow: /fourth\n");
  EXPECT_FALSE(rules.allows("/shared"));
  EXPECT_TRUE(rules.allows("/fourth"));  // a rule ended the run: a new group began
}

TEST(RobotsTxt, AGroupForBothTheCrawlerAndAll) {
  const auto rules = parse_robots("User-agent: *\nUser-agent: corocrawl\nDisallow: /x\n");
  EXPECT_FALSE(rules.allows("/x"));
  EXPECT_FALSE(
      parse_robots("User-agent: *\nUser-agent: corocrawl\nDisallow: /x\n", "other").allows("/x"));
}

TEST(RobotsTxt, OtherKeysEndARunOfUserAgentLines) {
  // As Google's parser reads it: crawl-delay is a line of otherbot's group, so corocrawl
  // starts a group of its own.
  const auto rules = parse_robots(
      "User-agent: otherbot\n"
      "Crawl-delay: 5\n"
      "User-agent: corocrawl\n"
      "Disallow: /mine\n"
      "User-agent: otherbot\n"
      "Disallow: /theirs\n");
  EXPECT_FALSE(rules.allows("/mine"));
  EXPECT_TRUE(rules.allows("/theirs"));
}

TEST(RobotsTxt, RulesBeforeAnyUserAgentAreIgnored) {
  const auto rules = parse_robots("Disallow: /\nAllow: /x\n\nUser-agent: *\nDisallow: /y\n");
  EXPECT_TRUE(rules.allows("/"));
  EXPECT_TRUE(rules.allows("/z"));
  EXPECT_FALSE(rules.allows("/y"));
  EXPECT_TRUE(parse_robots("Disallow: /\n").allows("/x"));
}

// ---- Lines, keys and values ----------------------------------------------------------------

TEST(RobotsTxt, KeysIgnoreCaseAndWhitespaceAroundKeysAndValues) {
  const auto rules = parse_robots(
      "  USER-AGENT  :  corocrawl  \n"
      "\tdisALLOW\t:\t/a\t\n"
      "ALLOW:/a/b\n"
      "  Disallow :/c   # why not\n");
  EXPECT_FALSE(rules.allows("/a"));
  EXPECT_TRUE(rules.allows("/a/b"));
  EXPECT_FALSE(rules.allows("/c"));
  EXPECT_EQ(rules.deciding_rule("/c/d"), "Disallow: /c");
}

TEST(RobotsTxt, CommentsAndMalformedLinesAreSkipped) {
  const auto rules = parse_robots(
      "# User-agent: *\n"
      "User-agent: * # Disallow: /\n"
      "Disallow /no-colon\n"
      "Disallow: /x#y\n"
      ": /empty-key\n"
      "Disalow: /typo\n"
      "Crawl-delay: 10\n"
      "Host: example.com\n");
  EXPECT_TRUE(rules.allows("/"));
  EXPECT_TRUE(rules.allows("/no-colon"));
  EXPECT_FALSE(rules.allows("/x"));  // the rule is "/x"
  EXPECT_TRUE(rules.allows("/empty-key"));
  EXPECT_TRUE(rules.allows("/typo"));
}

TEST(RobotsTxt, EmptyValuesAreIgnored) {
  const auto rules = parse_robots(
      "User-agent: *\n"
      "Disallow: /private/\n"
      "Allow: /private/open\n"
      "Disallow:\n"
      "Allow:\n");
  EXPECT_TRUE(rules.allows("/"));
  EXPECT_FALSE(rules.allows("/private/x"));
  EXPECT_TRUE(rules.allows("/private/open"));
  EXPECT_TRUE(parse_robots("User-agent: *\nDisallow:\n").allows("/x"));
  EXPECT_TRUE(parse_robots("User-agent: *\nDisallow:  # nothing\n").allows("/x"));
}

TEST(RobotsTxt, PatternsStartingWithNeitherSlashNorStarNeverMatch) {
  // Google's matcher anchors a pattern at the start of the path, which begins with '/': such
  // a pattern matches nothing, so it is dropped rather than read as "/fish".
  const auto rules = parse_robots("User-agent: *\nDisallow: fish\nDisallow: $\nDisallow: ?q\n");
  EXPECT_TRUE(rules.allows("/fish"));
  EXPECT_TRUE(rules.allows("fish"));
  EXPECT_TRUE(rules.allows("/"));
  EXPECT_TRUE(rules.allows("/?q"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: *fish\n").allows("/a/fish"));
}

TEST(RobotsTxt, LineEndings) {
  for (const std::string_view text : {
           "User-agent: *\nDisallow: /a\nAllow: /a/b\n",
           "User-agent: *\r\nDisallow: /a\r\nAllow: /a/b\r\n",
           "User-agent: *\rDisallow: /a\rAllow: /a/b\r",
           "User-agent: *\r\n\r\nDisallow: /a\n\rAllow: /a/b",
       }) {
    const auto rules = parse_robots(text);
    EXPECT_FALSE(rules.allows("/a")) << text;
    EXPECT_TRUE(rules.allows("/a/b")) << text;
    EXPECT_EQ(rules.deciding_rule("/a/b/c"), "Allow: /a/b") << text;
  }
}

TEST(RobotsTxt, ByteOrderMarkIsSkipped) {
  const auto rules = parse_robots("\xEF\xBB\xBFUser-agent: *\r\nDisallow: /a\r\n");
  EXPECT_FALSE(rules.allows("/a"));
  // Only at the very start.
  EXPECT_TRUE(parse_robots("\n\xEF\xBB\xBFUser-agent: *\nDisallow: /a\n").allows("/a"));
}

TEST(RobotsTxt, ReadsOnlyTheFirst500KiB) {
  std::string text = "User-agent: *\nDisallow: /early\n";
  // A comment filling the rest of the 500 KiB exactly, then a rule past the limit.
  text += "#" + std::string(max_robots_txt_size - text.size() - 2, 'y') + "\n";
  ASSERT_EQ(text.size(), max_robots_txt_size);
  EXPECT_FALSE(parse_robots(text + "Disallow: /late\n").allows("/early"));
  EXPECT_TRUE(parse_robots(text + "Disallow: /late\n").allows("/late"));

  // A line the limit cuts in two is not read either, lest it read as a shorter pattern.
  std::string cut = text.substr(0, text.size() - 20) + "\n";
  cut += "Disallow: /abcdefghijklmnopqrstuvwxyz\n";
  ASSERT_GT(cut.size(), max_robots_txt_size);
  EXPECT_TRUE(parse_robots(cut).allows("/abc"));
  EXPECT_TRUE(parse_robots(cut).allows("/abcdefghijklmnopqrstuvwxyz"));
  EXPECT_FALSE(parse_robots(cut).allows("/early"));

  // The limit falling on a line end keeps the line before it.
  std::string exact = text.substr(0, text.size() - 20) + "\n";
  exact += "Disallow: /q";
  exact.resize(max_robots_txt_size, 'q');
  const std::string last_rule = exact.substr(exact.rfind('/'));  // "/qqqq..."
  EXPECT_FALSE(parse_robots(exact + "\nDisallow: /late\n").allows(last_rule));
  EXPECT_FALSE(parse_robots(exact + "\nDisallow: /late\n").allows(last_rule + "q"));
  EXPECT_TRUE(parse_robots(exact + "\nDisallow: /late\n").allows("/late"));
}

TEST(RobotsTxt, BinaryGarbageParsesToSomething) {
  std::string garbage;
  unsigned state = 12345;
  for (int i = 0; i < 100000; ++i) {
    state = state * 1103515245 + 12345;
    garbage += static_cast<char>(state >> 16);
  }
  const auto rules = parse_robots(garbage);
  EXPECT_TRUE(rules.allows("/robots.txt"));
  (void)rules.allows("/");
  const auto with_nul = parse_robots(std::string("User-agent: *\nDisallow: /a\0b\n", 29));
  EXPECT_FALSE(with_nul.allows(std::string("/a\0b", 4)));
  EXPECT_FALSE(with_nul.allows("/a%00b"));
  EXPECT_TRUE(with_nul.allows("/a"));
}

// ---- Matching ------------------------------------------------------------------------------

TEST(RobotsTxt, PatternsArePrefixes) {
  const auto rules = parse_robots("User-agent: *\nDisallow: /fish\n");
  EXPECT_FALSE(rules.allows("/fish"));
  EXPECT_FALSE(rules.allows("/fish.html"));
  EXPECT_FALSE(rules.allows("/fish/salmon.html"));
  EXPECT_FALSE(rules.allows("/fishheads"));
  EXPECT_FALSE(rules.allows("/fish.php?id=anything"));
  EXPECT_TRUE(rules.allows("/Fish.asp"));  // paths are case-sensitive
  EXPECT_TRUE(rules.allows("/catfish"));
  EXPECT_TRUE(rules.allows("/?id=fish"));
}

TEST(RobotsTxt, LongestMatchWinsWhateverTheOrder) {
  for (const std::string_view text : {
           "User-agent: *\nAllow: /p\nDisallow: /\n",
           "User-agent: *\nDisallow: /\nAllow: /p\n",
       }) {
    const auto rules = parse_robots(text);
    EXPECT_TRUE(rules.allows("/page")) << text;
    EXPECT_FALSE(rules.allows("/other")) << text;
  }
  const auto rules = parse_robots("User-agent: *\nAllow: /folder/*\nDisallow: /folder/private\n");
  EXPECT_FALSE(rules.allows("/folder/private.html"));
  EXPECT_TRUE(rules.allows("/folder/public.html"));
}

TEST(RobotsTxt, AllowWinsATie) {
  for (const std::string_view text : {
           "User-agent: *\nAllow: /folder\nDisallow: /folder\n",
           "User-agent: *\nDisallow: /folder\nAllow: /folder\n",
           "User-agent: *\nDisallow: /folde*\nAllow: /folder\n",
           "User-agent: *\nDisallow: /folder\nAllow: /*older\n",
       }) {
    const auto rules = parse_robots(text);
    EXPECT_TRUE(rules.allows("/folder/page")) << text;
  }
  // The length is the pattern's, not what it matched.
  EXPECT_FALSE(
      parse_robots("User-agent: *\nAllow: /*.html\nDisallow: /a/b/c/d\n").allows("/a/b/c/d.html"));
  EXPECT_TRUE(
      parse_robots("User-agent: *\nAllow: /*.html\nDisallow: /a/bc\n").allows("/a/bc.html"));
}

TEST(RobotsTxt, Wildcards) {
  const auto rules = parse_robots(
      "User-agent: *\n"
      "Disallow: /*.php\n"
      "Disallow: /fish*.txt\n"
      "Disallow: /a/*/b/*/c\n");
  EXPECT_FALSE(rules.allows("/index.php"));
  EXPECT_FALSE(rules.allows("/folder/filename.php?parameters"));
  EXPECT_FALSE(rules.allows("/folder/any.php.file.html"));
  EXPECT_FALSE(rules.allows("/filename.php/"));
  EXPECT_TRUE(rules.allows("/"));
  EXPECT_TRUE(rules.allows("/windows.PHP"));
  EXPECT_FALSE(rules.allows("/fish.txt"));
  EXPECT_FALSE(rules.allows("/fishheads/catfish.txt"));
  EXPECT_TRUE(rules.allows("/catfish.txt"));
  EXPECT_FALSE(rules.allows("/a/x/b/y/c"));
  EXPECT_FALSE(rules.allows("/a//b//c/d"));
  EXPECT_FALSE(rules.allows("/a/b/b/c/c"));
  EXPECT_TRUE(rules.allows("/a/b/c"));
  EXPECT_TRUE(rules.allows("/a/x/c/y/b"));
}

TEST(RobotsTxt, StarAloneOrRepeated) {
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: *\n").allows("/"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /*\n").allows("/x"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /**x**\n").allows("/abcxdef"));
  EXPECT_TRUE(parse_robots("User-agent: *\nDisallow: /**x**\n").allows("/abcdef"));
  // A trailing '*' changes nothing but the length.
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /fish*\n").allows("/fish"));
}

TEST(RobotsTxt, DollarAnchorsAtTheEnd) {
  const auto rules = parse_robots(
      "User-agent: *\n"
      "Disallow: /*.php$\n"
      "Disallow: /exact$\n"
      "Allow: /$\n"
      "Disallow: /\n");
  EXPECT_TRUE(rules.allows("/"));
  EXPECT_FALSE(rules.allows("/x"));
  const auto php = parse_robots("User-agent: *\nDisallow: /*.php$\nDisallow: /exact$\n");
  EXPECT_FALSE(php.allows("/filename.php"));
  EXPECT_FALSE(php.allows("/folder/filename.php"));
  EXPECT_FALSE(php.allows("/.php"));
  EXPECT_TRUE(php.allows("/filename.php?parameters"));
  EXPECT_TRUE(php.allows("/filename.php/"));
  EXPECT_TRUE(php.allows("/filename.php5"));
  EXPECT_TRUE(php.allows("/windows.PHP"));
  EXPECT_FALSE(php.allows("/exact"));
  EXPECT_TRUE(php.allows("/exactly"));
  // The run before '$' may not overlap what came before it.
  EXPECT_TRUE(parse_robots("User-agent: *\nDisallow: /ab*b$\n").allows("/ab"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /ab*b$\n").allows("/abb"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /*$\n").allows("/anything"));
}

TEST(RobotsTxt, DollarElsewhereIsLiteral) {
  const auto rules = parse_robots("User-agent: *\nDisallow: /a$b\nDisallow: /c$$\n");
  EXPECT_FALSE(rules.allows("/a$b"));
  EXPECT_FALSE(rules.allows("/a%24b/x"));
  EXPECT_TRUE(rules.allows("/ab"));
  EXPECT_FALSE(rules.allows("/c$"));  // "/c" then a literal '$', anchored
  EXPECT_TRUE(rules.allows("/c$x"));
}

TEST(RobotsTxt, QueryStrings) {
  const auto rules = parse_robots(
      "User-agent: *\n"
      "Disallow: /*?\n"
      "Disallow: /search\n"
      "Allow: /search?q=ok\n"
      "Disallow: /*&sessionid=\n");
  EXPECT_FALSE(rules.allows("/page?x=1"));
  EXPECT_TRUE(rules.allows("/page"));
  EXPECT_FALSE(rules.allows("/search"));
  EXPECT_TRUE(rules.allows("/search?q=ok&more"));
  EXPECT_FALSE(rules.allows("/search?q=no"));
  EXPECT_FALSE(rules.allows("/list?a=1&sessionid=2"));
  EXPECT_TRUE(parse_robots("User-agent: *\nDisallow: /p?a=1\n").allows("/p?a=2"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /p?a=1\n").allows("/p?a=12"));
}

TEST(RobotsTxt, PercentEncodingNormalisation) {
  const auto rules =
      parse_robots("User-agent: *\nDisallow: /café\nDisallow: /%7euser\nDisallow: /x%2fy\n");
  // Non-ASCII is percent-encoded, in the pattern and in the target, in any hex case.
  EXPECT_FALSE(rules.allows("/caf%C3%A9"));
  EXPECT_FALSE(rules.allows("/caf%c3%a9/menu"));
  EXPECT_FALSE(rules.allows("/café"));
  EXPECT_TRUE(rules.allows("/cafe"));
  // Escapes of unreserved characters are decoded.
  EXPECT_FALSE(rules.allows("/~user/page"));
  EXPECT_FALSE(rules.allows("/%7Euser"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /baz\n").allows("/%62%61%7A"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /%62%61%7A\n").allows("/baz"));
  // Reserved ones are not: "%2F" is not '/'.
  EXPECT_FALSE(rules.allows("/x%2Fy"));
  EXPECT_TRUE(rules.allows("/x/y"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /caf%C3%A9\n").allows("/café"));
  // Other octets outside unreserved and reserved: space, quote, a stray '%'.
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /a b\n").allows("/a%20b"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /a%20b\n").allows("/a b"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /\"q\"\n").allows("/%22q%22"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /100%\n").allows("/100%25"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /100%25\n").allows("/100%"));
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: /%zz\n").allows("/%25zz"));
  // The message shows the rule as written.
  EXPECT_EQ(rules.deciding_rule("/caf%C3%A9"), "Disallow: /café");
}

TEST(RobotsTxt, TargetsWithoutALeadingSlashOrWithAFragment) {
  const auto rules = parse_robots("User-agent: *\nDisallow: /\nAllow: /$\nAllow: /ok\n");
  EXPECT_TRUE(rules.allows(""));
  EXPECT_FALSE(rules.allows("?q=1"));
  EXPECT_TRUE(rules.allows("/#frag"));
  EXPECT_TRUE(rules.allows("/ok#x"));
  EXPECT_FALSE(rules.allows("/no#ok"));
}

TEST(RobotsTxt, RobotsTxtIsAlwaysAllowed) {
  const auto rules = parse_robots("User-agent: *\nDisallow: /\nDisallow: /robots.txt\n");
  EXPECT_TRUE(rules.allows("/robots.txt"));
  EXPECT_TRUE(rules.allows("/%72obots.txt"));
  EXPECT_EQ(rules.deciding_rule("/robots.txt"), std::nullopt);
  EXPECT_FALSE(rules.allows("/robots.txt.bak"));
  EXPECT_FALSE(rules.allows("/robots.txt?x=1"));
  EXPECT_FALSE(rules.allows("/dir/robots.txt"));
  EXPECT_FALSE(rules.allows("/"));
}

TEST(RobotsTxt, DecidingRule) {
  const auto rules = parse_robots(
      "User-agent: *\n"
      "Disallow:   /private   \n"
      "Allow: /private/open\n"
      "Disallow: /*.gif$\n");
  EXPECT_EQ(rules.deciding_rule("/private/x"), "Disallow: /private");
  EXPECT_EQ(rules.deciding_rule("/private/open/x"), "Allow: /private/open");
  EXPECT_EQ(rules.deciding_rule("/a.gif"), "Disallow: /*.gif$");
  EXPECT_EQ(rules.deciding_rule("/a.gif?x"), std::nullopt);
  EXPECT_EQ(rules.deciding_rule("/public"), std::nullopt);
}

// ---- Sitemaps ------------------------------------------------------------------------------

TEST(RobotsTxt, SitemapsAnywhereInOrderWithoutDuplicates) {
  const auto rules = parse_robots(
      "Sitemap: https://example.com/before-groups.xml\n"
      "User-agent: otherbot\n"
      "SITEMAP:   https://example.com/in-another-group.xml   \n"
      "Disallow: /\n"
      "sitemap: https://example.com/before-groups.xml\n"
      "Sitemap:\n"
      "User-agent: *\n"
      "Sitemap: https://example.com/b.xml # comment\n"
      "Sitemap: https://example.com/B.xml\n",
      "corocrawl");
  EXPECT_EQ(rules.sitemaps(), (std::vector<std::string>{
                                  "https://example.com/before-groups.xml",
                                  "https://example.com/in-another-group.xml",
                                  "https://example.com/b.xml",
                                  "https://example.com/B.xml",
                              }));
  // A sitemap line ends a run of user-agent lines.
  EXPECT_TRUE(
      parse_robots("User-agent: corocrawl\nSitemap: /s.xml\nUser-agent: other\nDisallow: /\n")
          .allows("/"));
}

// ---- Hostile input -------------------------------------------------------------------------

TEST(RobotsTxt, HostileWildcardPatternsMatchInLinearTime) {
  // Backtracking would take exponential time here; quadratic matching, many seconds.
  std::string pattern = "/";
  for (int i = 0; i < 2000; ++i)
    pattern += "*a";
  pattern += "*b";
  std::string text = "User-agent: *\n";
  for (int i = 0; i < 20; ++i)
    text += "Disallow: " + pattern + "\n";
  const auto rules = parse_robots(text + "Disallow: /*" + std::string(4000, 'a') + "b$\n");
  const std::string target = "/" + std::string(100000, 'a');
  for (int i = 0; i < 10; ++i)
    EXPECT_TRUE(rules.allows(target));
  EXPECT_FALSE(rules.allows(target + "b"));
  EXPECT_FALSE(rules.allows(target + "xb"));
}

TEST(RobotsTxt, RepetitiveRunsFindTheirPlace) {
  // The failure tables must let a search resume within a partial match.
  const auto rules = parse_robots("User-agent: *\nDisallow: /*aab*abab$\nDisallow: /x*aaab\n");
  EXPECT_FALSE(rules.allows("/aaab-abaabab"));
  EXPECT_TRUE(rules.allows("/aaba-abaabaa"));
  EXPECT_FALSE(rules.allows("/xaaaaaaab"));
  EXPECT_TRUE(rules.allows("/xaabaabaab"));
}

TEST(RobotsTxt, OverlongPatternsAreIgnored) {
  const std::string longest = "/" + std::string(max_robots_pattern_length - 1, 'a');
  EXPECT_FALSE(parse_robots("User-agent: *\nDisallow: " + longest + "\n").allows(longest));
  EXPECT_TRUE(parse_robots("User-agent: *\nDisallow: " + longest + "a\n").allows(longest + "a"));
  // The limit is on the normalised pattern: each non-ASCII octet counts three.
  const std::string wide = "/" + std::string(max_robots_pattern_length / 3 + 1, '\xE9');
  EXPECT_TRUE(parse_robots("User-agent: *\nDisallow: " + wide + "\n").allows(wide));
}

}  // namespace
}  // namespace corocrawl
