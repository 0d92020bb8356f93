// The shared value parsers, corocrawl.toml and validate().

#include "corocrawl/config.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/value_parsers.hpp"
#include "config_error_of.hpp"
#include "corocrawl/errors.hpp"
#include "settings.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
// The program's settings: the library's crawl options plus its output settings, read from
// corocrawl.toml with the program's option table.
using cli::apply_config_file;
using cli::parse_report_mode;
using cli::parse_verbosity;
using cli::report_mode;
using cli::settings;
using cli::verbosity;

/// Checks the crawl options of `s` (validate takes crawl options).
void validate(const settings& s) {
  corocrawl::validate(s.crawl);
}

using testing::error_of;

// ---- parse_count ----------------------------------------------------------------------------

TEST(ConfigError, IsOneLineWhateverItIsGiven) {
  EXPECT_STREQ(config_error("--x: \"a\nb\r\nc\"").what(), "--x: \"a b  c\"");
}

TEST(ParseCount, AcceptsDecimalIntegersFromMin) {
  EXPECT_EQ(parse_count("--max-tasks", "8", 1), 8);
  EXPECT_EQ(parse_count("--max-tasks", "1", 1), 1);
  EXPECT_EQ(parse_count("--max-redirect", "0", 0), 0);
  EXPECT_EQ(parse_count("--max-tasks", "007", 1), 7);
  EXPECT_EQ(parse_count("--max-tasks", "2147483647", 1), 2147483647);
}

TEST(ParseCount, RejectsEverythingElse) {
  for (const char* text : {"abc", "0", "-1", "+8", " 8", "8 ", "8x", "1.5", "", "0x10", "1e3"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_count("--max-tasks", text, 1); },
             {"--max-tasks: expected a positive integer, got \"", text});
  }
  error_of([] { parse_count("--max-redirect", "-1", 0); },
           {"--max-redirect: expected a non-negative integer, got \"-1\""});
  error_of([] { parse_count("--max-tasks", "2147483648", 1); }, {"--max-tasks", "too large"});
  error_of([] { parse_count("--max-tasks", "99999999999999999999", 1); }, {"--max-tasks"});
}

TEST(ParseCount, MessageIsOneLineEvenForMultiLineInput) {
  error_of([] { parse_count("--max-tries", "1\n2", 1); }, {"--max-tries", "1 2"});
}

// ---- upper bounds, --max-urls, header lines ----------------------------------------------------

