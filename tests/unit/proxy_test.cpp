// Proxy URLs (curl's forms) and the no_proxy rules.

#include "http/proxy.hpp"

#include <gtest/gtest.h>

#include <string>

#include "corocrawl/errors.hpp"

namespace corocrawl {
namespace {

// The config_error message parse_proxy throws; fails the test when it does not throw.
std::string proxy_error(std::string_view url, std::string_view name = "--proxy") {
  try {
    parse_proxy(name, url);
  } catch (const config_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no config_error for \"" << url << "\"";
  return {};
}

// ---- parse_proxy: accepted forms --------------------------------------------------------------

TEST(ParseProxy, HttpUrlWithPort) {
  EXPECT_EQ(parse_proxy("--proxy", "http://proxy.example:3128"),
            (proxy_endpoint{.host = "proxy.example", .port = 3128}));
}

TEST(ParseProxy, HostAndPortWithoutScheme) {
  EXPECT_EQ(parse_proxy("--proxy", "proxy.example:8080"),
            (proxy_endpoint{.host = "proxy.example", .port = 8080}));
}

TEST(ParseProxy, DefaultPortIs1080) {
  EXPECT_EQ(parse_proxy("--proxy", "http://proxy.example").port, 1080);
  EXPECT_EQ(parse_proxy("--proxy", "proxy.example").port, 1080);
}

TEST(ParseProxy, SchemeAndHostAreCaseInsensitive) {
  EXPECT_EQ(parse_proxy("--proxy", "HTTP://Proxy.Example:3128"),
            (proxy_endpoint{.host = "proxy.example", .port = 3128}));
}

TEST(ParseProxy, RootPathAllowed) {
  EXPECT_EQ(parse_proxy("--proxy", "http://proxy.example:3128/"),
            (proxy_endpoint{.host = "proxy.example", .port = 3128}));
}

TEST(ParseProxy, Ipv4Literal) {
  EXPECT_EQ(parse_proxy("--proxy", "127.0.0.1:3128"),
            (proxy_endpoint{.host = "127.0.0.1", .port = 3128}));
}

TEST(ParseProxy, Ipv6LiteralLosesBrackets) {
  EXPECT_EQ(parse_proxy("--proxy", "http://[::1]:3128"),
            (proxy_endpoint{.host = "::1", .port = 3128}));
  EXPECT_EQ(parse_proxy("--proxy", "[::1]:3128"), (proxy_endpoint{.host = "::1", .port = 3128}));
  EXPECT_EQ(parse_proxy("--proxy", "http://[FE80::1]").host, "fe80::1");
}

TEST(ParseProxy, PortLimits) {
  EXPECT_EQ(parse_proxy("--proxy", "http://p:1").port, 1);
  EXPECT_EQ(parse_proxy("--proxy", "http://p:65535").port, 65535);
}

TEST(ParseProxy, CredentialsBecomeBasicAuthorization) {
  const proxy_endpoint p = parse_proxy("--proxy", "http://alice:secret@proxy.example:3128");
  EXPECT_EQ(p.host, "proxy.example");
  EXPECT_EQ(p.port, 3128);
  // base64("alice:secret")
  EXPECT_EQ(p.authorization, "Basic YWxpY2U6c2VjcmV0");
}

TEST(ParseProxy, CredentialsArePercentDecoded) {
  // "p@ss:w" is sent as typed, after decoding: base64("bob:p@ss:w").
  EXPECT_EQ(parse_proxy("--proxy", "http://bob:p%40ss%3aw@proxy.example").authorization,
            "Basic Ym9iOnBAc3M6dw==");
  EXPECT_EQ(parse_proxy("--proxy", "b%6Fb:x@proxy.example").authorization,
            "Basic Ym9iOng=");  // base64("bob:x")
}

TEST(ParseProxy, UserWithoutPasswordHasEmptyPassword) {
  EXPECT_EQ(parse_proxy("--proxy", "http://bob@proxy.example").authorization,
            "Basic Ym9iOg==");  // base64("bob:")
}

TEST(ParseProxy, NoCredentialsNoAuthorization) {
  EXPECT_FALSE(parse_proxy("--proxy", "http://proxy.example").authorization.has_value());
}

// ---- parse_proxy: errors ------------------------------------------------------------------

TEST(ParseProxy, RejectsOtherSchemes) {
  EXPECT_EQ(proxy_error("socks5://h:1080"),
            "--proxy: \"socks5://h:1080\": only http:// proxies are supported");
  for (const char* url : {"https://h:3128", "socks4://h", "socks5h://h", "ftp://h", "HTTPS://h"}) {
    EXPECT_NE(proxy_error(url).find("only http:// proxies"), std::string::npos) << url;
  }
}

TEST(ParseProxy, RejectsMissingHost) {
  for (const char* url : {"", "http://", "http://:3128", "http:///", "http://user:pw@"}) {
    EXPECT_NE(proxy_error(url).find("no host"), std::string::npos) << url;
  }
}

TEST(ParseProxy, RejectsBadPorts) {
  for (const char* url :
       {"http://h:0", "http://h:65536", "http://h:99999", "http://h:4294967297", "http://h:"}) {
    EXPECT_NE(proxy_error(url).find("port"), std::string::npos) << url;
  }
}

TEST(ParseProxy, RejectsPathQueryAndFragment) {
  EXPECT_EQ(proxy_error("http://h:3128/path"),
            "--proxy: \"http://h:3128/path\": a proxy URL cannot have a path");
  for (const char* url : {"http://h:3128//", "h:3128/x", "h:80/x?u=http://y"}) {
    EXPECT_NE(proxy_error(url).find("cannot have a path"), std::string::npos) << url;
  }
  for (const char* url : {"http://h/?", "http://h?x=1", "http://h#frag", "h:3128?u=http://x"}) {
    EXPECT_NE(proxy_error(url).find("cannot have a query or fragment"), std::string::npos) << url;
  }
}

TEST(ParseProxy, RejectsMalformedUrls) {
  for (const char* url :
       {"http://h h:3128", " http://h", "http://h:3128 ", "http://[::1", "http://ex%20ample.com",
        "http://[v1.x]", "http://@h", "http://a%3Ab:c@h"}) {
    EXPECT_THROW(parse_proxy("--proxy", url), config_error) << url;
  }
}

TEST(ParseProxy, MessageNamesTheOptionAndValueOnOneLine) {
  const std::string message = proxy_error("http://h:\n1", "https_proxy");
  EXPECT_EQ(message.rfind("https_proxy: \"http://h:\\x0a1\": ", 0), 0U) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

TEST(ParseProxy, MessageHidesThePassword) {
  const std::string message = proxy_error("socks5://bob:hunter2@h:1080");
  EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
  EXPECT_NE(message.find("socks5://bob:***@h:1080"), std::string::npos) << message;
}

// ---- bypasses_proxy: loopback -------------------------------------------------------------

TEST(BypassesProxy, LoopbackAlwaysDirect) {
  for (const char* host :
       {"localhost", "LocalHost", "localhost.", "a.localhost", "b.a.localhost", "127.0.0.1",
        "127.1.2.3", "127.255.255.255", "::1", "0:0:0:0:0:0:0:1",
        "0000:0000:0000:0000:0000:0000:0000:0001", "[::1]", "::ffff:127.0.0.1"}) {
    EXPECT_TRUE(bypasses_proxy(host, "")) << host;
  }
}

TEST(BypassesProxy, LookalikesOfLoopbackAreNot) {
  for (const char* host : {"127.0.0.1.example.com", "localhost.example", "notlocalhost",
                           "128.0.0.1", "126.255.255.255", "127.0.0.256", "127.1", "::2",
                           "::ffff:10.0.0.1", "1::", "example.com", ""}) {
    EXPECT_FALSE(bypasses_proxy(host, "")) << host;
  }
}

// ---- bypasses_proxy: names ----------------------------------------------------------------

TEST(BypassesProxy, NameMatchesItselfAndSubdomainsOnLabelBoundaries) {
  EXPECT_TRUE(bypasses_proxy("example.com", "example.com"));
  EXPECT_TRUE(bypasses_proxy("a.example.com", "example.com"));
  EXPECT_TRUE(bypasses_proxy("b.a.example.com", "example.com"));
  EXPECT_FALSE(bypasses_proxy("badexample.com", "example.com"));
  EXPECT_FALSE(bypasses_proxy("example.com.evil", "example.com"));
  EXPECT_FALSE(bypasses_proxy("com", "example.com"));
}

TEST(BypassesProxy, LeadingDotMeansTheSame) {
  EXPECT_TRUE(bypasses_proxy("example.com", ".example.com"));
  EXPECT_TRUE(bypasses_proxy("a.example.com", ".example.com"));
  EXPECT_FALSE(bypasses_proxy("badexample.com", ".example.com"));
  EXPECT_TRUE(bypasses_proxy("a.example.com", "*.example.com"));
}

TEST(BypassesProxy, CaseAndTrailingDotsIgnored) {
  EXPECT_TRUE(bypasses_proxy("a.example.com", "EXAMPLE.Com"));
  EXPECT_TRUE(bypasses_proxy("A.Example.COM", "example.com"));
  EXPECT_TRUE(bypasses_proxy("example.com.", "example.com"));
  EXPECT_TRUE(bypasses_proxy("example.com", "example.com."));
}

TEST(BypassesProxy, ListWithSpacesAndEmptyEntries) {
  const std::string_view list = " internal.test ,, example.org\t, ";
  EXPECT_TRUE(bypasses_proxy("internal.test", list));
  EXPECT_TRUE(bypasses_proxy("www.example.org", list));
  EXPECT_FALSE(bypasses_proxy("example.net", list));
  EXPECT_FALSE(bypasses_proxy("example.net", ",,, "));
}

TEST(BypassesProxy, EntriesAreTrimmedAsCurlDoesVerticalTabIncluded) {
  EXPECT_TRUE(bypasses_proxy("internal.test", "\v\f internal.test\r\n\v"));
  EXPECT_FALSE(bypasses_proxy("internal.test", "\x01internal.test"));
}

TEST(BypassesProxy, StarAloneMatchesEverything) {
  EXPECT_TRUE(bypasses_proxy("example.com", "*"));
  EXPECT_TRUE(bypasses_proxy("10.1.2.3", "example.org, *"));
  EXPECT_TRUE(bypasses_proxy("2001:db8::1", " * "));
  // "*" inside a longer entry is no wildcard.
  EXPECT_FALSE(bypasses_proxy("example.com", "*example.com"));
}

TEST(BypassesProxy, PortSuffixIgnored) {
  EXPECT_TRUE(bypasses_proxy("example.com", "example.com:8080"));
  EXPECT_TRUE(bypasses_proxy("a.example.com", ".example.com:443"));
  EXPECT_TRUE(bypasses_proxy("10.0.0.5", "10.0.0.5:80"));
  EXPECT_TRUE(bypasses_proxy("2001:db8::1", "[2001:db8::1]:80"));
}

TEST(BypassesProxy, NameNeverMatchesAnIpLiteral) {
  EXPECT_FALSE(bypasses_proxy("10.0.0.1", "0.0.1"));
  EXPECT_FALSE(bypasses_proxy("10.0.0.1", "0.1"));
}

// ---- bypasses_proxy: IP literals and CIDR -------------------------------------------------

TEST(BypassesProxy, Ipv4LiteralMatchesItselfOnly) {
  EXPECT_TRUE(bypasses_proxy("192.168.1.10", "192.168.1.10"));
  EXPECT_FALSE(bypasses_proxy("192.168.1.100", "192.168.1.10"));
  EXPECT_FALSE(bypasses_proxy("192.168.1.1", "192.168.1.10"));
}

TEST(BypassesProxy, Ipv6LiteralMatchesByValue) {
  EXPECT_TRUE(bypasses_proxy("2001:db8::1", "2001:db8::1"));
  EXPECT_TRUE(bypasses_proxy("2001:db8::1", "2001:DB8:0:0:0:0:0:1"));
  EXPECT_TRUE(bypasses_proxy("2001:db8:0:0:0:0:0:1", "[2001:db8::1]"));
  EXPECT_FALSE(bypasses_proxy("2001:db8::2", "2001:db8::1"));
  EXPECT_FALSE(bypasses_proxy("2001:db8::2", "[2001:db8::1]:80"));
}

TEST(BypassesProxy, Ipv4Cidr) {
  EXPECT_TRUE(bypasses_proxy("10.0.0.1", "10.0.0.0/8"));
  EXPECT_TRUE(bypasses_proxy("10.255.255.255", "10.0.0.0/8"));
  EXPECT_FALSE(bypasses_proxy("11.0.0.0", "10.0.0.0/8"));
  EXPECT_TRUE(bypasses_proxy("192.168.5.7", "192.168.4.0/23"));
  EXPECT_FALSE(bypasses_proxy("192.168.6.1", "192.168.4.0/23"));
  EXPECT_TRUE(bypasses_proxy("192.0.2.1", "192.0.2.1/32"));
  EXPECT_FALSE(bypasses_proxy("192.0.2.2", "192.0.2.1/32"));
  EXPECT_TRUE(bypasses_proxy("203.0.113.9", "0.0.0.0/0"));
  // A block never covers a name, even one that looks like an address.
  EXPECT_FALSE(bypasses_proxy("10.example.com", "10.0.0.0/8"));
}

TEST(BypassesProxy, BadCidrEntriesAreIgnored) {
  for (const char* entry : {"10.0.0.0/33", "10.0.0.0/", "10.0.0.0/x", "10.0.0/8", "/8",
                            "10.0.0.0/-1", "10.0.0.0/008", "example.com/8", "::1/128"}) {
    EXPECT_FALSE(bypasses_proxy("10.0.0.1", entry)) << entry;
    // ...and do not spoil the rest of the list.
    EXPECT_TRUE(bypasses_proxy("10.0.0.1", std::string(entry) + ",10.0.0.1")) << entry;
  }
}

}  // namespace
}  // namespace corocrawl
