// URL normalisation, browser-like link resolution and request targets.

#include "url/url.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "url/host.hpp"
#include "url/url_syntax.hpp"

namespace corocrawl {
namespace {

using opt = std::optional<std::string>;

// ---- normalize_url ----------------------------------------------------------------------

TEST(NormalizeUrl, LowerCasesSchemeAndHostAndRemovesDefaultPort) {
  EXPECT_EQ(normalize_url("HTTP://Example.COM:80"), opt("http://example.com/"));
}

TEST(NormalizeUrl, RemovesHttpsDefaultPort) {
  EXPECT_EQ(normalize_url("https://a:443/x"), opt("https://a/x"));
}

TEST(NormalizeUrl, KeepsOtherPorts) {
  EXPECT_EQ(normalize_url("http://a:8080"), opt("http://a:8080/"));
  EXPECT_EQ(normalize_url("https://a:80/"), opt("https://a:80/"));
  EXPECT_EQ(normalize_url("http://a:443/"), opt("http://a:443/"));
}

TEST(NormalizeUrl, EmptyPortIsRemoved) {
  EXPECT_EQ(normalize_url("http://a:/"), opt("http://a/"));
}

TEST(NormalizeUrl, PortLeadingZerosAreDropped) {
  EXPECT_EQ(normalize_url("http://a:0080/"), opt("http://a/"));
  EXPECT_EQ(normalize_url("http://a:08080/"), opt("http://a:8080/"));
}

TEST(NormalizeUrl, PortAbove65535IsRejected) {
  EXPECT_EQ(normalize_url("http://a:65536/"), std::nullopt);
  EXPECT_EQ(normalize_url("http://a:65535/"), opt("http://a:65535/"));
}

TEST(NormalizeUrl, EmptyHttpPathBecomesSlash) {
  EXPECT_EQ(normalize_url("http://a"), opt("http://a/"));
  EXPECT_EQ(normalize_url("https://a?x"), opt("https://a/?x"));
}

TEST(NormalizeUrl, RemovesDotSegments) {
  EXPECT_EQ(normalize_url("http://a/b/../c"), opt("http://a/c"));
  EXPECT_EQ(normalize_url("http://a/./b/./c/."), opt("http://a/b/c/"));
  EXPECT_EQ(normalize_url("http://a/b/c/.."), opt("http://a/b/"));
  EXPECT_EQ(normalize_url("http://a/b/.."), opt("http://a/"));
}

TEST(NormalizeUrl, DotDotNeverClimbsAboveRoot) {
  // Boost.URL 1.81's own normalize() would keep "/../../x".
  EXPECT_EQ(normalize_url("http://a/../../x"), opt("http://a/x"));
  EXPECT_EQ(normalize_url("http://a/a/b/../../../c"), opt("http://a/c"));
}

TEST(NormalizeUrl, PercentEncodedDotsAreDotSegments) {
  EXPECT_EQ(normalize_url("http://a/b/%2e%2E/x"), opt("http://a/x"));
}

TEST(NormalizeUrl, DecodesUnreservedCharacters) {
  EXPECT_EQ(normalize_url("http://a/%7euser"), opt("http://a/~user"));
  EXPECT_EQ(normalize_url("http://a/%41%2D%5F%2E%30"), opt("http://a/A-_.0"));
}

TEST(NormalizeUrl, KeepsReservedCharactersEncodedInPath) {
  EXPECT_EQ(normalize_url("http://a/%2f"), opt("http://a/%2F"));
  EXPECT_EQ(normalize_url("http://a/x%3fy"), opt("http://a/x%3Fy"));
  // An encoded slash is not a separator, so ".." removes the whole segment.
  EXPECT_EQ(normalize_url("http://a/a%2Fb/../c"), opt("http://a/c"));
}

TEST(NormalizeUrl, UpperCasesPercentHexDigits) {
  EXPECT_EQ(normalize_url("http://a/%c3%a9"), opt("http://a/%C3%A9"));
}

TEST(NormalizeUrl, QueryIsPercentNormalisedButNotDecodedOtherwise) {
  EXPECT_EQ(normalize_url("http://a/?x=%7e%2f%41+%20&Y=Z"), opt("http://a/?x=~%2FA+%20&Y=Z"));
}

TEST(NormalizeUrl, EmptyQueryIsKept) {
  EXPECT_EQ(normalize_url("http://a/?"), opt("http://a/?"));
  EXPECT_EQ(normalize_url("http://a/"), opt("http://a/"));
}

TEST(NormalizeUrl, QueryDotSegmentsAreNotTouched) {
  EXPECT_EQ(normalize_url("http://a/b?c/../d"), opt("http://a/b?c/../d"));
}

TEST(NormalizeUrl, RemovesFragment) {
  EXPECT_EQ(normalize_url("http://a/x#frag"), opt("http://a/x"));
  EXPECT_EQ(normalize_url("http://a/x?y#"), opt("http://a/x?y"));
}

TEST(NormalizeUrl, KeepsPathAndQueryCase) {
  EXPECT_EQ(normalize_url("HTTP://A/B/C?D=E"), opt("http://a/B/C?D=E"));
}

TEST(NormalizeUrl, KeepsEmptySegments) {
  EXPECT_EQ(normalize_url("http://a//b/"), opt("http://a//b/"));
}

TEST(NormalizeUrl, PercentNormalisesHost) {
  EXPECT_EQ(normalize_url("http://A%41.com/"), opt("http://aa.com/"));
}

TEST(NormalizeUrl, AHostThatDecodesToAnAddressAndMoreIsNone) {
  // Boost.URL reads "12.8.0.0.1" as the address 12.8.0.0 and a path: as written, the URL is
  // none, and so it is when the host only decodes to it. Normalising twice changes nothing.
  EXPECT_EQ(normalize_url("http://12.8.0.0.1/x"), std::nullopt);
  EXPECT_EQ(normalize_url("http://12%2e8.0.0.1/x"), std::nullopt);
  EXPECT_EQ(normalize_url("other://12%2e8.0.0.1;80/x"), std::nullopt);
  EXPECT_EQ(normalize_url("http://1.2.3%2e4/x"), opt("http://1.2.3.4/x"));
  EXPECT_EQ(normalize_url("http://a%2eb/x"), opt("http://a.b/x"));
}

TEST(NormalizeUrl, Ipv6Literal) {
  EXPECT_EQ(normalize_url("http://[::1]:80/"), opt("http://[::1]/"));
  EXPECT_EQ(normalize_url("http://[::FFFF:1.2.3.4]:8080"), opt("http://[::ffff:1.2.3.4]:8080/"));
}

TEST(NormalizeUrl, Ipv4Literal) {
  EXPECT_EQ(normalize_url("http://127.0.0.1:80/x"), opt("http://127.0.0.1/x"));
}

TEST(NormalizeUrl, KeepsUserinfo) {
  EXPECT_EQ(normalize_url("http://User:Pw@A/"), opt("http://User:Pw@a/"));
}

TEST(NormalizeUrl, RelativeInputIsRejected) {
  EXPECT_EQ(normalize_url("/rel"), std::nullopt);
  EXPECT_EQ(normalize_url("a/b"), std::nullopt);
  EXPECT_EQ(normalize_url("//host/x"), std::nullopt);
  EXPECT_EQ(normalize_url(""), std::nullopt);
}

TEST(NormalizeUrl, InvalidSyntaxIsRejected) {
  EXPECT_EQ(normalize_url("http://a/b c"), std::nullopt);
  EXPECT_EQ(normalize_url("http://a/%"), std::nullopt);
  EXPECT_EQ(normalize_url("http://[::1/"), std::nullopt);
  EXPECT_EQ(normalize_url(" http://a/"), std::nullopt);
}

TEST(NormalizeUrl, IpLiteralMustBeFollowedByPortOrPath) {
  // Found by fuzzing: Boost.URL 1.81 reads "[::1]080/a" as host "[::1]" and the path
  // "080/a", which no request can carry. Browsers reject the host.
  EXPECT_EQ(normalize_url("http://[::1]080/a"), std::nullopt);
  EXPECT_EQ(normalize_url("http://[v1.x]y"), std::nullopt);
  EXPECT_EQ(resolve_link("http://a/", "//[::1]x/"), std::nullopt);
  EXPECT_EQ(split_http_url("http://[::1]080/a"), std::nullopt);
  EXPECT_EQ(normalize_url("http://[::1]:80/a"), opt("http://[::1]/a"));
}

TEST(NormalizeUrl, HttpWithoutHostIsRejected) {
  EXPECT_EQ(normalize_url("http:/a"), std::nullopt);
  EXPECT_EQ(normalize_url("http:a"), std::nullopt);
  EXPECT_EQ(normalize_url("http:///a"), std::nullopt);
  EXPECT_EQ(normalize_url("https://"), std::nullopt);
}

TEST(NormalizeUrl, OtherSchemes) {
  EXPECT_EQ(normalize_url("MAILTO:X@Y.com"), opt("mailto:X@Y.com"));
  EXPECT_EQ(normalize_url("javascript:void(0)"), opt("javascript:void(0)"));
  EXPECT_EQ(normalize_url("ftp://H:21"), opt("ftp://h/"));
  EXPECT_EQ(normalize_url("urn:isbn:123"), opt("urn:isbn:123"));
}

TEST(NormalizeUrl, IsIdempotent) {
  for (const char* url : {"HTTP://Example.COM:80", "http://a/%7e/%2f/b/../c?x=%41#f",
                          "http://[::1]:8080/a/./b", "mailto:x@y"}) {
    const auto once = normalize_url(url);
    ASSERT_TRUE(once.has_value()) << url;
    EXPECT_EQ(normalize_url(*once), once) << url;
  }
}

// RFC 3986 5.2.4 as the RFC writes it: an input buffer read from the front into an output.
std::string rfc_remove_dot_segments(std::string in) {
  std::string out;
  const auto drop_last_segment = [&out] {
    const std::size_t slash = out.rfind('/');
    out.erase(slash == std::string::npos ? 0 : slash);
  };
  while (!in.empty()) {
    if (in.starts_with("../")) {
      in.erase(0, 3);
    } else if (in.starts_with("./")) {
      in.erase(0, 2);
    } else if (in.starts_with("/./")) {
      in.replace(0, 3, "/");
    } else if (in == "/.") {
      in = "/";
    } else if (in.starts_with("/../")) {
      in.replace(0, 4, "/");
      drop_last_segment();
    } else if (in == "/..") {
      in = "/";
      drop_last_segment();
    } else if (in == "." || in == "..") {
      in.clear();
    } else {
      const std::size_t end = in.find('/', 1);
      out += in.substr(0, end);
      in.erase(0, end == std::string::npos ? in.size() : end);
    }
  }
  return out;
}

TEST(NormalizeUrl, RemovesDotSegmentsAsTheRfcDoesAndLeavesPathsWithoutThemAsTheyAre) {
  // Paths of '/', '.' and letters, after a prefix the removal leaves alone; most have no '.'
  // after a '/', and are returned as they came.
  std::mt19937 random(5);
  const std::string_view bytes = "/./a.b/";
  for (int i = 0; i < 50000; ++i) {
    std::string path = "/";
    for (std::size_t n = random() % 12; n > 0; --n)
      path += bytes[random() % bytes.size()];
    std::string s = "http://h" + path;
    url_syntax::remove_dot_segments(s, 8);
    ASSERT_EQ(s, "http://h" + rfc_remove_dot_segments(path)) << path;
  }
}

// ---- resolve_link: RFC 3986 section 5.4 ---------------------------------------------------

constexpr const char* kRfcBase = "http://a/b/c/d;p?q";

TEST(ResolveLink, Rfc3986NormalExamples) {
  const std::pair<const char*, const char*> cases[] = {
      {"g:h", "g:h"},
      {"g", "http://a/b/c/g"},
      {"./g", "http://a/b/c/g"},
      {"g/", "http://a/b/c/g/"},
      {"/g", "http://a/g"},
      {"//g", "http://g/"},
      {"?y", "http://a/b/c/d;p?y"},
      {"g?y", "http://a/b/c/g?y"},
      {"#s", "http://a/b/c/d;p?q"},
      {"g#s", "http://a/b/c/g"},
      {"g?y#s", "http://a/b/c/g?y"},
      {";x", "http://a/b/c/;x"},
      {"g;x", "http://a/b/c/g;x"},
      {"", "http://a/b/c/d;p?q"},
      {".", "http://a/b/c/"},
      {"./", "http://a/b/c/"},
      {"..", "http://a/b/"},
      {"../", "http://a/b/"},
      {"../g", "http://a/b/g"},
      {"../..", "http://a/"},
      {"../../", "http://a/"},
      {"../../g", "http://a/g"},
  };
  for (const auto& [link, expected] : cases) {
    EXPECT_EQ(resolve_link(kRfcBase, link), opt(expected)) << link;
  }
}

TEST(ResolveLink, Rfc3986AbnormalExamples) {
  const std::pair<const char*, const char*> cases[] = {
      {"../../../g", "http://a/g"},
      {"../../../../g", "http://a/g"},
      {"/./g", "http://a/g"},
      {"/../g", "http://a/g"},
      {"g.", "http://a/b/c/g."},
      {".g", "http://a/b/c/.g"},
      {"g..", "http://a/b/c/g.."},
      {"..g", "http://a/b/c/..g"},
      {"./../g", "http://a/b/g"},
      {"./g/.", "http://a/b/c/g/"},
      {"g/./h", "http://a/b/c/g/h"},
      {"g/../h", "http://a/b/c/h"},
      {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
      {"g;x=1/../y", "http://a/b/c/y"},
      {"g?y/./x", "http://a/b/c/g?y/./x"},
      {"g?y/../x", "http://a/b/c/g?y/../x"},
  };
  for (const auto& [link, expected] : cases) {
    EXPECT_EQ(resolve_link(kRfcBase, link), opt(expected)) << link;
  }
}

// ---- resolve_link: what browsers accept in href values ------------------------------------

constexpr const char* kPage = "http://example.com/dir/page.html";

TEST(ResolveLink, AbsoluteLinkIsNormalised) {
  EXPECT_EQ(resolve_link(kPage, "HTTP://Other.ORG:80"), opt("http://other.org/"));
}

TEST(ResolveLink, SchemeRelativeLink) {
  EXPECT_EQ(resolve_link(kPage, "//other.org/p"), opt("http://other.org/p"));
  EXPECT_EQ(resolve_link("https://example.com/", "//other.org"), opt("https://other.org/"));
}

TEST(ResolveLink, TrimsLeadingAndTrailingWhitespace) {
  EXPECT_EQ(resolve_link(kPage, "  /x \t\r\n\f"), opt("http://example.com/x"));
  EXPECT_EQ(resolve_link(kPage, "\n\thttp://other.org/ "), opt("http://other.org/"));
}

TEST(ResolveLink, RemovesTabsAndNewlinesInside) {
  EXPECT_EQ(resolve_link(kPage, "/a\tb\r\nc"), opt("http://example.com/abc"));
  EXPECT_EQ(resolve_link(kPage, "ht\ntp://other.org/"), opt("http://other.org/"));
}

TEST(ResolveLink, EncodesInnerSpaces) {
  EXPECT_EQ(resolve_link(kPage, "a b"), opt("http://example.com/dir/a%20b"));
  EXPECT_EQ(resolve_link(kPage, "a?q=x y"), opt("http://example.com/dir/a?q=x%20y"));
}

TEST(ResolveLink, EncodesNonAsciiAsUtf8Bytes) {
  EXPECT_EQ(resolve_link(kPage, "caf\xC3\xA9"), opt("http://example.com/dir/caf%C3%A9"));
  EXPECT_EQ(resolve_link(kPage, "?q=\xE2\x82\xAC"),
            opt("http://example.com/dir/page.html?q=%E2%82%AC"));
}

// Browsers send an internationalised host as its A-labels (UTS #46, non-transitional).
TEST(ResolveLink, InternationalisedHostsBecomeALabels) {
  EXPECT_EQ(resolve_link(kPage,
                         "http://b\xC3\xBC"
                         "cher.test/caf\xC3\xA9"),
            opt("http://xn--bcher-kva.test/caf%C3%A9"));
  EXPECT_EQ(resolve_link(kPage,
                         "//B\xC3\x9C"
                         "CHER.test/"),
            opt("http://xn--bcher-kva.test/"));
  EXPECT_EQ(resolve_link(kPage,
                         "https://user@b%C3%BC"
                         "cher.test:8443/x"),
            opt("https://user@xn--bcher-kva.test:8443/x"));
  // Non-transitional: "ß" stays itself instead of becoming "ss".
  EXPECT_EQ(resolve_link(kPage, "http://fa\xC3\x9F.test/"), opt("http://xn--fa-hia.test/"));
  // A host that is no valid name is no link; a relative link with non-ASCII is only a path.
  EXPECT_EQ(resolve_link(kPage, "http://a\xFF.test/"), std::nullopt);
  EXPECT_EQ(resolve_link(kPage, "http://%zz.test/"), std::nullopt);
  EXPECT_EQ(resolve_link(kPage,
                         "b\xC3\xBC"
                         "cher.test"),
            opt("http://example.com/dir/b%C3%BCcher.test"));
  EXPECT_EQ(resolve_link(kPage,
                         "mailto:x@b\xC3\xBC"
                         "cher.test"),
            opt("mailto:x@b%C3%BCcher.test"));
}

// Found by the url fuzzer: a normal form is the same however it is reached.
TEST(NormalizeUrl, AnInternationalisedHostIsItsALabelsAsResolveLinkGives) {
  EXPECT_EQ(normalize_url("http://%C3%A9/"), opt("http://xn--9ca/"));
  EXPECT_EQ(resolve_link(kPage, "http://%C3%A9/"), opt("http://xn--9ca/"));
  EXPECT_EQ(normalize_url("http://%FF/"), std::nullopt);
  EXPECT_EQ(normalize_url("http://0%073gttpeuser/"), std::nullopt);  // a control character
  EXPECT_EQ(resolve_link(kPage, "http://a%2Fb.test/"), std::nullopt);
  EXPECT_EQ(normalize_url("foo://%C3%A9/"), opt("foo://%C3%A9/"));  // not a special scheme
}

// A host that decodes to what no RFC 3986 host can hold (here '"') is refused however it is
// reached, not written back percent-encoded as another host.
TEST(NormalizeUrl, AHostDecodingToWhatNoHostHoldsIsRefused) {
  EXPECT_EQ(resolve_link(kPage, "//%22"), std::nullopt);
  EXPECT_EQ(resolve_link(kPage, "http://a%7Bb.test/"), std::nullopt);
  EXPECT_EQ(normalize_url("http://%22/"), std::nullopt);
  EXPECT_EQ(resolve_link(kPage, "wss:{"), std::nullopt);  // found by the url fuzzer
  EXPECT_EQ(normalize_url("http://a%2Bb.test/"), opt("http://a+b.test/"));  // a sub-delim
}

TEST(ResolveLink, EncodesInvalidUtf8BytesToo) {
  EXPECT_EQ(resolve_link(kPage, "\xFF\xFE"), opt("http://example.com/dir/%FF%FE"));
}

TEST(ResolveLink, EncodesCharactersRfc3986Forbids) {
  EXPECT_EQ(resolve_link(kPage, "/a\"b<c>d^e`f{g|h}i[j]"),
            opt("http://example.com/a%22b%3Cc%3Ed%5Ee%60f%7Bg%7Ch%7Di%5Bj%5D"));
}

TEST(ResolveLink, LonePercentIsEncoded) {
  EXPECT_EQ(resolve_link(kPage, "/100%"), opt("http://example.com/100%25"));
  EXPECT_EQ(resolve_link(kPage, "/%zz"), opt("http://example.com/%25zz"));
  EXPECT_EQ(resolve_link(kPage, "/%4"), opt("http://example.com/%254"));
  EXPECT_EQ(resolve_link(kPage, "/%41%2f"), opt("http://example.com/A%2F"));
}

TEST(ResolveLink, BackslashIsSlashInHttpPaths) {
  EXPECT_EQ(resolve_link(kPage, "\\x\\y"), opt("http://example.com/x/y"));
  EXPECT_EQ(resolve_link(kPage, "\\\\other.org\\p"), opt("http://other.org/p"));
}

TEST(ResolveLink, BackslashInQueryIsEncoded) {
  EXPECT_EQ(resolve_link(kPage, "/a?q=\\"), opt("http://example.com/a?q=%5C"));
}

TEST(ResolveLink, BackslashIsNotSlashInOtherSchemes) {
  EXPECT_EQ(resolve_link("foo://h/a/b", "c\\d"), opt("foo://h/a/c%5Cd"));
}

TEST(ResolveLink, QuestionMarkInQueryIsKept) {
  EXPECT_EQ(resolve_link(kPage, "/a?b?c"), opt("http://example.com/a?b?c"));
}

TEST(ResolveLink, FragmentIsDropped) {
  EXPECT_EQ(resolve_link(kPage, "x#a#b"), opt("http://example.com/dir/x"));
  EXPECT_EQ(resolve_link(kPage, "x#a b"), opt("http://example.com/dir/x"));
}

TEST(ResolveLink, FragmentOnlyAndEmptyLinksAreThePage) {
  EXPECT_EQ(resolve_link(kPage, "#top"), opt(kPage));
  EXPECT_EQ(resolve_link(kPage, ""), opt(kPage));
  EXPECT_EQ(resolve_link(kPage, " \n "), opt(kPage));
  EXPECT_EQ(resolve_link("http://a/b?q#f", ""), opt("http://a/b?q"));
}

TEST(ResolveLink, QueryOnlyLink) {
  EXPECT_EQ(resolve_link(kPage, "?"), opt("http://example.com/dir/page.html?"));
  EXPECT_EQ(resolve_link(kPage, "?a=1&b=2"), opt("http://example.com/dir/page.html?a=1&b=2"));
}

TEST(ResolveLink, SameSchemeWithoutSlashesIsRelative) {
  // Browsers read "http:x" against an http page as a relative reference.
  EXPECT_EQ(resolve_link(kPage, "http:x"), opt("http://example.com/dir/x"));
  EXPECT_EQ(resolve_link(kPage, "http:/x"), opt("http://example.com/x"));
  EXPECT_EQ(resolve_link(kPage, "HTTP:x"), opt("http://example.com/dir/x"));
  EXPECT_EQ(resolve_link(kPage, "http:a:b"), opt("http://example.com/dir/a:b"));
  EXPECT_EQ(resolve_link(kPage, "http:a b:c"), opt("http://example.com/dir/a%20b:c"));
  EXPECT_EQ(resolve_link(kPage, "http:"), opt(kPage));
}

TEST(ResolveLink, OtherSpecialSchemeWithoutSlashesNamesAHost) {
  EXPECT_EQ(resolve_link(kPage, "https:other.org"), opt("https://other.org/"));
  EXPECT_EQ(resolve_link(kPage, "https:/other.org/p"), opt("https://other.org/p"));
  EXPECT_EQ(resolve_link(kPage, "https:///other.org/p"), opt("https://other.org/p"));
  EXPECT_EQ(resolve_link(kPage, "///other.org/p"), opt("http://other.org/p"));
}

TEST(ResolveLink, ColonInFirstRelativeSegmentIsNotAScheme) {
  EXPECT_EQ(resolve_link(kPage, "1a:b"), opt("http://example.com/dir/1a:b"));
  EXPECT_EQ(resolve_link(kPage, "a b:c"), opt("http://example.com/dir/a%20b:c"));
  EXPECT_EQ(resolve_link(kPage, "./x:y"), opt("http://example.com/dir/x:y"));
}

TEST(ResolveLink, NonHttpSchemesResolveToThemselves) {
  EXPECT_EQ(resolve_link(kPage, "mailto:x@y"), opt("mailto:x@y"));
  EXPECT_EQ(resolve_link(kPage, "javascript:void(0)"), opt("javascript:void(0)"));
  EXPECT_EQ(resolve_link(kPage, "ftp://h/"), opt("ftp://h/"));
  EXPECT_EQ(resolve_link(kPage, "tel:+1 555"), opt("tel:+1%20555"));
  EXPECT_EQ(resolve_link(kPage, "mailto:a@b?subject=Hi there"),
            opt("mailto:a@b?subject=Hi%20there"));
}

TEST(ResolveLink, Ipv6Host) {
  EXPECT_EQ(resolve_link(kPage, "http://[::1]:8080/x"), opt("http://[::1]:8080/x"));
  EXPECT_EQ(resolve_link("http://[::1]:8080/a/b", "c"), opt("http://[::1]:8080/a/c"));
}

TEST(ResolveLink, BaseFragmentAndQueryDoNotLeak) {
  EXPECT_EQ(resolve_link("http://a/b?q#f", "c"), opt("http://a/c"));
}

TEST(ResolveLink, BaseIsNormalisedThrough) {
  EXPECT_EQ(resolve_link("HTTP://A:80/b/../c/", "d"), opt("http://a/c/d"));
}

TEST(ResolveLink, UnusableLinksGiveNullopt) {
  EXPECT_EQ(resolve_link(kPage, "http://"), std::nullopt);
  EXPECT_EQ(resolve_link(kPage, "http://[::1"), std::nullopt);
  EXPECT_EQ(resolve_link(kPage, "http://a:99999/"), std::nullopt);
  EXPECT_EQ(resolve_link(kPage, "https:"), std::nullopt);
}

TEST(ResolveLink, BaseMustBeAbsolute) {
  EXPECT_EQ(resolve_link("/relative", "x"), std::nullopt);
  EXPECT_EQ(resolve_link("", "http://a/"), std::nullopt);
  EXPECT_EQ(resolve_link("not a url", "x"), std::nullopt);
}

TEST(ResolveLink, EmbeddedNulIsEncodedNotTruncated) {
  using namespace std::string_literals;
  EXPECT_EQ(resolve_link(kPage, "/a\0b"s), opt("http://example.com/a%00b"));
}

// One resolver per base for many links, as a page's links are resolved: what a link leaves
// in its buffers (a longer one, one that failed half-way) never shows in the next one's URL.
TEST(ResolveLink, AResolverKeptForManyLinksChangesNoAnswer) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {kPage, "http://a/" + std::string(300, 'x') + "?" + std::string(200, 'q')},
      {kPage, "b"},
      {kPage, "http://a:99999/"},
      {kPage, "../../c/./d/../e?f#g"},
      {"http://h/one/two/three/", "///x"},
      {"http://[::1", "x"},
      {"foo:a/b", "../c"},
      {kPage, ""},
      {"http://ex.org/p", "http:/q"},
      {kPage, "http://\xE2\x98\x83.example/"},
      {kPage, "//h"},
  };
  std::map<std::string, link_resolver> resolvers;
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [base, link] : cases) {
      auto& resolver = resolvers.try_emplace(base, base).first->second;
      EXPECT_EQ(resolver.base(), base);
      EXPECT_EQ(resolver.resolve(link), resolve_link(base, link)) << base << " " << link;
    }
  }
}