TEST(ParseCount, EveryBoundedCountAcceptsItsBoundAndNotOneMore) {
  struct bound {
    const char* name;
    count_range range;
    int max;
  };
  for (const bound& b : std::initializer_list<bound>{{"--max-tasks", max_tasks_range, 10'000},
                                                     {"--threads", threads_range, 1'024},
                                                     {"--max-per-host", max_per_host_range, 10'000},
                                                     {"--max-redirect", max_redirect_range, 1'000},
                                                     {"--max-tries", max_tries_range, 100}}) {
    SCOPED_TRACE(b.name);
    EXPECT_EQ(parse_count(b.name, std::to_string(b.max), b.range), b.max);
    const std::string over = std::to_string(b.max + 1);
    EXPECT_EQ(error_of([&] { parse_count(b.name, over, b.range); }, {}),
              std::string(b.name) + ": \"" + over + "\" is too large (at most " +
                  std::to_string(b.max) + ")");
    error_of([&] { parse_count(b.name, "2147483647", b.range); }, {"too large"});
    error_of([&] { parse_count(b.name, "99999999999999999999", b.range); },
             {"too large (at most " + std::to_string(b.max) + ")"});
  }
  EXPECT_EQ(parse_count("--max-redirect", "0", max_redirect_range), 0);
  error_of([] { parse_count("--max-tasks", "0", max_tasks_range); },
           {"--max-tasks: expected a positive integer, got \"0\""});
  EXPECT_EQ(parse_count("--max-depth", "0", max_depth_range), 0);
  EXPECT_EQ(parse_count("--max-depth", "2147483647", max_depth_range), 2147483647);
  error_of([] { parse_count("--max-depth", "-1", max_depth_range); },
           {"--max-depth: expected a non-negative integer, got \"-1\""});
}

TEST(ParseLargeCount, DecimalCountsBeyondInt) {
  EXPECT_EQ(parse_large_count("--max-urls", "1"), 1u);
  EXPECT_EQ(parse_large_count("--max-urls", "5000000000"), 5'000'000'000u);
  EXPECT_EQ(parse_large_count("--max-urls", "18446744073709551615"),
            std::numeric_limits<std::uint64_t>::max());
  for (const char* text : {"0", "-1", "+1", " 1", "1 ", "1.5", "abc", "", "1e3", "0x10"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(error_of([&] { parse_large_count("--max-urls", text); }, {}),
              std::string("--max-urls: expected a positive integer, got \"") + text + "\"");
  }
  EXPECT_EQ(error_of([] { parse_large_count("--max-urls", "18446744073709551616"); }, {}),
            "--max-urls: \"18446744073709551616\" is too large (at most 18446744073709551615)");
}

TEST(ParseByteSize, UpToAMaximum) {
  EXPECT_EQ(parse_byte_size("--max-body", "1G", max_body_limit), 1u << 30);
  EXPECT_EQ(parse_byte_size("--max-body", "1073741824", max_body_limit), 1u << 30);
  EXPECT_EQ(error_of([] { parse_byte_size("--max-body", "1073741825", max_body_limit); }, {}),
            "--max-body: \"1073741825\" is too large (at most 1GiB)");
  error_of([] { parse_byte_size("--max-body", "2G", max_body_limit); },
           {"--max-body: \"2G\" is too large (at most 1GiB)"});
  error_of([] { parse_byte_size("--max-body", "16000000000G", max_body_limit); },
           {"--max-body: \"16000000000G\" is too large (at most 1GiB)"});
  error_of([] { parse_byte_size("--max-body", "0", max_body_limit); },
           {"expected a size in bytes >= 1"});
}

TEST(ParseHeader, LinesUpToWhatServersAccept) {
  // "X: " and the value make the line.
  const std::string fits(max_header_line - 3, 'v');
  EXPECT_EQ(parse_header("--header", "X: " + fits).value, fits);
  EXPECT_EQ(parse_header("--header", "X:   " + fits + "  \t").value, fits);  // trimmed: not sent
  const std::string message = error_of([&] { parse_header("--header", "X: " + fits + "v"); }, {});
  EXPECT_EQ(message,
            "--header: the \"X\" header line would be 8191 bytes, more than the 8190 servers "
            "accept");
  error_of([] { checked_header("headers", "X-Long", std::string(70'000, 'v')); },
           {"headers: the \"X-Long\" header line would be 70008 bytes"});
}

TEST(ParseUserAgent, AtMostALineServersAccept) {
  const std::string fits(max_header_line - 12, 'a');  // "User-Agent: "
  EXPECT_EQ(parse_user_agent("--user-agent", fits), fits);
  const std::string message = error_of([&] { parse_user_agent("--user-agent", fits + "a"); }, {});
  EXPECT_EQ(message,
            "--user-agent: the User-Agent header line would be 8191 bytes, more than the 8190 "
            "servers accept");
  error_of([] { parse_user_agent("user_agent", std::string(50'000'000, 'a')); },
           {"user_agent: the User-Agent header line would be 50000012 bytes"});
}

TEST(ParseUser, ItsAuthorizationLineFitsWhatServersAccept) {
  // "Authorization: Basic " and base64 of 6126 bytes (8168) make 8189 bytes; 6127 make 8193.
  const std::string fits = "me:" + std::string(6'123, 's');
  EXPECT_EQ(parse_user("--user", fits), fits);
  const std::string message = error_of([&] { parse_user("--user", fits + "s"); }, {});
  EXPECT_EQ(message,
            "--user: the Authorization header line it becomes would be 8193 bytes, more than the "
            "8190 servers accept");
}

TEST(ParseProxyUrl, ItsCredentialsFitWhatServersAccept) {
  EXPECT_NO_THROW(parse_proxy_url("--proxy", "http://me:" + std::string(6'000, 's') + "@p:3128"));
  const std::string message = error_of(
      [] { parse_proxy_url("--proxy", "http://me:" + std::string(7'000, 's') + "@p:3128"); },
      {"--proxy: the Proxy-Authorization header line its credentials become would be"});
  EXPECT_EQ(message.find("sss"), std::string::npos) << message;
}

// ---- parse_seconds --------------------------------------------------------------------------

TEST(ParseSeconds, AcceptsPositiveNumbers) {
  EXPECT_EQ(parse_seconds("--timeout", "30"), milliseconds(30'000));
  EXPECT_EQ(parse_seconds("--timeout", "0.5"), milliseconds(500));
  EXPECT_EQ(parse_seconds("--timeout", "2.25"), milliseconds(2'250));
  // Rounded up: a positive limit never becomes 0.
  EXPECT_EQ(parse_seconds("--timeout", "0.0001"), milliseconds(1));
  EXPECT_EQ(parse_seconds("--timeout", "86400"), milliseconds(86'400'000));
}

TEST(ParseSeconds, RejectsZeroNegativeAndGarbage) {
  for (const char* text :
       {"0", "0.0", "-1", "abc", "", "+1", " 1", "1 ", "1s", "inf", "nan", "-inf", "1,5"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_seconds("--timeout", text); },
             {"--timeout: expected a positive number of seconds, got \""});
  }
  error_of([] { parse_seconds("--timeout", "1e9"); }, {"--timeout", "at most 86400"});
}

// ---- parse_resolve --------------------------------------------------------------------------

TEST(ParseResolve, AcceptsIpv4) {
  EXPECT_EQ(parse_resolve("--resolve", "Example.COM:443:127.0.0.1"),
            (resolve_override{"example.com", 443, {"127.0.0.1"}}));
  EXPECT_EQ(parse_resolve("--resolve", "localhost:1:10.0.0.2"),
            (resolve_override{"localhost", 1, {"10.0.0.2"}}));
  EXPECT_EQ(parse_resolve("--resolve", "a.b:65535:1.2.3.4").port, 65535);
}

TEST(ParseResolve, AnInternationalisedHostIsItsALabels) {
  EXPECT_EQ(parse_resolve("--resolve",
                          "B\xC3\x9C"
                          "cher.test:80:127.0.0.1")
                .host,
            "xn--bcher-kva.test");
  EXPECT_THROW(parse_resolve("--resolve", "a\xFF.test:80:127.0.0.1"), config_error);
}

TEST(ParseResolve, AcceptsBracketedIpv6) {
  EXPECT_EQ(parse_resolve("--resolve", "example.com:8080:[::1]"),
            (resolve_override{"example.com", 8080, {"::1"}}));
  EXPECT_EQ(parse_resolve("--resolve", "example.com:80:[2001:db8::1]"),
            (resolve_override{"example.com", 80, {"2001:db8::1"}}));
}

TEST(ParseResolve, RejectsMalformedText) {
  for (const char* text : {"foo", "foo:80", ":80:1.2.3.4", "a::1.2.3.4", "a:80:", "::", ""}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_resolve("--resolve", text); },
             {"--resolve: expected HOST:PORT:ADDR[,ADDR...], got \"", text});
  }
  error_of([] { parse_resolve("--resolve", "foo"); },
           {"--resolve: expected HOST:PORT:ADDR[,ADDR...], got \"foo\""});
}

TEST(ParseResolve, RejectsBadParts) {
  for (const char* text : {"a:0:1.2.3.4", "a:65536:1.2.3.4", "a:8x:1.2.3.4", "a:+80:1.2.3.4",
                           "a:-1:1.2.3.4", "a:99999999999:1.2.3.4"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_resolve("--resolve", text); }, {"--resolve", "port", text});
  }
  for (const char* text : {"a:80:1.2.3", "a:80:1.2.3.256", "a:80:[::1", "a:80:[]",
                           "a:80:example.org", "a:80:[1.2.3.4]", "a:80:[::g]"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_resolve("--resolve", text); }, {"--resolve", "ADDR", text});
  }
  error_of([] { parse_resolve("--resolve", "a b:80:1.2.3.4"); }, {"--resolve", "host"});
  error_of([] { parse_resolve("--resolve", "a/b:80:1.2.3.4"); }, {"--resolve", "host"});
}

TEST(ParseResolve, AcceptsSeveralAddresses) {
  EXPECT_EQ(parse_resolve("--resolve", "h.example:443:127.0.0.1,[::1],10.0.0.2"),
            (resolve_override{"h.example", 443, {"127.0.0.1", "::1", "10.0.0.2"}}));
  EXPECT_EQ(parse_resolve("--resolve", "h:80:[2001:db8::1],::2").addresses,
            (std::vector<std::string>{"2001:db8::1", "::2"}));
  // Kept in the order given: the client tries them in that order.
  EXPECT_EQ(parse_resolve("--resolve", "h:80:10.0.0.2,10.0.0.1").addresses,
            (std::vector<std::string>{"10.0.0.2", "10.0.0.1"}));
}

TEST(ParseResolve, RejectsABadAddressInAList) {
  for (const char* text : {"h:80:1.2.3.4,", "h:80:,1.2.3.4", "h:80:1.2.3.4,,5.6.7.8",
                           "h:80:1.2.3.4,bad", "h:80:1.2.3.4, 5.6.7.8", "h:80:[::1],[::2"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_resolve("--resolve", text); }, {"--resolve: ADDR must be", text});
  }
  error_of([] { parse_resolve("--resolve", "h:80:1.2.3.4,bad"); }, {"got \"bad\""});
}

// ---- parse_seconds with other ranges --------------------------------------------------------

TEST(ParseSeconds, WaitRangeAllowsZero) {
  EXPECT_EQ(parse_seconds("--max-retry-wait", "0", retry_wait_range), milliseconds(0));
  EXPECT_EQ(parse_seconds("--max-retry-wait", "0.0", retry_wait_range), milliseconds(0));
  EXPECT_EQ(parse_seconds("--max-retry-wait", "60", retry_wait_range), milliseconds(60'000));
  for (const char* text : {"-1", "-0.5", "abc", "", "inf", "nan"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_seconds("--max-retry-wait", text, retry_wait_range); },
             {"--max-retry-wait: expected a non-negative number of seconds, got \""});
  }
  error_of([] { parse_seconds("--max-retry-wait", "86401", retry_wait_range); },
           {"--max-retry-wait", "at most 86400"});
}

TEST(ParseSeconds, MaxTimeRangeAllowsLongCrawlsButNotZero) {
  EXPECT_EQ(parse_seconds("--max-time", "0.25", max_time_range), milliseconds(250));
  EXPECT_EQ(parse_seconds("--max-time", "2592000", max_time_range), milliseconds(2'592'000'000));
  error_of([] { parse_seconds("--max-time", "0", max_time_range); },
           {"--max-time: expected a positive number of seconds, got \"0\""});
  error_of([] { parse_seconds("--max-time", "2592001", max_time_range); },
           {"--max-time", "at most 2592000"});
}

// ---- parse_byte_size ------------------------------------------------------------------------

TEST(ParseByteSize, PlainNumbersAndUnitsOf1024) {
  EXPECT_EQ(parse_byte_size("--max-body", "1"), 1u);
  EXPECT_EQ(parse_byte_size("--max-body", "10485760"), 10'485'760u);
  EXPECT_EQ(parse_byte_size("--max-body", "007"), 7u);
  EXPECT_EQ(parse_byte_size("--max-body", "1K"), 1024u);
  EXPECT_EQ(parse_byte_size("--max-body", "1KiB"), 1024u);
  EXPECT_EQ(parse_byte_size("--max-body", "10M"), 10'485'760u);
  EXPECT_EQ(parse_byte_size("--max-body", "10MiB"), 10'485'760u);
  EXPECT_EQ(parse_byte_size("--max-body", "2G"), 2'147'483'648u);
  EXPECT_EQ(parse_byte_size("--max-body", "3GiB"), 3'221'225'472u);
  EXPECT_EQ(parse_byte_size("--max-body", "18446744073709551615"), 18'446'744'073'709'551'615u);
  EXPECT_EQ(parse_byte_size("--max-body", "17179869183G"), 17'179'869'183ull << 30);
}

TEST(ParseByteSize, RejectsEverythingElse) {
  for (const char* text :
       {"",    "0",    "0K",  "0MiB", "-1", "+1", " 1",  "1 ",    "1 MiB", "1.5M", "1k",
        "1KB", "1kib", "1mb", "1T",   "1B", "K",  "MiB", "1MiBs", "0x10",  "1e3",  "abc"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_byte_size("--max-body", text); },
             {"--max-body: expected a size in bytes >= 1", "10MiB", "KiB", "got \"", text});
  }
  for (const char* text :
       {"18446744073709551616", "99999999999999999999999", "17179869184G", "16777216TiB"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_byte_size("--max-body", text); }, {"--max-body", text});
  }
  error_of([] { parse_byte_size("--max-body", "17179869184G"); }, {"too large"});
}

// ---- parse_rate -----------------------------------------------------------------------------

TEST(ParseRate, PositiveNumbers) {
  EXPECT_EQ(parse_rate("--rate-limit", "1"), 1.0);
  EXPECT_EQ(parse_rate("--rate-limit", "0.5"), 0.5);
  EXPECT_EQ(parse_rate("--rate-limit", "2.5"), 2.5);
  EXPECT_EQ(parse_rate("--rate-limit", ".25"), 0.25);
  EXPECT_EQ(parse_rate("--rate-limit", "1000"), 1000.0);
  EXPECT_EQ(parse_rate("--rate-limit", "0.001"), 0.001);
}

TEST(ParseRate, RejectsZeroNegativeTinyAndGarbage) {
  for (const char* text : {"0", "0.0", "-1", "abc", "", "+1", " 1", "1 ", "inf", "nan", "1/s"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_rate("--rate-limit", text); },
             {"--rate-limit: expected a positive number of requests per second, got \""});
  }
  error_of([] { parse_rate("--rate-limit", "0.0001"); }, {"--rate-limit", "at least 0.001"});
  error_of([] { parse_rate("--rate-limit", "1e-300"); }, {"--rate-limit", "at least"});
}

// ---- parse_header, checked_header -----------------------------------------------------------

TEST(ParseHeader, NameAndTrimmedValue) {
  EXPECT_EQ(parse_header("--header", "Accept-Language: en"),
            (http_header{"Accept-Language", "en"}));
  EXPECT_EQ(parse_header("--header", "X-Token:abc"), (http_header{"X-Token", "abc"}));
  EXPECT_EQ(parse_header("--header", "X: \t a b \t "), (http_header{"X", "a b"}));
  EXPECT_EQ(parse_header("--header", "X: a\tb"), (http_header{"X", "a\tb"}));
  EXPECT_EQ(parse_header("--header", "X: a: b"), (http_header{"X", "a: b"}));
  EXPECT_EQ(parse_header("--header", "X:"), (http_header{"X", ""}));
  EXPECT_EQ(parse_header("--header", "!#$%&'*+-.^_`|~09azAZ: v").name, "!#$%&'*+-.^_`|~09azAZ");
  EXPECT_EQ(parse_header("--header", "Authorization: Bearer x").name, "Authorization");
}

TEST(ParseHeader, RejectsBadNames) {
  error_of([] { parse_header("--header", "NoColonSecret"); },
           {"--header: expected \"Name: value\"", "no ':'"});
  const std::string message = error_of([] { parse_header("--header", "Token abc123"); }, {});
  EXPECT_EQ(message.find("abc123"), std::string::npos) << message;
  error_of([] { parse_header("--header", ": v"); }, {"--header: the header name is empty"});
  for (const char* text :
       {"Bad Name: v", " X: v", "X : v", "X(: v", "X\"Y: v", "X/Y: v", "X\x01: v", "\xc3\x9c: v"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_header("--header", text); }, {"--header: \"", "is not a header name"});
  }
}

TEST(ParseHeader, RejectsHeadersTheClientManages) {
  for (const char* text :
       {"Host: x", "host: x", "Content-Length: 1", "transfer-encoding: chunked", "CONNECTION: x"}) {
    SCOPED_TRACE(text);
    const std::string name(std::string_view(text).substr(0, std::string_view(text).find(':')));
    error_of([&] { parse_header("--header", text); },
             {"--header: header \"" + name + "\"", "set by corocrawl itself"});
  }
  EXPECT_NO_THROW(parse_header("--header", "Hostname: x"));
  EXPECT_NO_THROW(parse_header("--header", "Keep-Alive: x"));
}

TEST(ParseHeader, RejectsControlCharactersInTheValue) {
  using namespace std::string_literals;
  for (const std::string& text : {"X: a\r\nEvil: 1"s, "X: a\nEvil"s, "X: a\rEvil"s, "X: a\0Evil"s,
                                  "X: a\x01Evil"s, "X: a\x1f"s, "X: \x7f"s}) {
    SCOPED_TRACE(text);
    const std::string message = error_of([&] { parse_header("--header", text); },
                                         {"--header: the value of header \"X\"", "control"});
    EXPECT_EQ(message.find("Evil"), std::string::npos) << message;
  }
}

TEST(CheckedHeader, SameRulesForANameAndValueGivenApart) {
  EXPECT_EQ(checked_header("headers", "Accept", "  text/html "),
            (http_header{"Accept", "text/html"}));
  error_of([] { checked_header("headers", "A B", "x"); },
           {"headers: \"A B\" is not a header name"});
  error_of([] { checked_header("headers", "", "x"); }, {"headers: the header name is empty"});
  error_of([] { checked_header("headers", "Host", "x"); }, {"headers: header \"Host\""});
  error_of([] { checked_header("headers", "X", "a\nb"); }, {"headers: the value of header \"X\""});
  // A colon is fine in a value, and in TOML the name is given apart from it.
  EXPECT_EQ(checked_header("headers", "X", "a:b").value, "a:b");
}

// ---- parse_user, parse_user_agent, parse_proxy_url ------------------------------------------

TEST(ParseUser, UserColonPassword) {
  EXPECT_EQ(parse_user("--user", "me:secret"), "me:secret");
  EXPECT_EQ(parse_user("--user", "me:"), "me:");
  EXPECT_EQ(parse_user("--user", "me:pa:ss"), "me:pa:ss");
  EXPECT_EQ(parse_user("--user", "m\xc3\xa9:p w"), "m\xc3\xa9:p w");
}

TEST(ParseUser, RejectsMalformedWithoutEchoingIt) {
  for (const auto& [text, part] : std::initializer_list<std::pair<const char*, const char*>>{
           {"mysecret", "no ':'"},
           {":mysecret", "USER is empty"},
           {"me:my\nsecret", "control character"},
           {"me:my\x01secret", "control character"}}) {
    SCOPED_TRACE(text);
    const std::string message =
        error_of([text = text] { parse_user("--user", text); }, {"--user: ", part});
    EXPECT_EQ(message.find("secret"), std::string::npos) << message;
  }
  error_of([] { parse_user("--user", ""); }, {"--user: expected USER:PASSWORD"});
}

TEST(ParseUserAgent, TrimmedAndWithoutControls) {
  EXPECT_EQ(parse_user_agent("--user-agent", "MyBot/1.0"), "MyBot/1.0");
  EXPECT_EQ(parse_user_agent("--user-agent", "  MyBot/1.0 (+https://x.example) "),
            "MyBot/1.0 (+https://x.example)");
  for (const char* text : {"", "   ", "\t"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_user_agent("--user-agent", text); },
             {"--user-agent: expected a non-empty string"});
  }
  for (const char* text : {"a\nb", "a\rb", "a\tb", "a\x7f"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_user_agent("--user-agent", text); },
             {"--user-agent: contains a control character"});
  }
}

TEST(ParseProxyUrl, EmptyMeansNoneAndAnythingElseIsAProxy) {
  EXPECT_EQ(parse_proxy_url("--proxy", ""), "");
  EXPECT_EQ(parse_proxy_url("--proxy", "http://proxy.example:3128"), "http://proxy.example:3128");
  EXPECT_EQ(parse_proxy_url("--proxy", "proxy.example:8080"), "proxy.example:8080");
  for (const char* text : {"https://proxy.example", "socks5://proxy.example:1080",
                           "http://proxy.example:3128/path", "http://"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_proxy_url("--proxy", text); }, {"--proxy"});
  }
  error_of([] { parse_proxy_url("https_proxy", "ftp://x"); }, {"https_proxy"});
}

// ---- parse_ca_file --------------------------------------------------------------------------

TEST(ParseCaFile, AnExistingFileAsAnAbsolutePath) {
  testing::temp_dir temp;
  const fs::path ca = temp.write("certs/ca.pem", "-----BEGIN CERTIFICATE-----\n");
  EXPECT_EQ(parse_ca_file("--ca-file", "certs/ca.pem", temp.path()), ca.string());
  EXPECT_EQ(parse_ca_file("--ca-file", "./certs/../certs/ca.pem", temp.path()), ca.string());
  EXPECT_EQ(parse_ca_file("--ca-file", "ca.pem", temp.path() / "certs"), ca.string());
  EXPECT_EQ(parse_ca_file("--ca-file", ca.string(), "/nonexistent"), ca.string());
}

TEST(ParseCaFile, RejectsMissingDirectoriesAndOtherFiles) {
  testing::temp_dir temp;
  error_of([&] { parse_ca_file("--ca-file", "", temp.path()); },
           {"--ca-file: expected a file name, got \"\""});
  error_of([&] { parse_ca_file("--ca-file", "missing.pem", temp.path()); },
           {"--ca-file: no such file \"missing.pem\""});
  fs::create_directories(temp.path() / "dir");
  error_of([&] { parse_ca_file("--ca-file", "dir", temp.path()); },
           {"--ca-file: \"dir\" is a directory"});
  error_of([&] { parse_ca_file("ca_file", "/dev/null", temp.path()); },
           {"ca_file: cannot use \"/dev/null\"", "not a regular file"});
}

TEST(ParseCaFile, RejectsAnUnreadableFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads every file";
  testing::temp_dir temp;
  const fs::path ca = temp.write("ca.pem", "x");
  fs::permissions(ca, fs::perms::none);
  error_of([&] { parse_ca_file("--ca-file", "ca.pem", temp.path()); },
           {"--ca-file: cannot read \"ca.pem\""});
}

// ---- parse_report_mode, parse_verbosity -------------------------------------------------------

TEST(ParseReportMode, TextOrNone) {
  EXPECT_EQ(parse_report_mode("--report", "text"), report_mode::text);
  EXPECT_EQ(parse_report_mode("--report", "none"), report_mode::none);
  error_of([] { parse_report_mode("--report", "html"); }, {"--report", "\"html\""});
  error_of([] { parse_report_mode("report", "Text"); }, {"report", "\"Text\""});
}

TEST(ParseVerbosity, FourLevels) {
  EXPECT_EQ(parse_verbosity("verbosity", "quiet"), verbosity::quiet);
  EXPECT_EQ(parse_verbosity("verbosity", "info"), verbosity::info);
  EXPECT_EQ(parse_verbosity("verbosity", "debug"), verbosity::debug);
  EXPECT_EQ(parse_verbosity("verbosity", "trace"), verbosity::trace);
  error_of([] { parse_verbosity("verbosity", "loud"); }, {"verbosity", "\"loud\""});
}

// ---- corocrawl.toml -------------------------------------------------------------------------

/// A fresh directory per test, removed at the end, to write config files in.
class ConfigFileTest : public ::testing::Test {
 protected:
  fs::path write(std::string_view content, const fs::path& name = "corocrawl.toml") {
    return temp_.write(name, content);
  }

  settings apply(std::string_view content) {
    settings s;
    apply_config_file(write(content), s);
    return s;
  }

  /// The config_error for a file with `content`; checks it names the file and every part.
  std::string error_for(std::string_view content, std::initializer_list<std::string_view> parts) {
    const fs::path file = write(content);
    const std::string message = error_of(
        [&] {
          settings s;
          apply_config_file(file, s);
        },
        parts);
    EXPECT_TRUE(message.starts_with(file.string() + ":")) << message;
    return message;
  }

  testing::temp_dir temp_;
  const fs::path dir_ = temp_.path();
};

TEST_F(ConfigFileTest, EmptyFileKeepsDefaults) {
  const settings s = apply("# nothing set\n");
  const settings defaults;
  EXPECT_EQ(s.crawl.max_tasks, defaults.crawl.max_tasks);
  EXPECT_EQ(s.crawl.threads, std::nullopt);  // one per core but one
  EXPECT_EQ(s.crawl.max_redirect, 10);
  EXPECT_EQ(s.crawl.max_tries, 4);
  EXPECT_TRUE(s.crawl.strict);
  EXPECT_EQ(s.crawl.timeout, milliseconds(30'000));
  EXPECT_TRUE(s.crawl.roots.empty());
  EXPECT_FALSE(s.json_path);
  EXPECT_EQ(s.report, report_mode::text);
  EXPECT_EQ(s.verbosity, verbosity::info);
}

TEST_F(ConfigFileTest, EveryKey) {
  const settings s = apply(R"(
roots = ["https://Example.com", "example.org/docs"]
max_tasks = 8
threads = 3
max_redirect = 0
max_tries = 2
exclude = ["\\.pdf$", "/private/"]
strict = false
resolve = ["example.com:443:127.0.0.1", "example.org:80:[::1]"]
timeout = 2.5
json = "-"
report = "none"
verbosity = "debug"
)");
  EXPECT_EQ(s.crawl.roots,
            (std::vector<std::string>{"https://example.com/", "http://example.org/docs"}));
  EXPECT_EQ(s.crawl.max_tasks, 8);
  EXPECT_EQ(s.crawl.threads, 3);
  EXPECT_EQ(s.crawl.max_redirect, 0);
  EXPECT_EQ(s.crawl.max_tries, 2);
  EXPECT_EQ(s.crawl.exclude, (std::vector<std::string>{"\\.pdf$", "/private/"}));
  EXPECT_FALSE(s.crawl.strict);
  EXPECT_EQ(s.crawl.resolve, (std::vector<resolve_override>{{"example.com", 443, {"127.0.0.1"}},
                                                            {"example.org", 80, {"::1"}}}));
  EXPECT_EQ(s.crawl.timeout, milliseconds(2'500));
  EXPECT_EQ(s.json_path, "-");
  EXPECT_EQ(s.report, report_mode::none);
  EXPECT_EQ(s.verbosity, verbosity::debug);
}

TEST_F(ConfigFileTest, IntegerTimeoutAndOtherLevels) {
  EXPECT_EQ(apply("timeout = 5").crawl.timeout, milliseconds(5'000));
  EXPECT_EQ(apply("verbosity = \"trace\"").verbosity, verbosity::trace);
  EXPECT_EQ(apply("verbosity = \"quiet\"").verbosity, verbosity::quiet);
  EXPECT_EQ(apply("strict = true").crawl.strict, true);
  EXPECT_EQ(apply("report = \"text\"").report, report_mode::text);
}

TEST_F(ConfigFileTest, RelativePathsAreTakenFromTheFilesDirectory) {
  fs::create_directories(dir_ / "conf" / "site");
  fs::create_directories(dir_ / "other");
  const fs::path file = write(R"(
roots = ["site", "../other", "./site/"]
json = "out/summary.json"
)",
                              "conf/corocrawl.toml");
  settings s;
  apply_config_file(file, s);
  EXPECT_EQ(s.crawl.roots,
            (std::vector<std::string>{(dir_ / "conf" / "site").string(), (dir_ / "other").string(),
                                      (dir_ / "conf" / "site").string()}));
  EXPECT_EQ(s.json_path, (dir_ / "conf" / "out" / "summary.json").string());
}

TEST_F(ConfigFileTest, AbsoluteJsonPathStays) {
  const std::string path = (dir_ / "x.json").string();
  EXPECT_EQ(apply("json = \"" + path + "\"").json_path, path);
}

TEST_F(ConfigFileTest, FileListsReplaceEarlierLists) {
  settings s;
  s.crawl.exclude = {"old"};
  s.crawl.roots = {"http://old.example/"};
  apply_config_file(write("exclude = [\"new\"]\nroots = []\n"), s);
  EXPECT_EQ(s.crawl.exclude, (std::vector<std::string>{"new"}));
  EXPECT_TRUE(s.crawl.roots.empty());
}

TEST_F(ConfigFileTest, ErrorLeavesSettingsUntouched) {
  settings s;
  const fs::path file = write("max_tasks = 8\nthreads = 2\nmax_tries = \"x\"\n");
  EXPECT_THROW(apply_config_file(file, s), config_error);
  EXPECT_EQ(s.crawl.max_tasks, 100);
  EXPECT_EQ(s.crawl.threads, std::nullopt);
}

TEST_F(ConfigFileTest, SyntaxErrorHasLineAndColumn) {
  const std::string message =
      error_for("max_tasks = 8\n\nmax_tries = = 3\n", {":3:", "TOML syntax error: "});
  EXPECT_NE(message.find(".toml:3:"), std::string::npos) << message;
  error_for("roots = [\"a\",\n", {"TOML syntax error"});
  error_for("max_tasks = 1\nmax_tasks = 2\n", {":2:", "TOML syntax error"});
}

TEST_F(ConfigFileTest, UnknownKey) {
  error_for("max_tasks = 3\nmax_task = 8\n", {":2: unknown key \"max_task\"", "max_tasks"});
  error_for("colour = true\n", {"unknown key \"colour\""});
  error_for("[crawl]\nmax_tasks = 1\n", {"unknown key \"crawl\""});
  error_for("thread = 2\n", {":1: unknown key \"thread\" (did you mean \"threads\"?)"});
  error_for("Threads = 2\n", {"unknown key \"Threads\" (did you mean \"threads\"?)"});
}

TEST_F(ConfigFileTest, WrongTypes) {
  error_for("max_tasks = \"8\"", {":1: max_tasks: expected an integer, got a string"});
  error_for("max_tasks = 1.5", {"max_tasks: expected an integer, got a float"});
  error_for("threads = \"4\"", {":1: threads: expected an integer, got a string"});
  error_for("threads = 2.0", {"threads: expected an integer, got a float"});
  error_for("strict = \"yes\"", {"strict: expected a boolean, got a string"});
  error_for("exclude = \"x\"", {"exclude: expected an array of strings, got a string"});
  error_for("roots = [1]", {"roots: expected a string, got an integer"});
  error_for("resolve = [\"a:1:1.2.3.4\", true]", {"resolve: expected a string, got a boolean"});
  error_for("timeout = \"abc\"", {"timeout: expected a number of seconds, got a string"});
  error_for("json = 1", {"json: expected a string, got an integer"});
  error_for("report = false", {"report: expected a string, got a boolean"});
  error_for("verbosity = 2", {"verbosity: expected a string, got an integer"});
  error_for("max_tries = [1]", {"max_tries: expected an integer, got an array"});
}

TEST_F(ConfigFileTest, BadValues) {
  error_for("max_tasks = 0", {":1: max_tasks: expected a positive integer, got 0"});
  error_for("max_tasks = -3", {"max_tasks: expected a positive integer, got -3"});
  error_for("max_tasks = 3000000000", {"max_tasks: 3000000000 is too large (at most 10000)"});
  error_for("threads = 0", {":1: threads: expected a positive integer, got 0"});
  error_for("threads = -1", {":1: threads: expected a positive integer, got -1"});
  error_for("threads = 3000000000", {"threads: 3000000000 is too large (at most 1024)"});
  error_for("max_tries = 0", {"max_tries: expected a positive integer, got 0"});
  error_for("max_redirect = -1", {"max_redirect: expected a non-negative integer, got -1"});
  error_for("timeout = 0", {":1: timeout: expected a positive number of seconds, got 0"});
  error_for("timeout = -1.5", {"timeout: expected a positive number of seconds"});
  error_for("timeout = nan", {"timeout: expected a positive number of seconds"});
  error_for("timeout = inf", {"timeout: expected a positive number of seconds"});
  error_for("report = \"html\"",
            {":1: report: expected \"text\", \"none\" or \"full\", got \"html\""});
  error_for("verbosity = \"loud\"", {"verbosity:", "\"loud\""});
  error_for("json = \"\"", {"json:"});
  error_for("\nresolve = [\"foo\"]",
            {":2: resolve: expected HOST:PORT:ADDR[,ADDR...], got \"foo\""});
  error_for("exclude = [\"ok\",\n  \"(\"]", {":2:", "exclude", "\"(\""});
}

TEST_F(ConfigFileTest, BadRoots) {
  error_for("roots = [\"./missing\"]", {":1: roots: root \"./missing\": no such directory"});
  error_for("roots = [\"ftp://x\"]", {"roots: root \"ftp://x\": unsupported scheme \"ftp\""});
  write("<html></html>", "index.html");
  error_for("roots = [\"index.html\"]", {"root \"index.html\" is a file"});
}

TEST_F(ConfigFileTest, MissingOrUnreadableFile) {
  settings s;
  error_of([&] { apply_config_file(dir_ / "nope.toml", s); }, {"nope.toml", "no such"});
  fs::create_directories(dir_ / "dir.toml");
  error_of([&] { apply_config_file(dir_ / "dir.toml", s); }, {"dir.toml", "directory"});
}

TEST_F(ConfigFileTest, NewKeysDefaults) {
  const settings s = apply("");
  EXPECT_EQ(s.crawl.max_body, 10u * 1024 * 1024);
  EXPECT_FALSE(s.crawl.max_time);
  EXPECT_EQ(s.crawl.max_per_host, 16);
  EXPECT_EQ(s.crawl.rate_limit, 0.0);
  EXPECT_EQ(s.crawl.max_retry_wait, milliseconds(60'000));
  EXPECT_FALSE(s.crawl.fail_on_rate_limit);
  EXPECT_FALSE(s.crawl.insecure);
  EXPECT_EQ(s.crawl.ca_file, "");
  EXPECT_EQ(s.crawl.user_agent, "");
  EXPECT_TRUE(s.crawl.headers.empty());
  EXPECT_TRUE(s.crawl.host_headers.empty());
  EXPECT_FALSE(s.crawl.user);
  EXPECT_EQ(s.crawl.proxy, proxy_options{});
}

TEST_F(ConfigFileTest, EveryNewKey) {
  write("-----BEGIN CERTIFICATE-----\n", "certs/ca.pem");
  const settings s = apply(R"(
max_time = 120
max_body = "1MiB"
max_per_host = 4
rate_limit = 0.5
max_retry_wait = 0
fail_on_rate_limit = true
insecure = true
ca_file = "certs/ca.pem"
user_agent = " MyBot/1.0 "
user = "me:secret"
proxy = "http://proxy.example:3128"
no_proxy = " internal.example, .corp "
resolve = ["h.example:443:10.0.0.1,[::1]"]

[headers]
"Accept-Language" = "en"
X-Token = " abc "

[hosts."Docs.Example.com".headers]
Authorization = "Bearer t"

[hosts."[::1]"]
headers = { X-A = "b" }
)");
  EXPECT_EQ(s.crawl.max_time, milliseconds(120'000));
  EXPECT_EQ(s.crawl.max_body, 1024u * 1024);
  EXPECT_EQ(s.crawl.max_per_host, 4);
  EXPECT_EQ(s.crawl.rate_limit, 0.5);
  EXPECT_EQ(s.crawl.max_retry_wait, milliseconds(0));
  EXPECT_TRUE(s.crawl.fail_on_rate_limit);
  EXPECT_TRUE(s.crawl.insecure);
  EXPECT_EQ(s.crawl.ca_file, (dir_ / "certs" / "ca.pem").string());
  EXPECT_EQ(s.crawl.user_agent, "MyBot/1.0");
  EXPECT_EQ(s.crawl.user, "me:secret");
  EXPECT_EQ(s.crawl.proxy, (proxy_options{"http://proxy.example:3128", "http://proxy.example:3128",
                                          "internal.example, .corp"}));
  EXPECT_EQ(s.crawl.resolve,
            (std::vector<resolve_override>{{"h.example", 443, {"10.0.0.1", "::1"}}}));
  EXPECT_EQ(s.crawl.headers,
            (std::vector<http_header>{{"Accept-Language", "en"}, {"X-Token", "abc"}}));
  EXPECT_EQ(s.crawl.host_headers,
            (std::map<std::string, std::vector<http_header>>{
                {"docs.example.com", {{"Authorization", "Bearer t"}}}, {"::1", {{"X-A", "b"}}}}));
}

TEST_F(ConfigFileTest, NumbersAsIntegersOrFloats) {
  EXPECT_EQ(apply("max_time = 1.5").crawl.max_time, milliseconds(1'500));
  EXPECT_EQ(apply("max_time = 2592000").crawl.max_time, milliseconds(2'592'000'000));
  EXPECT_EQ(apply("rate_limit = 2").crawl.rate_limit, 2.0);
  EXPECT_EQ(apply("max_retry_wait = 2.5").crawl.max_retry_wait, milliseconds(2'500));
  EXPECT_EQ(apply("max_retry_wait = 0.0").crawl.max_retry_wait, milliseconds(0));
  EXPECT_EQ(apply("max_body = 1024").crawl.max_body, 1024u);
  EXPECT_EQ(apply("max_body = \"1G\"").crawl.max_body, 1u << 30);
  EXPECT_EQ(apply("max_body = 1").crawl.max_body, 1u);
  EXPECT_FALSE(apply("insecure = false").crawl.insecure);
}

TEST_F(ConfigFileTest, HeadersKeepTheFilesOrder) {
  const settings s = apply("[headers]\nZ-Last = \"1\"\nA-First = \"2\"\nM = \"3\"\n");
  EXPECT_EQ(s.crawl.headers,
            (std::vector<http_header>{{"Z-Last", "1"}, {"A-First", "2"}, {"M", "3"}}));
  EXPECT_EQ(apply("headers = { B = \"1\", A = \"2\" }").crawl.headers,
            (std::vector<http_header>{{"B", "1"}, {"A", "2"}}));
  EXPECT_EQ(apply("headers.X-A = \"1\"").crawl.headers, (std::vector<http_header>{{"X-A", "1"}}));
  EXPECT_TRUE(apply("[headers]\n").crawl.headers.empty());
}

TEST_F(ConfigFileTest, HostsAreLowerCasedAndMayHaveNoHeaders) {
  const settings s = apply(R"(
[hosts."A.Example"]
[hosts."127.0.0.1".headers]
X = "1"
[hosts."b.example".headers]
)");
  EXPECT_EQ(s.crawl.host_headers,
            (std::map<std::string, std::vector<http_header>>{
                {"a.example", {}}, {"127.0.0.1", {{"X", "1"}}}, {"b.example", {}}}));
}

TEST_F(ConfigFileTest, CaFileIsTakenFromTheFilesDirectory) {
  write("x", "conf/ca.pem");
  write("x", "other.pem");
  settings s;
  apply_config_file(write("ca_file = \"ca.pem\"\n", "conf/corocrawl.toml"), s);
  EXPECT_EQ(s.crawl.ca_file, (dir_ / "conf" / "ca.pem").string());
  apply_config_file(write("ca_file = \"../other.pem\"\n", "conf/corocrawl.toml"), s);
  EXPECT_EQ(s.crawl.ca_file, (dir_ / "other.pem").string());
  const std::string absolute = (dir_ / "other.pem").string();
  apply_config_file(write("ca_file = \"" + absolute + "\"\n", "conf/corocrawl.toml"), s);
  EXPECT_EQ(s.crawl.ca_file, absolute);
  // A file next to the working directory's, not the config file's, is not found.
  error_for("ca_file = \"conf/missing.pem\"", {":1: ca_file: no such file \"conf/missing.pem\""});
}

TEST_F(ConfigFileTest, EmptyProxyMeansNone) {
  settings s;
  s.crawl.proxy = {"http://env.example:1", "http://env.example:2", "x"};
  apply_config_file(write("proxy = \"\"\n"), s);
  EXPECT_EQ(s.crawl.proxy, (proxy_options{"", "", "x"}));
  apply_config_file(write("no_proxy = \"\"\n"), s);
  EXPECT_EQ(s.crawl.proxy, (proxy_options{"", "", ""}));
}

TEST_F(ConfigFileTest, KeysReplaceEarlierValues) {
  settings s;
  s.crawl.headers = {{"Old", "1"}};
  s.crawl.host_headers = {{"old.example", {{"Old", "1"}}}};
  s.crawl.user = "old:1";
  apply_config_file(write("user = \"new:2\"\n[headers]\nNew = \"2\"\n[hosts.\"new.example\"]\n"),
                    s);
  EXPECT_EQ(s.crawl.headers, (std::vector<http_header>{{"New", "2"}}));
  EXPECT_EQ(s.crawl.host_headers,
            (std::map<std::string, std::vector<http_header>>{{"new.example", {}}}));
  EXPECT_EQ(s.crawl.user, "new:2");
}

TEST_F(ConfigFileTest, NewKeysWrongTypes) {
  error_for("max_time = \"1\"", {":1: max_time: expected a number of seconds, got a string"});
  error_for("max_body = true",
            {"max_body: expected a number of bytes or a string such as \"10MiB\", got a boolean"});
  error_for("max_body = 1.5", {"max_body: expected a number of bytes", "got a float"});
  error_for("max_per_host = 2.0", {"max_per_host: expected an integer, got a float"});
  error_for("rate_limit = \"1\"",
            {"rate_limit: expected a number of requests per second, got a string"});
  error_for("max_retry_wait = false", {"max_retry_wait: expected a number of seconds"});
  error_for("fail_on_rate_limit = \"yes\"", {"fail_on_rate_limit: expected a boolean"});
  error_for("insecure = 1", {"insecure: expected a boolean, got an integer"});
  error_for("ca_file = 1", {"ca_file: expected a string, got an integer"});
  error_for("user_agent = []", {"user_agent: expected a string, got an array"});
  error_for("user = 5", {"user: expected a string, got an integer"});
  error_for("proxy = true", {"proxy: expected a string, got a boolean"});
  error_for("no_proxy = [\"a\"]", {"no_proxy: expected a string, got an array"});
  error_for("headers = \"X: 1\"", {"headers: expected a table, got a string"});
  error_for("headers = [\"X: 1\"]", {"headers: expected a table, got an array"});
  error_for("[headers]\nX = 1", {":2: headers.\"X\": expected a string, got an integer"});
  error_for("hosts = \"a.example\"", {"hosts: expected a table, got a string"});
  error_for("[hosts]\n\"a.example\" = \"X: 1\"",
            {":2: hosts.\"a.example\": expected a table, got a string"});
  error_for("[hosts.\"a.example\"]\nheaders = \"X: 1\"",
            {":2: hosts.\"a.example\".headers: expected a table, got a string"});
  error_for("[hosts.\"a.example\".headers]\nX = false",
            {"hosts.\"a.example\".headers.\"X\": expected a string, got a boolean"});
}

TEST_F(ConfigFileTest, NewKeysBadValues) {
  error_for("max_time = 0", {":1: max_time: expected a positive number of seconds, got 0"});
  error_for("max_time = -1", {"max_time: expected a positive number of seconds"});
  error_for("max_time = 2592001", {"max_time: at most 2592000 seconds"});
  error_for("max_body = 0", {":1: max_body: expected a size in bytes >= 1, got 0"});
  error_for("max_body = -5", {"max_body: expected a size in bytes >= 1, got -5"});
  error_for("max_body = \"10 MB\"", {":1: max_body: expected a size in bytes >= 1", "\"10 MB\""});
  error_for("max_body = \"\"", {"max_body: expected a size in bytes"});
  error_for("max_per_host = 0", {":1: max_per_host: expected a positive integer, got 0"});
  for (const char* bad : {"0", "-1", "0.0", "nan", "inf", "-inf"}) {
    SCOPED_TRACE(bad);
    error_for(std::string("rate_limit = ") + bad,
              {":1: rate_limit: expected a positive number of requests per second, got "});
  }
  error_for("rate_limit = 0.0001", {"rate_limit: at least 0.001"});
  error_for("max_retry_wait = -1", {"max_retry_wait: expected a non-negative number of seconds"});
  error_for("max_retry_wait = nan", {"max_retry_wait: expected a non-negative number"});
  error_for("max_retry_wait = 86401", {"max_retry_wait: at most 86400 seconds"});
  error_for("ca_file = \"missing.pem\"", {":1: ca_file: no such file \"missing.pem\""});
  error_for("ca_file = \"\"", {"ca_file: expected a file name"});
  error_for("ca_file = \".\"", {"ca_file: \".\" is a directory"});
  error_for("user_agent = \"\"", {":1: user_agent: expected a non-empty string"});
  error_for("user_agent = \"a\\nb\"", {"user_agent: contains a control character"});
  const std::string message = error_for("user = \"mysecret\"", {":1: user: expected USER:PASS"});
  EXPECT_EQ(message.find("mysecret"), std::string::npos) << message;
  error_for("user = \":x\"", {"user:", "USER is empty"});
  error_for("\nproxy = \"socks5://proxy.example:1080\"", {":2: proxy"});
  error_for("resolve = [\"h:80:1.2.3.4,nope\"]", {"resolve: ADDR must be", "\"nope\""});
}

TEST_F(ConfigFileTest, BadHeaders) {
  error_for("[headers]\nHost = \"x\"", {":2: headers: header \"Host\" is set by corocrawl itself"});
  error_for("[headers]\n\"Bad Name\" = \"x\"", {"headers: \"Bad Name\" is not a header name"});
  error_for("[headers]\n\"\" = \"x\"", {"headers: the header name is empty"});
  error_for("[headers]\nX = \"a\\r\\nEvil: 1\"",
            {":2: headers: the value of header \"X\" contains a control character"});
  error_for("[headers]\nX-A = \"1\"\nx-a = \"2\"",
            {"headers: header \"x-a\" given twice (as \"X-A\")"});
  error_for("[hosts.\"a.example\".headers]\nConnection = \"close\"",
            {":2: hosts.\"a.example\".headers: header \"Connection\" is set by corocrawl"});
}

TEST_F(ConfigFileTest, BadHosts) {
  error_for("[hosts.\"docs.example.com\"]\nfoo = 1",
            {":2: unknown key hosts.\"docs.example.com\".foo"});
  error_for("[hosts.\"a.example\"]\nheader = {}",
            {"unknown key hosts.\"a.example\".header", "did you mean \"headers\""});
  error_for("[hosts.\"bad host\"]",
            {"hosts.\"bad host\": expected a host name or IP address, got \"bad host\""});
  error_for("[hosts.\"\"]", {"hosts.\"\": expected a host name or IP address"});
  error_for("[hosts.\"a/b\"]", {"expected a host name or IP address, got \"a/b\""});
  error_for("[hosts.\"A.example\"]\n[hosts.\"a.example\"]",
            {"hosts: host \"a.example\" given twice"});
}

TEST_F(ConfigFileTest, UnknownKeysNearNewOnes) {
  error_for("max-body = 1", {"unknown key \"max-body\"", "did you mean \"max_body\""});
  error_for("[header]\nX = \"1\"", {"unknown key \"header\"", "did you mean \"headers\""});
  error_for("useragent = \"x\"", {"did you mean \"user_agent\""});
  error_for("http_proxy = \"x\"", {"unknown key \"http_proxy\""});
}

TEST_F(ConfigFileTest, LimitKeys) {
  const settings defaults = apply("");
  EXPECT_FALSE(defaults.crawl.max_urls);
  EXPECT_FALSE(defaults.crawl.max_depth);
  EXPECT_TRUE(defaults.crawl.trap_rules);
  const settings s = apply("max_urls = 5000000000\nmax_depth = 0\ntrap_rules = false\n");
  EXPECT_EQ(s.crawl.max_urls, 5'000'000'000u);
  EXPECT_EQ(s.crawl.max_depth, 0);
  EXPECT_FALSE(s.crawl.trap_rules);
  EXPECT_EQ(apply("max_urls = 1").crawl.max_urls, 1u);
  EXPECT_EQ(apply("max_depth = 2147483647").crawl.max_depth, 2147483647);
  EXPECT_TRUE(apply("trap_rules = true").crawl.trap_rules);
}

TEST_F(ConfigFileTest, BadLimitKeys) {
  error_for("max_urls = \"5\"", {":1: max_urls: expected an integer, got a string"});
  error_for("max_urls = 1.5", {"max_urls: expected an integer, got a float"});
  error_for("max_urls = 0", {":1: max_urls: expected a positive integer, got 0"});
  error_for("max_urls = -1", {"max_urls: expected a positive integer, got -1"});
  error_for("max_depth = \"2\"", {"max_depth: expected an integer, got a string"});
  error_for("max_depth = -1", {":1: max_depth: expected a non-negative integer, got -1"});
  error_for("max_depth = 3000000000", {"max_depth: 3000000000 is too large (at most 2147483647)"});
  error_for("trap_rules = \"no\"", {":1: trap_rules: expected a boolean, got a string"});
  error_for("trap_rules = 0", {"trap_rules: expected a boolean, got an integer"});
  error_for("max_url = 1", {"unknown key \"max_url\"", "did you mean \"max_urls\""});
  error_for("trap_rule = false", {"did you mean \"trap_rules\""});
  error_for("max_deph = 1", {"did you mean \"max_depth\""});
}

TEST_F(ConfigFileTest, CountsAndSizesHaveUpperBounds) {
  EXPECT_EQ(apply("max_tasks = 10000").crawl.max_tasks, 10'000);
  EXPECT_EQ(apply("threads = 1024").crawl.threads, 1'024);
  EXPECT_EQ(apply("max_per_host = 10000").crawl.max_per_host, 10'000);
  EXPECT_EQ(apply("max_redirect = 1000").crawl.max_redirect, 1'000);
  EXPECT_EQ(apply("max_tries = 100").crawl.max_tries, 100);
  EXPECT_EQ(apply("max_body = 1073741824").crawl.max_body, 1u << 30);
  error_for("max_tasks = 2147483647", {":1: max_tasks: 2147483647 is too large (at most 10000)"});
  error_for("threads = 1025", {":1: threads: 1025 is too large (at most 1024)"});
  error_for("max_per_host = 10001", {"max_per_host: 10001 is too large (at most 10000)"});
  error_for("max_redirect = 1001", {"max_redirect: 1001 is too large (at most 1000)"});
  error_for("max_tries = 101", {"max_tries: 101 is too large (at most 100)"});
  error_for("max_body = 1073741825", {":1: max_body: 1073741825 is too large (at most 1GiB)"});
  error_for("max_body = \"2GiB\"", {":1: max_body: \"2GiB\" is too large (at most 1GiB)"});
  error_for("max_body = 9223372036854775807", {"max_body:", "too large (at most 1GiB)"});
}

TEST_F(ConfigFileTest, HeaderLinesServersRejectAreErrors) {
  const std::string big(9'000, 'v');
  error_for("user_agent = \"" + big + "\"",
            {":1: user_agent: the User-Agent header line would be 9012 bytes, more than the 8190"});
  const std::string message =
      error_for("\n[headers]\nX = \"" + big + "\"", {":3: headers: the \"X\" header line"});
  EXPECT_EQ(message.find("vvv"), std::string::npos) << message;
  error_for("[hosts.\"a.example\".headers]\nX = \"" + big + "\"",
            {":2: hosts.\"a.example\".headers: the \"X\" header line would be 9003 bytes"});
  error_for("user = \"me:" + big + "\"", {":1: user: the Authorization header line it becomes"});
}

TEST_F(ConfigFileTest, EndlessOrHugeFilesAreErrors) {
  settings s;
  EXPECT_EQ(error_of([&] { apply_config_file("/dev/zero", s); }, {}),
            "/dev/zero: more than 1048576 bytes (1 MiB), too large for a config file");
  // Exactly the limit is read; one byte more is too much.
  const std::string line = "#" + std::string(1'022, 'x') + "\n";
  std::string content;
  while (content.size() < max_config_file_size)
    content += line;
  ASSERT_EQ(content.size(), max_config_file_size);
  EXPECT_NO_THROW(apply_config_file(write(content), s));
  const fs::path over = write(content + "\n", "over.toml");
  error_of([&] { apply_config_file(over, s); }, {"over.toml: more than 1048576 bytes"});
}

TEST_F(ConfigFileTest, DevNullIsAnEmptyConfig) {
  settings s;
  s.crawl.max_tasks = 7;
  apply_config_file("/dev/null", s);
  EXPECT_EQ(s.crawl.max_tasks, 7);
}

TEST_F(ConfigFileTest, APipeIsReadToItsEnd) {
  // As bash's --config <(...) gives it: /dev/fd/N of a pipe whose writer has written.
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  const std::string content = "max_tasks = 3\n";
  ASSERT_EQ(::write(ends[1], content.data(), content.size()),
            static_cast<::ssize_t>(content.size()));
  ::close(ends[1]);
  settings s;
  apply_config_file("/dev/fd/" + std::to_string(ends[0]), s);
  ::close(ends[0]);
  EXPECT_EQ(s.crawl.max_tasks, 3);
}

TEST_F(ConfigFileTest, AFifoWithoutAWriterIsAnErrorNotAHang) {
  const fs::path fifo = dir_ / "fifo.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  settings s;
  error_of([&] { apply_config_file(fifo, s); }, {"fifo.toml: nothing to read", "no writer"});
}

// ---- validate -------------------------------------------------------------------------------

settings with_root() {
  settings s;
  s.crawl.roots = {"http://example.com/"};
  return s;
}

TEST(Validate, DefaultsWithARootPass) {
  EXPECT_NO_THROW(validate(with_root()));
}

TEST(Validate, NeedsARoot) {
  error_of([] { validate(settings{}); },
           {"no root to crawl: give a URL or a directory, or roots = [...] in corocrawl.toml"});
}

TEST(Validate, EveryRootMustClassify) {
  settings s = with_root();
  s.crawl.roots.push_back("ftp://example.com/");
  error_of([&] { validate(s); }, {"root \"ftp://example.com/\"", "unsupported scheme"});
}

TEST(Validate, ExcludePatternsMustCompile) {
  settings s = with_root();
  s.crawl.exclude = {"fine", "[unclosed"};
  error_of([&] { validate(s); }, {"exclude", "[unclosed"});
}

TEST(Validate, RangesOfValuesSetByALibraryUser) {
  settings s = with_root();
  s.crawl.max_tasks = 0;
  error_of([&] { validate(s); }, {"max_tasks"});
  s = with_root();
  s.crawl.threads = -1;
  EXPECT_EQ(error_of([&] { validate(s); }, {}), "threads: expected a positive integer, got -1");
  s.crawl.threads = 0;
  EXPECT_EQ(error_of([&] { validate(s); }, {}), "threads: expected a positive integer, got 0");
  s.crawl.threads = std::nullopt;  // one per core but one
  EXPECT_NO_THROW(validate(s));
  s.crawl.threads = 1;
  EXPECT_NO_THROW(validate(s));
  s = with_root();
  s.crawl.max_tries = 0;
  error_of([&] { validate(s); }, {"max_tries"});
  s = with_root();
  s.crawl.max_redirect = -1;
  error_of([&] { validate(s); }, {"max_redirect"});
  s = with_root();
  s.crawl.max_redirect = 0;
  EXPECT_NO_THROW(validate(s));
  s.crawl.timeout = milliseconds(0);
  error_of([&] { validate(s); }, {"timeout"});
}

TEST(Validate, NewRangesOfValuesSetByALibraryUser) {
  const auto fails = [](std::string_view part, const std::function<void(crawl_options&)>& change) {
    SCOPED_TRACE(part);
    settings s = with_root();
    change(s.crawl);
    error_of([&] { validate(s); }, {part});
  };
  fails("max_per_host", [](crawl_options& c) { c.max_per_host = 0; });
  fails("rate_limit", [](crawl_options& c) { c.rate_limit = -1; });
  fails("rate_limit",
        [](crawl_options& c) { c.rate_limit = std::numeric_limits<double>::infinity(); });
  fails("rate_limit",
        [](crawl_options& c) { c.rate_limit = std::numeric_limits<double>::quiet_NaN(); });
  fails("rate_limit", [](crawl_options& c) { c.rate_limit = 1e-9; });
  fails("max_retry_wait", [](crawl_options& c) { c.max_retry_wait = milliseconds(-1); });
  fails("max_time", [](crawl_options& c) { c.max_time = milliseconds(0); });
  fails("max_time", [](crawl_options& c) { c.max_time = milliseconds(-5); });
  fails("max_body", [](crawl_options& c) { c.max_body = 0; });
  fails("resolve: no address for h:80", [](crawl_options& c) { c.resolve = {{"h", 80, {}}}; });
  fails("user_agent", [](crawl_options& c) { c.user_agent = "a\r\nX: y"; });
  fails("headers: header \"Host\"", [](crawl_options& c) { c.headers = {{"Host", "x"}}; });
  fails("headers: the value", [](crawl_options& c) { c.headers = {{"X", "a\r\nY: z"}}; });
  fails("headers: \"A B\"", [](crawl_options& c) { c.headers = {{"A B", "x"}}; });
  fails("hosts.\"a.example\".headers", [](crawl_options& c) {
    c.host_headers = {{"a.example", {{"X", "a\nb"}}}};
  });
  fails("hosts", [](crawl_options& c) { c.host_headers = {{"", {}}}; });
  fails("hosts: host names must be lower-case, got \"Docs.Example\"", [](crawl_options& c) {
    c.host_headers = {{"Docs.Example", {}}};
  });
  fails("user", [](crawl_options& c) { c.user = "nocolon"; });
  fails("proxy.http_proxy", [](crawl_options& c) { c.proxy.http_proxy = "ftp://x"; });
  fails("proxy.https_proxy", [](crawl_options& c) { c.proxy.https_proxy = "https://x"; });
  fails("ca_file", [](crawl_options& c) { c.ca_file = "/nonexistent/corocrawl/ca.pem"; });
}

TEST(Validate, NewValuesInRangePass) {
  settings s = with_root();
  s.crawl.rate_limit = 0;  // unlimited
  s.crawl.max_retry_wait = milliseconds(0);
  s.crawl.max_time = milliseconds(1);
  s.crawl.max_body = 1;
  s.crawl.max_per_host = 1;
  s.crawl.resolve = {{"h", 80, {"10.0.0.1", "::1"}}};
  s.crawl.headers = {{"X-A", "  untrimmed\tis fine "}};
  s.crawl.host_headers = {{"a.example", {{"Authorization", "Bearer x"}}}};
  s.crawl.user = "me:";
  s.crawl.proxy = {"http://proxy.example:3128", "", "*"};
  EXPECT_NO_THROW(validate(s));
  s.crawl.rate_limit = 0.5;
  EXPECT_NO_THROW(validate(s));
}

TEST(Validate, LimitsSetByALibraryUser) {
  settings s = with_root();
  s.crawl.max_urls = 1;
  s.crawl.max_depth = 0;
  s.crawl.trap_rules = false;
  EXPECT_NO_THROW(validate(s));
  s.crawl.max_urls = std::numeric_limits<std::uint64_t>::max();
  s.crawl.max_depth = std::numeric_limits<int>::max();
  EXPECT_NO_THROW(validate(s));
  s.crawl.max_urls = 0;
  EXPECT_EQ(error_of([&] { validate(s); }, {}), "max_urls: expected a positive integer, got 0");
  s.crawl.max_urls.reset();
  s.crawl.max_depth = -1;
  EXPECT_EQ(error_of([&] { validate(s); }, {}),
            "max_depth: expected a non-negative integer, got -1");
}

TEST(Validate, UpperBoundsForALibraryUser) {
  const auto fails = [](std::string_view message,
                        const std::function<void(crawl_options&)>& change) {
    SCOPED_TRACE(message);
    settings s = with_root();
    change(s.crawl);
    EXPECT_EQ(error_of([&] { validate(s); }, {}), message);
  };
  fails("max_tasks: 2147483647 is too large (at most 10000)",
        [](crawl_options& c) { c.max_tasks = 2147483647; });
  fails("threads: 1025 is too large (at most 1024)", [](crawl_options& c) { c.threads = 1025; });
  fails("max_per_host: 10001 is too large (at most 10000)",
        [](crawl_options& c) { c.max_per_host = 10'001; });
  fails("max_redirect: 1001 is too large (at most 1000)",
        [](crawl_options& c) { c.max_redirect = 1'001; });
  fails("max_tries: 101 is too large (at most 100)", [](crawl_options& c) { c.max_tries = 101; });
  fails("max_body: 18446744073709551615 is too large (at most 1GiB)",
        [](crawl_options& c) { c.max_body = std::numeric_limits<std::uint64_t>::max(); });
  fails("timeout: at most 86400 seconds, got 86400001 ms",
        [](crawl_options& c) { c.timeout = milliseconds(86'400'001); });
  fails("timeout: at most 86400 seconds, got 9223372036854775807 ms",
        [](crawl_options& c) { c.timeout = milliseconds::max(); });
  fails("max_time: at most 2592000 seconds, got 2592000001 ms",
        [](crawl_options& c) { c.max_time = milliseconds(2'592'000'001); });
  fails("max_retry_wait: at most 86400 seconds, got 86400001 ms",
        [](crawl_options& c) { c.max_retry_wait = milliseconds(86'400'001); });

  settings s = with_root();
  s.crawl.max_tasks = 10'000;
  s.crawl.threads = 1'024;
  s.crawl.max_per_host = 10'000;
  s.crawl.max_redirect = 1'000;
  s.crawl.max_tries = 100;
  s.crawl.max_body = max_body_limit;
  s.crawl.timeout = milliseconds(86'400'000);
  s.crawl.max_time = milliseconds(2'592'000'000);
  s.crawl.max_retry_wait = milliseconds(86'400'000);
  EXPECT_NO_THROW(validate(s));
}

TEST(Validate, HeaderLinesOfALibraryUser) {
  settings s = with_root();
  s.crawl.user_agent = std::string(50'000'000, 'a');
  error_of([&] { validate(s); }, {"user_agent: the User-Agent header line would be 50000012"});
  s = with_root();
  s.crawl.headers = {{"X", std::string(9'000, 'v')}};
  error_of([&] { validate(s); }, {"headers: the \"X\" header line would be 9003 bytes"});
  s = with_root();
  s.crawl.user = "me:" + std::string(1'000'000, 's');
  error_of([&] { validate(s); }, {"user: the Authorization header line it becomes"});
  s = with_root();
  s.crawl.proxy.https_proxy = "http://me:" + std::string(9'000, 's') + "@p:1";
  error_of([&] { validate(s); }, {"proxy.https_proxy: the Proxy-Authorization header line"});
}

TEST(Validate, AllHeaderLinesOfARequestTogether) {
  // Nine lines of 8000 bytes: each fits, together they are more than 64 KiB.
  const auto line = [](const std::string& name) {
    return http_header{name, std::string(8'000 - name.size() - 2, 'v')};
  };
  settings s = with_root();
  for (int i = 0; i < 8; ++i)
    s.crawl.headers.push_back(line("X-" + std::to_string(i)));
  EXPECT_NO_THROW(validate(s));  // 64000 bytes
  s.crawl.headers.push_back(line("X-8"));
  EXPECT_EQ(error_of([&] { validate(s); }, {}),
            "headers: user_agent, user, headers and hosts add 72000 bytes of header lines to a "
            "request, more than the 65536 allowed");
  // Only one host's headers go with a request: the largest table counts, not their sum.
  s = with_root();
  for (int i = 0; i < 6; ++i) {
    s.crawl.host_headers["a.example"].push_back(line("A-" + std::to_string(i)));
    s.crawl.host_headers["b.example"].push_back(line("B-" + std::to_string(i)));
  }
  EXPECT_NO_THROW(validate(s));  // 48000 bytes per host
  s.crawl.user_agent = std::string(7'000, 'a');
  s.crawl.user = "me:" + std::string(6'000, 's');
  EXPECT_NO_THROW(validate(s));  // 48000 + 7012 + 8025
  s.crawl.headers = {line("X-1")};
  error_of([&] { validate(s); }, {"headers:", "71037 bytes", "more than the 65536 allowed"});
}

}  // namespace
}  // namespace corocrawl
