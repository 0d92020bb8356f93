// link_resolver's fast paths: plain relative links (letters, digits, "-._~/", a fragment)
// against a normalised http(s) base are joined without parsing, and absolute http(s) links
// written as normalised are taken as they are; both must give exactly what the general path
// gives. A base written otherwise ("HTTP://", a default port) names the same URL but takes
// the general path, so the two are compared link by link.

#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "url/url.hpp"

namespace corocrawl {
namespace {

using opt = std::optional<std::string>;

// A normalised base and the same URL written so that it is not normalised.
const std::vector<std::pair<std::string, std::string>> kBases = {
    {"http://example.com/a/b/page.html", "HTTP://example.com:80/a/b/page.html"},
    {"http://example.com/", "HTTP://example.com:80"},
    {"https://u@example.com:8443/dir/", "HTTPS://u@EXAMPLE.com:8443/dir/"},
    {"http://127.0.0.1:8080/x/y?q=1", "HTTP://127.0.0.1:8080/x/y?q=1"},
    {"http://[::1]:81/a//b/c", "HTTP://[::1]:81/a//b/c"},
};

TEST(LinkResolverFastPath, CommonLinksResolveAsBrowsersDo) {
  link_resolver resolver("http://example.com/docs/lib/os.html?v=1");
  EXPECT_EQ(resolver.resolve("path.html"), opt("http://example.com/docs/lib/path.html"));
  EXPECT_EQ(resolver.resolve("../index.html#top"), opt("http://example.com/docs/index.html"));
  EXPECT_EQ(resolver.resolve("/s5/p5559.html"), opt("http://example.com/s5/p5559.html"));
  EXPECT_EQ(resolver.resolve("../../../../x"), opt("http://example.com/x"));
  EXPECT_EQ(resolver.resolve("./"), opt("http://example.com/docs/lib/"));
  EXPECT_EQ(resolver.resolve(".."), opt("http://example.com/docs/"));
  EXPECT_EQ(resolver.resolve("a/./b/../c"), opt("http://example.com/docs/lib/a/c"));
  EXPECT_EQ(resolver.resolve("#frag"), opt("http://example.com/docs/lib/os.html?v=1"));
  EXPECT_EQ(resolver.resolve(""), opt("http://example.com/docs/lib/os.html?v=1"));
  // Not plain: the general path.
  EXPECT_EQ(resolver.resolve(" #frag"), opt("http://example.com/docs/lib/os.html?v=1"));
  EXPECT_EQ(resolver.resolve("//other.org/p"), opt("http://other.org/p"));
  EXPECT_EQ(resolver.resolve("a b"), opt("http://example.com/docs/lib/a%20b"));
}

// Random picks for the links below.
class random_picks {
 public:
  explicit random_picks(unsigned seed) : random_(seed) {}
  // An index below `size`.
  std::size_t index(std::size_t size) {
    return std::uniform_int_distribution<std::size_t>(0, size - 1)(random_);
  }
  // A text of up to `longest` bytes drawn from `bytes`.
  std::string text(std::string_view bytes, std::size_t longest) {
    std::string text;
    for (std::size_t n = index(longest + 1); n > 0; --n)
      text += bytes[index(bytes.size())];
    return text;
  }

 private:
  std::mt19937 random_;
};

// 20,000 links from `make_link` against each of kBases, normalised (the fast paths) and as
// written (the general path): both give the same URL, or none.
template <class MakeLink>
void expect_both_paths_agree(MakeLink make_link) {
  for (const auto& [normalised, written] : kBases) {
    link_resolver fast(normalised);
    link_resolver general(written);
    ASSERT_EQ(fast.resolve("x"), general.resolve("x")) << normalised;
    for (int i = 0; i < 20000; ++i) {
      const std::string link = make_link();
      ASSERT_EQ(fast.resolve(link), general.resolve(link)) << normalised << " + " << link;
    }
  }
}

TEST(LinkResolverFastPath, AgreesWithTheGeneralPathOnRandomLinks) {
  // The bytes that matter to joining and dot segments, with a few that leave the fast path.
  random_picks pick(13);
  expect_both_paths_agree([&pick] { return pick.text("ab./././/-_~0#?%:\\ ", 14); });
}

TEST(LinkResolverFastPath, AbsoluteLinksResolveAsBrowsersDo) {
  link_resolver resolver("http://example.com/docs/lib/os.html");
  EXPECT_EQ(resolver.resolve("https://docs.python.org/3/library/os.html#os.stat"),
            opt("https://docs.python.org/3/library/os.html"));
  EXPECT_EQ(resolver.resolve("https://peps.python.org"), opt("https://peps.python.org/"));
  EXPECT_EQ(resolver.resolve("http://h.org:8080?q=a/../b"), opt("http://h.org:8080/?q=a/../b"));
  EXPECT_EQ(resolver.resolve("http://h.org/a/./b/../c/?x=1&y=2"), opt("http://h.org/a/c/?x=1&y=2"));
  // Not as normalised: the general path.
  EXPECT_EQ(resolver.resolve("http://h.org:80/x"), opt("http://h.org/x"));
  EXPECT_EQ(resolver.resolve("https://H.org:0443/x"), opt("https://h.org/x"));
  EXPECT_EQ(resolver.resolve("http://h.org/%7ex"), opt("http://h.org/~x"));
}

TEST(LinkResolverFastPath, AbsoluteLinksAgreeWithTheGeneralPathOnRandomLinks) {
  // A scheme, a host, perhaps a port, then a path and query: of the bytes the fast path takes,
  // and of some it leaves to the general path.
  const std::vector<std::string> schemes = {"http://", "https://", "HTTP://",  "http:/",
                                            "http:",   "ftp://",   "https:///"};
  const std::vector<std::string> ports = {"",    "",       ":80",    ":443",    ":0", ":8080",
                                          ":08", ":65535", ":65536", ":123456", ":",  ":8a"};
  random_picks pick(17);
  expect_both_paths_agree([&] {
    return schemes[pick.index(schemes.size())] + pick.text("abZ09.-_~%@", 6) +
           ports[pick.index(ports.size())] + pick.text("ab/./../-_~0%?=&:@!'#\\ Z", 14);
  });
}

TEST(LinkResolverFastPath, HostsThatStartAsIpv4AddressesAgreeWithTheGeneralPath) {
  // Boost.URL reads a host that starts with an IPv4 address as the address: "1.2.3.4a" and
  // "1.2.3.4.5" do not parse, "1.2.3.04" and "1.2.3.256" are names. Octets of every kind,
  // three to five of them, and perhaps a byte after.
  const std::vector<std::string> octets = {"0",   "1",   "00",  "01",  "9",   "10",  "99",  "199",
                                           "200", "249", "250", "255", "256", "300", "1000"};
  const std::vector<std::string> endings = {"", "", "a", "-", "_", "~", ".", "0", ".a"};
  random_picks pick(23);
  expect_both_paths_agree([&] {
    std::string host = octets[pick.index(octets.size())];
    for (std::size_t n = 2 + pick.index(3); n > 0; --n)
      host += "." + octets[pick.index(octets.size())];
    return "http://" + host + endings[pick.index(endings.size())] + "/x";
  });
  link_resolver fast("http://example.com/a/");
  EXPECT_EQ(fast.resolve("http://127.0.0.1:8080/p"), opt("http://127.0.0.1:8080/p"));
  EXPECT_EQ(fast.resolve("http://127.0.0.1.1/"), std::nullopt);
}

}  // namespace
}  // namespace corocrawl
