// Extra request headers per origin and per host, Basic credentials and base64.

#include "http/request_headers.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "corocrawl/errors.hpp"
#include "url/root.hpp"
#include "url/url.hpp"

namespace corocrawl {
namespace {

using headers = std::vector<http_header>;

/// The roots https://example.com/ and http://127.0.0.1:8080/, as origins.
const std::vector<root_origin> kRoots = {{true, "example.com", 443, std::nullopt},
                                         {false, "127.0.0.1", 8080, std::nullopt}};

crawl_options options_with_identity() {
  crawl_options options;
  options.headers = {{"Accept-Language", "en"}, {"X-Token", "abc"}};
  options.user = "alice:secret";
  options.host_headers["cdn.example.net"] = {{"X-Cdn-Key", "k1"}};
  return options;
}

/// The request target of `url` (a normalised http(s) URL).
http_target target(std::string_view url) {
  auto t = split_http_url(url);
  EXPECT_TRUE(t.has_value()) << url;
  return t.value_or(http_target{});
}

std::vector<http_header> headers_for(const crawl_options& options, std::string_view url,
                                     std::span<const root_origin> roots = kRoots) {
  return headers_for_target(options, roots, target(url));
}

// ---- origins_of ---------------------------------------------------------------------------

TEST(OriginsOf, OneOriginPerSchemeHostAndPort) {
  const std::vector<url_root> roots = {{.url = "http://h/a"},
                                       {.url = "http://h:80/b"},
                                       {.url = "https://h/"},
                                       {.url = "http://h:8080/"},
                                       {.url = "http://[::1]:81/"}};
  const auto origins = origins_of(roots);
  ASSERT_EQ(origins.size(), 4U);
  EXPECT_FALSE(origins[0].https);
  EXPECT_EQ(origins[0].port, 80);
  EXPECT_TRUE(origins[1].https);
  EXPECT_EQ(origins[1].port, 443);
  EXPECT_EQ(origins[2].port, 8080);
  EXPECT_EQ(origins[3].host, "::1");
  for (const auto& origin : origins)
    EXPECT_EQ(origin.user, std::nullopt);
}

TEST(OriginsOf, UserinfoCredentialsBelongToTheirOrigin) {
  const std::vector<url_root> roots = {{.url = "http://h/"},
                                       {.url = "http://h/x", .user = "a:1"},
                                       {.url = "http://h/y", .user = "a:1"},
                                       {.url = "http://h:81/", .user = "b:2"}};
  const auto origins = origins_of(roots);
  ASSERT_EQ(origins.size(), 2U);
  EXPECT_EQ(origins[0].user, "a:1");
  EXPECT_EQ(origins[1].user, "b:2");
}

TEST(OriginsOf, DifferentCredentialsForOneOriginAreAConfigError) {
  const std::vector<url_root> roots = {{.url = "http://h/x", .user = "a:secret1"},
                                       {.url = "http://h/y", .user = "a:secret2"}};
  try {
    origins_of(roots);
    ADD_FAILURE() << "accepted";
  } catch (const config_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("http://h:80"), std::string::npos) << message;
    EXPECT_EQ(message.find("secret"), std::string::npos) << message;
  }
}

// ---- headers_for_target: the roots' origins -------------------------------------------------

TEST(HeadersForTarget, RootOriginGetsHeadersAndAuthorization) {
  const auto all = headers{
      {"Authorization", "Basic YWxpY2U6c2VjcmV0"}, {"Accept-Language", "en"}, {"X-Token", "abc"}};
  EXPECT_EQ(headers_for(options_with_identity(), "https://example.com/a"), all);
  EXPECT_EQ(headers_for(options_with_identity(), "https://example.com:443/b?c"), all);
  EXPECT_EQ(headers_for(options_with_identity(), "http://127.0.0.1:8080/"), all);
}

TEST(HeadersForTarget, AnotherPortOrSchemeOfARootHostGetsNothing) {
  const crawl_options options = options_with_identity();
  for (const char* url :
       {"http://example.com/",  // https root: never over http, port 80
        "http://example.com:443/", "http://example.com:8443/", "https://example.com:8443/",
        "http://127.0.0.1/", "http://127.0.0.1:8081/", "https://127.0.0.1:8080/",
        "https://127.0.0.1/"}) {
    EXPECT_TRUE(headers_for(options, url).empty()) << url;
  }
}

TEST(HeadersForTarget, OtherHostsOfTheSiteGetNothing) {
  const crawl_options options = options_with_identity();
  for (const char* url :
       {"https://www.example.com/", "https://a.example.com/", "https://example.org/",
        "https://badexample.com/", "http://127.0.0.2:8080/"}) {
    EXPECT_TRUE(headers_for(options, url).empty()) << url;
  }
}

TEST(HeadersForTarget, UserinfoOfARootWinsOverUserOnItsOriginOnly) {
  const crawl_options options = options_with_identity();
  const std::vector<root_origin> roots = {{true, "example.com", 443, "bob:pw"},
                                          {false, "127.0.0.1", 8080, std::nullopt}};
  EXPECT_EQ(headers_for(options, "https://example.com/", roots).at(0),
            (http_header{"Authorization", "Basic Ym9iOnB3"}));
  EXPECT_EQ(headers_for(options, "http://127.0.0.1:8080/", roots).at(0),
            (http_header{"Authorization", "Basic YWxpY2U6c2VjcmV0"}));
  crawl_options without_user;
  EXPECT_EQ(headers_for(without_user, "https://example.com/", roots),
            (headers{{"Authorization", "Basic Ym9iOnB3"}}));
  EXPECT_TRUE(headers_for(without_user, "http://127.0.0.1:8080/", roots).empty());
  EXPECT_TRUE(headers_for(without_user, "http://example.com/", roots).empty());
}

TEST(HeadersForTarget, UserinfoOfALinkGivesNothing) {
  // split_http_url drops a link's userinfo: it names no credential to send.
  const auto t = target("http://mallory:pw@evil.test:8080/x");
  EXPECT_EQ(t.host, "evil.test");
  EXPECT_EQ(t.target, "/x");
  EXPECT_TRUE(headers_for_target(crawl_options{}, kRoots, t).empty());
  // To a root's origin, the crawl's own credentials go, not the link's.
  EXPECT_EQ(headers_for(options_with_identity(), "https://mallory:pw@example.com/").at(0),
            (http_header{"Authorization", "Basic YWxpY2U6c2VjcmV0"}));
}

TEST(HeadersForTarget, ExplicitAuthorizationHeaderWinsOverUserAndUserinfo) {
  crawl_options options;
  options.user = "alice:secret";
  options.headers = {{"authorization", "Bearer t"}};
  EXPECT_EQ(headers_for(options, "https://example.com/"), (headers{{"authorization", "Bearer t"}}));
  const std::vector<root_origin> roots = {{true, "example.com", 443, "bob:pw"}};
  EXPECT_EQ(headers_for(options, "https://example.com/", roots),
            (headers{{"authorization", "Bearer t"}}));
}

TEST(HeadersForTarget, RepeatedNameKeepsFirstPositionAndLastValue) {
  crawl_options options;
  options.headers = {{"X-A", "1"}, {"X-B", "2"}, {"x-a", "3"}, {"X-C", "4"}, {"X-A", "5"}};
  EXPECT_EQ(headers_for(options, "https://example.com/"),
            (headers{{"X-A", "5"}, {"X-B", "2"}, {"X-C", "4"}}));
}

TEST(HeadersForTarget, NothingConfiguredNothingSent) {
  const crawl_options options;
  EXPECT_TRUE(headers_for(options, "https://example.com/").empty());
  EXPECT_TRUE(headers_for(options_with_identity(), "https://example.com/", {}).empty());
}

TEST(HeadersForTarget, UserAloneGivesOnlyAuthorization) {
  crawl_options options;
  options.user = "bob:";
  EXPECT_EQ(headers_for(options, "https://example.com/"),
            (headers{{"Authorization", "Basic Ym9iOg=="}}));
}

// ---- headers_for_target: [hosts."HOST".headers] ---------------------------------------------

TEST(HeadersForTarget, PerHostTableGoesToExactlyThatHostOnAnyPortOverHttps) {
  const crawl_options options = options_with_identity();
  const auto cdn = headers{{"X-Cdn-Key", "k1"}};
  EXPECT_EQ(headers_for(options, "https://cdn.example.net/"), cdn);
  EXPECT_EQ(headers_for(options, "https://cdn.example.net:8443/"), cdn);
  EXPECT_TRUE(headers_for(options, "https://a.cdn.example.net/").empty());
  EXPECT_TRUE(headers_for(options, "https://example.net/").empty());
}

TEST(HeadersForTarget, PerHostTableGoesOverHttpOnlyWhenTheCrawlDoes) {
  crawl_options options;
  options.host_headers["cdn.example.net"] = {{"X-Cdn-Key", "k1"}};
  options.host_headers["example.com"] = {{"X-Site-Key", "k2"}};
  options.host_headers["127.0.0.1"] = {{"X-Local-Key", "k3"}};
  const std::vector<root_origin> https_only = {{true, "example.com", 443, std::nullopt}};
  // Every root is https: nothing over http, to any host.
  EXPECT_TRUE(headers_for(options, "http://cdn.example.net/", https_only).empty());
  EXPECT_TRUE(headers_for(options, "http://example.com/", https_only).empty());
  EXPECT_EQ(headers_for(options, "https://example.com:8443/", https_only),
            (headers{{"X-Site-Key", "k2"}}));
  // An http root elsewhere: a host that is not a root's gets its table over http, a host whose
  // roots are all https never does.
  EXPECT_EQ(headers_for(options, "http://cdn.example.net/"), (headers{{"X-Cdn-Key", "k1"}}));
  EXPECT_TRUE(headers_for(options, "http://example.com/").empty());
  EXPECT_TRUE(headers_for(options, "http://example.com:8080/").empty());
  // A host with an http root gets its table over http on any port.
  EXPECT_EQ(headers_for(options, "http://127.0.0.1:9/"), (headers{{"X-Local-Key", "k3"}}));
  const std::vector<root_origin> both = {{true, "example.com", 443, std::nullopt},
                                         {false, "example.com", 8080, std::nullopt}};
  EXPECT_EQ(headers_for(options, "http://example.com/", both), (headers{{"X-Site-Key", "k2"}}));
}

TEST(HeadersForTarget, RootAndPerHostCombineWithPerHostWinning) {
  crawl_options options = options_with_identity();
  options.host_headers["example.com"] = {{"x-token", "override"}, {"X-Extra", "1"}};
  EXPECT_EQ(headers_for(options, "https://example.com/"),
            (headers{{"Authorization", "Basic YWxpY2U6c2VjcmV0"},
                     {"Accept-Language", "en"},
                     {"x-token", "override"},
                     {"X-Extra", "1"}}));
}

TEST(HeadersForTarget, PerHostAuthorizationReplacesUser) {
  crawl_options options = options_with_identity();
  options.host_headers["example.com"] = {{"AUTHORIZATION", "Bearer t"}};
  EXPECT_EQ(
      headers_for(options, "https://example.com/"),
      (headers{{"AUTHORIZATION", "Bearer t"}, {"Accept-Language", "en"}, {"X-Token", "abc"}}));
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
