// Extra request headers per host, Basic credentials and base64.

#include "request_headers.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace corocrawl {
namespace {

using headers = std::vector<http_header>;

const std::vector<std::string> kRoots = {"example.com", "127.0.0.1"};

crawl_options options_with_identity() {
  crawl_options options;
  options.headers = {{"Accept-Language", "en"}, {"X-Token", "abc"}};
  options.user = "alice:secret";
  options.host_headers["cdn.example.net"] = {{"X-Cdn-Key", "k1"}};
  return options;
}

// ---- headers_for_host -----------------------------------------------------------------------

TEST(HeadersForHost, RootHostGetsHeadersAndAuthorization) {
  EXPECT_EQ(headers_for_host(options_with_identity(), kRoots, "example.com"),
            (headers{{"Authorization", "Basic YWxpY2U6c2VjcmV0"},
                     {"Accept-Language", "en"},
                     {"X-Token", "abc"}}));
  EXPECT_EQ(headers_for_host(options_with_identity(), kRoots, "127.0.0.1").size(), 3U);
}

TEST(HeadersForHost, OtherHostsOfTheSiteGetNothing) {
  const crawl_options options = options_with_identity();
  for (const char* host :
       {"www.example.com", "a.example.com", "example.org", "badexample.com", "127.0.0.2", ""}) {
    EXPECT_TRUE(headers_for_host(options, kRoots, host).empty()) << host;
  }
}

TEST(HeadersForHost, PerHostTableGoesToExactlyThatHost) {
  const crawl_options options = options_with_identity();
  EXPECT_EQ(headers_for_host(options, kRoots, "cdn.example.net"), (headers{{"X-Cdn-Key", "k1"}}));
  EXPECT_TRUE(headers_for_host(options, kRoots, "a.cdn.example.net").empty());
  EXPECT_TRUE(headers_for_host(options, kRoots, "example.net").empty());
}

TEST(HeadersForHost, RootAndPerHostCombineWithPerHostWinning) {
  crawl_options options = options_with_identity();
  options.host_headers["example.com"] = {{"x-token", "override"}, {"X-Extra", "1"}};
  EXPECT_EQ(headers_for_host(options, kRoots, "example.com"),
            (headers{{"Authorization", "Basic YWxpY2U6c2VjcmV0"},
                     {"Accept-Language", "en"},
                     {"x-token", "override"},
                     {"X-Extra", "1"}}));
}

TEST(HeadersForHost, PerHostAuthorizationReplacesUser) {
  crawl_options options = options_with_identity();
  options.host_headers["example.com"] = {{"AUTHORIZATION", "Bearer t"}};
  EXPECT_EQ(
      headers_for_host(options, kRoots, "example.com"),
      (headers{{"AUTHORIZATION", "Bearer t"}, {"Accept-Language", "en"}, {"X-Token", "abc"}}));
}

TEST(HeadersForHost, ExplicitAuthorizationHeaderWinsOverUser) {
  crawl_options options;
  options.user = "alice:secret";
  options.headers = {{"authorization", "Bearer t"}};
  EXPECT_EQ(headers_for_host(options, kRoots, "example.com"),
            (headers{{"authorization", "Bearer t"}}));
}

TEST(HeadersForHost, RepeatedNameKeepsFirstPositionAndLastValue) {
  crawl_options options;
  options.headers = {{"X-A", "1"}, {"X-B", "2"}, {"x-a", "3"}, {"X-C", "4"}, {"X-A", "5"}};
  EXPECT_EQ(headers_for_host(options, kRoots, "example.com"),
            (headers{{"X-A", "5"}, {"X-B", "2"}, {"X-C", "4"}}));
}

TEST(HeadersForHost, NothingConfiguredNothingSent) {
  const crawl_options options;
  EXPECT_TRUE(headers_for_host(options, kRoots, "example.com").empty());
  EXPECT_TRUE(headers_for_host(options, {}, "example.com").empty());
}

TEST(HeadersForHost, UserAloneGivesOnlyAuthorization) {
  crawl_options options;
  options.user = "bob:";
  EXPECT_EQ(headers_for_host(options, kRoots, "example.com"),
            (headers{{"Authorization", "Basic Ym9iOg=="}}));
}

// ---- basic_authorization and base64 -------------------------------------------------------

TEST(BasicAuthorization, Rfc7617Example) {
  EXPECT_EQ(basic_authorization("Aladdin:open sesame"), "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
}

TEST(Base64, Rfc4648TestVectors) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foob"), "Zm9vYg==");
  EXPECT_EQ(base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
}

TEST(Base64, HighBytesAndWholeAlphabet) {
  using namespace std::string_literals;
  EXPECT_EQ(base64("\xff\xff\xff"), "////");
  EXPECT_EQ(base64("\xfb\xef\xbe"), "++++");
  EXPECT_EQ(base64("\0\0\0"s), "AAAA");
  EXPECT_EQ(base64("\0"s), "AA==");
  EXPECT_EQ(base64("\x00\x10\x83\x10\x51\x87\x20\x92\x8b\x30\xd3\x8f\x41\x14\x93\x51\x55\x97"
                   "\x61\x96\x9b\x71\xd7\x9f\x82\x18\xa3\x92\x59\xa7\xa2\x9a\xab\xb2\xdb\xaf"
                   "\xc3\x1c\xb3\xd3\x5d\xb7\xe3\x9e\xbb\xf3\xdf\xbf"s),
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
}

}  // namespace
}  // namespace corocrawl
