// http_url: the crawl's one reading of a normalised URL, against split_http_url's parse.
#include "url/http_url.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace corocrawl {
namespace {

TEST(HttpUrl, TakesANormalisedUrlApart) {
  const auto u = http_url::of("https://example.com:8443/a/b?x=1&y=/z");
  ASSERT_TRUE(u);
  EXPECT_TRUE(u->https());
  EXPECT_EQ(u->host(), "example.com");
  EXPECT_EQ(u->port(), 8443);
  EXPECT_EQ(u->target(), "/a/b?x=1&y=/z");
  EXPECT_EQ(u->path(), "/a/b");
  std::string scratch;
  EXPECT_EQ(u->origin(scratch), "https://example.com:8443");
  EXPECT_EQ(u->request(), (http_target{true, "example.com", 8443, "/a/b?x=1&y=/z"}));
}

TEST(HttpUrl, DefaultPortsIpLiteralsAndUserinfo) {
  std::string scratch;
  const auto plain = http_url::of("http://a.test/");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->port(), 80);
  EXPECT_EQ(plain->origin(scratch), "http://a.test");

  const auto v6 = http_url::of("http://[::1]:8080/x");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->host(), "::1");
  EXPECT_EQ(v6->port(), 8080);
  EXPECT_EQ(v6->origin(scratch), "http://[::1]:8080");

  // Userinfo names no origin of its own: the URL's origin is that of the same URL without it.
  const auto with_user = http_url::of("https://alice:pw@a.test:444/p");
  ASSERT_TRUE(with_user);
  EXPECT_EQ(with_user->host(), "a.test");
  EXPECT_EQ(with_user->origin(scratch), "https://a.test:444");
  EXPECT_EQ(with_user->target(), "/p");
}

// IPvFuture literals keep their brackets, ':' inside or not (found by the url fuzz target).
TEST(HttpUrl, AnIpvFutureHostKeepsItsBrackets) {
  std::string scratch;
  const auto u = http_url::of("https://[v1.:]/");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host(), "[v1.:]");
  EXPECT_EQ(u->origin(scratch), "https://[v1.:]");
  EXPECT_EQ(u->request(), split_http_url("https://[v1.:]/"));
  EXPECT_EQ(origin_key(u->request()), "https://[v1.:]:443");
}

TEST(HttpUrl, RefusesWhatIsNotANormalisedHttpUrl) {
  for (const char* text :
       {"ftp://a.test/", "mailto:a@b.test", "/relative", "http://a.test", "http://a.test?q",
        "http:///x", "http://a.test:0/", "http://a.test:70000/", "http://a.test:8x/", ""})
    EXPECT_FALSE(http_url::of(text)) << text;
}

// Every URL of the url fuzz target's seed corpus, normalised and resolved against a page:
// http_url's scan agrees with split_http_url's parse wherever the URL is http(s).
TEST(HttpUrl, AgreesWithSplitHttpUrlOnTheUrlCorpus) {
  const std::filesystem::path corpus = COROCRAWL_SOURCE_DIR "/tests/fuzz/corpus/url";
  ASSERT_TRUE(std::filesystem::is_directory(corpus));
  std::vector<std::string> urls;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    for (const auto& part : {text, text.substr(0, text.find('\n')),
                             text.substr(std::min(text.size(), text.find('\n') + 1))}) {
      if (auto normal = normalize_url(part)) urls.push_back(*normal);
      if (auto resolved = resolve_link("http://example.com/dir/page.html", part))
        urls.push_back(*resolved);
    }
  }
  int http = 0;
  for (const auto& url : urls) {
    const auto parsed = split_http_url(url);
    const auto scanned = http_url::of(url);
    ASSERT_EQ(parsed.has_value(), scanned.has_value()) << url;
    if (!parsed) continue;
    ++http;
    EXPECT_EQ(scanned->request(), *parsed) << url;
  }
  EXPECT_GT(http, 50);  // the corpus is mostly http(s)
}

}  // namespace
}  // namespace corocrawl