// ---- split_http_url ---------------------------------------------------------------------

TEST(SplitHttpUrl, PlainHttp) {
  const auto t = split_http_url("http://example.com/a/b?x=1");
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->https);
  EXPECT_EQ(t->host, "example.com");
  EXPECT_EQ(t->port, 80);
  EXPECT_EQ(t->target, "/a/b?x=1");
}

TEST(SplitHttpUrl, HttpsWithPort) {
  const auto t = split_http_url("https://example.com:8443/");
  ASSERT_TRUE(t.has_value());
  EXPECT_TRUE(t->https);
  EXPECT_EQ(t->host, "example.com");
  EXPECT_EQ(t->port, 8443);
  EXPECT_EQ(t->target, "/");
}

TEST(SplitHttpUrl, DefaultHttpsPort) {
  const auto t = split_http_url("https://a/");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->port, 443);
}

TEST(SplitHttpUrl, Ipv6HostWithoutBrackets) {
  const auto t = split_http_url("http://[::1]:8080/x");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->host, "::1");
  EXPECT_EQ(t->port, 8080);
  EXPECT_EQ(t->target, "/x");
}

TEST(SplitHttpUrl, Ipv4Host) {
  const auto t = split_http_url("http://127.0.0.1:1234/");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->host, "127.0.0.1");
  EXPECT_EQ(t->port, 1234);
}

TEST(SplitHttpUrl, EmptyPathIsSlash) {
  const auto t = split_http_url("http://a");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->target, "/");
  const auto q = split_http_url("http://a?x");
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->target, "/?x");
}

TEST(SplitHttpUrl, EmptyQueryIsKept) {
  const auto t = split_http_url("http://a/p?");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->target, "/p?");
}

TEST(SplitHttpUrl, FragmentIsNotSent) {
  const auto t = split_http_url("http://a/p?q#frag");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->target, "/p?q");
}

TEST(SplitHttpUrl, EncodedPathIsKeptEncoded) {
  const auto t = split_http_url("http://a/x%20y/%2F");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->target, "/x%20y/%2F");
}

TEST(SplitHttpUrl, RejectsOtherUrls) {
  EXPECT_EQ(split_http_url("ftp://a/"), std::nullopt);
  EXPECT_EQ(split_http_url("mailto:x@y"), std::nullopt);
  EXPECT_EQ(split_http_url("/x"), std::nullopt);
  EXPECT_EQ(split_http_url("http:/x"), std::nullopt);
  EXPECT_EQ(split_http_url("http://a:0/"), std::nullopt);
  EXPECT_EQ(split_http_url("http://a:70000/"), std::nullopt);
  EXPECT_EQ(split_http_url(""), std::nullopt);
}

}  // namespace
}  // namespace corocrawl

namespace corocrawl {
namespace {

TEST(OriginKey, SchemeHostAndAlwaysThePort) {
  EXPECT_EQ(origin_key(*split_http_url("http://example.com/a?b")), "http://example.com:80");
  EXPECT_EQ(origin_key(*split_http_url("https://example.com/")), "https://example.com:443");
  EXPECT_EQ(origin_key(*split_http_url("http://example.com:8080/")), "http://example.com:8080");
  EXPECT_EQ(origin_key(*split_http_url("http://[::1]:8080/")), "http://[::1]:8080");
  // http and https on one host are different origins.
  EXPECT_NE(origin_key(*split_http_url("http://a.test/")),
            origin_key(*split_http_url("https://a.test/")));
}

// ---- scheme_of, and host.hpp: ports and brackets ----------------------------------------

TEST(SchemeOf, IsTheRfc3986SchemeBeforeTheFirstColonLowerCased) {
  EXPECT_EQ(scheme_of("HTTP://a/"), opt("http"));
  EXPECT_EQ(scheme_of("svn+ssh:x"), opt("svn+ssh"));
  EXPECT_EQ(scheme_of("localhost:8080"), opt("localhost"));
  EXPECT_EQ(scheme_of("/a:b"), std::nullopt);
  EXPECT_EQ(scheme_of("1a:b"), std::nullopt);
  EXPECT_EQ(scheme_of("a b:c"), std::nullopt);
  EXPECT_EQ(scheme_of(":x"), std::nullopt);
  EXPECT_EQ(scheme_of("noscheme"), std::nullopt);
}

TEST(ParsePort, DecimalDigitsUpTo65535) {
  EXPECT_EQ(parse_port("8080"), std::optional<std::uint16_t>(8080));
  EXPECT_EQ(parse_port("00080"), std::optional<std::uint16_t>(80));
  EXPECT_EQ(parse_port("65535"), std::optional<std::uint16_t>(65535));
  EXPECT_EQ(parse_port("0"), std::optional<std::uint16_t>(0));  // callers decide about 0
  for (const char* bad : {"", "65536", "4294967297", "-1", "+1", " 80", "80 ", "8a", "0x50"})
    EXPECT_EQ(parse_port(bad), std::nullopt) << bad;
}

TEST(HostHelpers, BracketsGoAroundIpv6LiteralsOnly) {
  EXPECT_EQ(without_brackets("[::1]"), "::1");
  EXPECT_EQ(without_brackets("a.test"), "a.test");
  EXPECT_EQ(without_brackets("[::1"), "[::1");
  EXPECT_EQ(bracketed("::1"), "[::1]");
  EXPECT_EQ(bracketed("a.test"), "a.test");
  EXPECT_EQ(host_and_port("::1", 8080), "[::1]:8080");
  EXPECT_EQ(host_and_port("10.0.0.1", 80), "10.0.0.1:80");
}

}  // namespace
}  // namespace corocrawl
