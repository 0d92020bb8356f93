// Sitemaps: urlsets and indexes in any namespace, gzipped or not, text sitemaps, what a <loc>
// holds, and the bodies that are not sitemaps: HTML, malformed XML, entity bombs, gzip bombs.

#include "sitemap/sitemap_xml.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compression.hpp"

namespace corocrawl {
namespace {

using testing::gzip;
using testing::gzip_bomb;
using locations = std::vector<std::string>;

constexpr std::string_view kXmlDeclaration = R"(<?xml version="1.0" encoding="UTF-8"?>)";
constexpr std::string_view kSitemapNamespace = "http://www.sitemaps.org/schemas/sitemap/0.9";

// A urlset in the sitemaps.org namespace around `entries`.
std::string urlset(std::string_view entries) {
  return std::string(kXmlDeclaration) + "\n<urlset xmlns=\"" + std::string(kSitemapNamespace) +
         "\">\n" + std::string(entries) + "\n</urlset>\n";
}

// The locations of `body`, which must be read as a sitemap of `kind`.
locations read(std::string_view body, sitemap_kind kind = sitemap_kind::urlset) {
  const sitemap_result result = parse_sitemap(body);
  EXPECT_TRUE(result.value.has_value()) << result.error;
  EXPECT_EQ(result.error, "");
  if (!result.value) return {};
  EXPECT_EQ(result.value->kind, kind);
  return result.value->locations;
}

// The error reading `body` gives; it must not be read as a sitemap.
std::string error_of(std::string_view body, std::uint64_t max_bytes = max_sitemap_bytes) {
  const sitemap_result result = parse_sitemap(body, max_bytes);
  EXPECT_FALSE(result.value.has_value());
  EXPECT_NE(result.error, "");
  return result.error;
}

// ---- urlset and sitemapindex ---------------------------------------------------------------

TEST(ParseSitemap, Urlset) {
  const std::string body = urlset(R"(
  <url>
    <loc>http://www.example.com/</loc>
    <lastmod>2005-01-01</lastmod>
    <changefreq>monthly</changefreq>
    <priority>0.8</priority>
  </url>
  <url><loc>http://www.example.com/catalog?item=12&amp;desc=vacation_hawaii</loc></url>
  <url><loc>http://www.example.com/b</loc></url>)");
  EXPECT_EQ(read(body), (locations{"http://www.example.com/",
                                   "http://www.example.com/catalog?item=12&desc=vacation_hawaii",
                                   "http://www.example.com/b"}));
}

TEST(ParseSitemap, SitemapIndex) {
  const std::string body = std::string(kXmlDeclaration) + R"(
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap>
    <loc>http://www.example.com/sitemap1.xml.gz</loc>
    <lastmod>2004-10-01T18:23:17+00:00</lastmod>
  </sitemap>
  <sitemap><loc>http://www.example.com/sitemap2.xml.gz</loc></sitemap>
</sitemapindex>)";
  EXPECT_EQ(read(body, sitemap_kind::index), (locations{"http://www.example.com/sitemap1.xml.gz",
                                                        "http://www.example.com/sitemap2.xml.gz"}));
}

TEST(ParseSitemap, EmptyUrlsetAndIndex) {
  EXPECT_EQ(read(urlset("")), locations{});
  EXPECT_EQ(read("<urlset/>"), locations{});
  EXPECT_EQ(read("<sitemapindex></sitemapindex>", sitemap_kind::index), locations{});
}

TEST(ParseSitemap, NoNamespace) {
  EXPECT_EQ(read("<urlset><url><loc>http://a/</loc></url></urlset>"), locations{"http://a/"});
  EXPECT_EQ(read("<sitemapindex><sitemap><loc>http://a/s.xml</loc></sitemap></sitemapindex>",
                 sitemap_kind::index),
            locations{"http://a/s.xml"});
}

TEST(ParseSitemap, PrefixedNamespace) {
  EXPECT_EQ(read(R"(<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">)"
                 "<sm:url><sm:loc>http://a/</sm:loc></sm:url></sm:urlset>"),
            locations{"http://a/"});
  EXPECT_EQ(read(R"(<s:sitemapindex xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9">)"
                 "<s:sitemap><s:loc>http://a/1.xml</s:loc></s:sitemap></s:sitemapindex>",
                 sitemap_kind::index),
            locations{"http://a/1.xml"});
}

TEST(ParseSitemap, AnyNamespace) {
  // The old Google namespace, and one nobody uses.
  EXPECT_EQ(read(R"(<urlset xmlns="http://www.google.com/schemas/sitemap/0.84">)"
                 "<url><loc>http://a/</loc></url></urlset>"),
            locations{"http://a/"});
  EXPECT_EQ(read(R"(<urlset xmlns="urn:x"><url><loc>http://b/</loc></url></urlset>)"),
            locations{"http://b/"});
}

TEST(ParseSitemap, ExtensionsAreIgnored) {
  const std::string body = std::string(kXmlDeclaration) + R"(
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>http://a/page</loc>
    <image:image><image:loc>http://a/image.jpg</image:loc></image:image>
    <xhtml:link rel="alternate" hreflang="de" href="http://a/de/page"/>
  </url>
</urlset>)";
  EXPECT_EQ(read(body), locations{"http://a/page"});
}

TEST(ParseSitemap, AttributesAreIgnored) {
  EXPECT_EQ(read(R"(<urlset a="1"><url b="2"><loc c="http://x/">http://a/</loc></url></urlset>)"),
            locations{"http://a/"});
}

// ---- what counts as a location -------------------------------------------------------------

TEST(ParseSitemap, OnlyLocDirectlyInsideAnEntryCounts) {
  const std::string body = urlset(R"(
  <loc>http://a/root-level</loc>
  <url><loc>http://a/1</loc>
    <url><loc>http://a/nested-url</loc></url>
    <extra><loc>http://a/in-extra</loc></extra>
  </url>
  <group><url><loc>http://a/in-group</loc></url></group>
  <sitemap><loc>http://a/sitemap-in-urlset</loc></sitemap>
  <url><loc>http://a/2</loc></url>)");
  EXPECT_EQ(read(body), (locations{"http://a/1", "http://a/2"}));
}

TEST(ParseSitemap, UrlEntriesInAnIndexAreIgnored) {
  EXPECT_EQ(read("<sitemapindex><url><loc>http://a/page</loc></url>"
                 "<sitemap><loc>http://a/s.xml</loc></sitemap></sitemapindex>",
                 sitemap_kind::index),
            locations{"http://a/s.xml"});
}

TEST(ParseSitemap, TextOfElementsInsideLocIsLeftOut) {
  EXPECT_EQ(read("<urlset><url><loc>http://a/<b>bold</b>x</loc></url></urlset>"),
            locations{"http://a/x"});
}

TEST(ParseSitemap, EveryLocOfAnEntry) {
  EXPECT_EQ(read("<urlset><url><loc>http://a/1</loc><loc>http://a/2</loc></url></urlset>"),
            (locations{"http://a/1", "http://a/2"}));
}

TEST(ParseSitemap, WhitespaceAroundLocIsTrimmed) {
  EXPECT_EQ(read(urlset("<url><loc>\n    http://a/1\t\r\n  </loc></url>")),
            locations{"http://a/1"});
}

TEST(ParseSitemap, BlankLocsAreSkipped) {
  EXPECT_EQ(read(urlset("<url><loc></loc></url><url><loc> \n </loc></url><url><loc/></url>"
                        "<url></url><url><loc>http://a/</loc></url>")),
            locations{"http://a/"});
}

TEST(ParseSitemap, Cdata) {
  EXPECT_EQ(read(urlset("<url><loc><![CDATA[http://a/?x=1&y=<2>]]></loc></url>")),
            locations{"http://a/?x=1&y=<2>"});
  EXPECT_EQ(read(urlset("<url><loc>  <![CDATA[ http://a/b ]]>  </loc></url>")),
            locations{"http://a/b"});
}

TEST(ParseSitemap, EntitiesAreDecoded) {
  EXPECT_EQ(read(urlset("<url><loc>http://a/?q=&lt;&gt;&quot;&apos;&amp;&#x41;&#66;</loc></url>")),
            locations{"http://a/?q=<>\"'&AB"});
  EXPECT_EQ(read(urlset("<url><loc>http://a/caf&#xE9;</loc></url>")),
            locations{"http://a/caf\xC3\xA9"});
}

TEST(ParseSitemap, TextInPiecesIsJoined) {
  // Expat reports a line break, an entity and each CDATA section as pieces of their own.
  EXPECT_EQ(read(urlset("<url><loc>http://a/&amp;<![CDATA[b]]>c<!-- x -->d&#10;e</loc></url>")),
            locations{"http://a/&bcd\ne"});
}

TEST(ParseSitemap, InternalEntitiesAreExpanded) {
  EXPECT_EQ(read(R"(<!DOCTYPE urlset [<!ENTITY site "http://a">]>)"
                 "<urlset><url><loc>&site;/page</loc></url></urlset>"),
            locations{"http://a/page"});
}

TEST(ParseSitemap, ExternalEntitiesAreNotLoaded) {
  EXPECT_EQ(read(R"(<!DOCTYPE urlset [<!ENTITY ext SYSTEM "file:///etc/hostname">]>)"
                 "<urlset><url><loc>&ext;</loc></url><url><loc>http://a/</loc></url></urlset>"),
            locations{"http://a/"});
  EXPECT_EQ(read(R"(<!DOCTYPE urlset SYSTEM "file:///etc/passwd"><urlset/>)"), locations{});
}

TEST(ParseSitemap, Latin1IsConvertedToUtf8) {
  EXPECT_EQ(read("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"
                 "<urlset><url><loc>http://a/caf\xE9</loc></url></urlset>"),
            locations{"http://a/caf\xC3\xA9"});
}

TEST(ParseSitemap, Utf16) {
  const std::string_view text = "<urlset><url><loc>http://a/</loc></url></urlset>";
  std::string little_endian = "\xFF\xFE";
  for (const char c : text) {
    little_endian += c;
    little_endian += '\0';
  }
  EXPECT_EQ(read(little_endian), locations{"http://a/"});
}

TEST(ParseSitemap, ByteOrderMarkAndWhitespaceBeforeXml) {
  EXPECT_EQ(read("\xEF\xBB\xBF" + urlset("<url><loc>http://a/</loc></url>")),
            locations{"http://a/"});
  // Before the XML declaration, whitespace is an error in XML but is forgiven.
  EXPECT_EQ(read("\n \r\n\t" + urlset("<url><loc>http://a/</loc></url>")), locations{"http://a/"});
  EXPECT_EQ(read("\xEF\xBB\xBF\n" + urlset("<url><loc>http://a/</loc></url>")),
            locations{"http://a/"});
}

// ---- not sitemaps --------------------------------------------------------------------------

TEST(ParseSitemap, HtmlIsNotASitemap) {
  EXPECT_EQ(error_of("<html><head><title>404</title></head><body>Not found</body></html>"),
            "not a sitemap: the root element is <html>");
  EXPECT_EQ(error_of(R"(<html xmlns="http://www.w3.org/1999/xhtml"><body><br></body></html>)"),
            "not a sitemap: the root element is <html>");
  EXPECT_EQ(error_of("<!DOCTYPE html>\n<html><body><p>Not found<br></body></html>"),
            "not a sitemap: an HTML page (<!DOCTYPE html>)");
  EXPECT_EQ(error_of("  <!doctype HTML><meta charset=utf-8><title>x</title>"),
            "not a sitemap: an HTML page (<!DOCTYPE html>)");
}

TEST(ParseSitemap, OtherXmlIsNotASitemap) {
  EXPECT_EQ(error_of(R"(<rss version="2.0"><channel><link>http://a/</link></channel></rss>)"),
            "not a sitemap: the root element is <rss>");
  EXPECT_EQ(error_of("<url><loc>http://a/</loc></url>"),
            "not a sitemap: the root element is <url>");
  EXPECT_EQ(error_of(R"(<x:feed xmlns:x="http://www.w3.org/2005/Atom"/>)"),
            "not a sitemap: the root element is <feed>");
}

TEST(ParseSitemap, LongRootNamesAreCut) {
  const std::string name(1000, 'a');
  EXPECT_EQ(error_of("<" + name + "/>"),
            "not a sitemap: the root element is <" + std::string(64, 'a') + "...>");
  // Never inside a character: "\xC3\xA9" is é.
  std::string accented(63, 'a');
  for (int i = 0; i < 100; ++i)
    accented += "\xC3\xA9";
  EXPECT_EQ(error_of("<" + accented + "/>"),
            "not a sitemap: the root element is <" + std::string(63, 'a') + "...>");
}

TEST(ParseSitemap, EmptyBody) {
  EXPECT_EQ(error_of(""), "not a sitemap: the body is empty");
  EXPECT_EQ(error_of(" \r\n\t\n"), "not a sitemap: the body is empty");
  EXPECT_EQ(error_of("\xEF\xBB\xBF"), "not a sitemap: the body is empty");
  EXPECT_EQ(error_of(gzip("")), "not a sitemap: the body is empty");
}

TEST(ParseSitemap, MalformedXml) {
  EXPECT_EQ(error_of("<urlset>\n<url>\n<loc>http://a/</url>\n</urlset>"),
            "XML error at line 3: mismatched tag");
  EXPECT_EQ(error_of("<urlset><url><loc>http://a/</loc></url>"),
            "XML error at line 1: no element found");
  EXPECT_EQ(error_of("<urlset></urlset><urlset/>"),
            "XML error at line 1: junk after document element");
  EXPECT_EQ(error_of("<urlset><url><loc>a&b</loc></url></urlset>"),
            "XML error at line 1: not well-formed (invalid token)");
  EXPECT_EQ(error_of("<urlset><url><loc>&nbsp;</loc></url></urlset>"),
            "XML error at line 1: undefined entity");
  EXPECT_EQ(error_of("<urlset><url><loc>http://a/\xFF</loc></url></urlset>"),
            "XML error at line 1: not well-formed (invalid token)");
  EXPECT_EQ(error_of("<?xml version=\"1.0\" encoding=\"EBCDIC-nonsense\"?><urlset/>"),
            "XML error at line 1: unknown encoding");
}

TEST(ParseSitemap, LinesSkippedBeforeXmlStillCountInErrors) {
  EXPECT_EQ(error_of("\n\r\n\r<urlset>\n</url>"), "XML error at line 5: mismatched tag");
}

TEST(ParseSitemap, LocationsBeforeAnErrorAreNotReturned) {
  EXPECT_EQ(error_of(urlset("<url><loc>http://a/</loc></url><url>")),
            "XML error at line 4: mismatched tag");
}

TEST(ParseSitemap, BillionLaughsFails) {
  std::string body = "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [\n<!ENTITY lol0 \"lol\">\n";
  for (int i = 1; i <= 9; ++i) {
    body += "<!ENTITY lol" + std::to_string(i) + " \"";
    for (int j = 0; j < 10; ++j)
      body += "&lol" + std::to_string(i - 1) + ";";
    body += "\">\n";
  }
  body += "]>\n<urlset><url><loc>&lol9;</loc></url></urlset>\n";
  const std::string error = error_of(body);
  EXPECT_TRUE(error.starts_with("XML error at line 14: ")) << error;
  EXPECT_NE(error.find("amplification"), std::string::npos) << error;
}

TEST(ParseSitemap, QuadraticBlowupFails) {
  // One big entity used many times: no nesting, still an amplification.
  std::string body = "<!DOCTYPE urlset [<!ENTITY a \"" + std::string(100'000, 'a') + "\">]>";
  body += "<urlset><url><loc>";
  for (int i = 0; i < 10'000; ++i)
    body += "&a;";
  body += "</loc></url></urlset>";
  const std::string error = error_of(body);
  EXPECT_NE(error.find("amplification"), std::string::npos) << error;
}

// ---- gzip ----------------------------------------------------------------------------------

TEST(ParseSitemap, GzippedUrlsetIndexAndText) {
  EXPECT_EQ(read(gzip(urlset("<url><loc>http://a/</loc></url>"))), locations{"http://a/"});
  EXPECT_EQ(read(gzip("<sitemapindex><sitemap><loc>http://a/1.xml.gz</loc></sitemap>"
                      "</sitemapindex>"),
                 sitemap_kind::index),
            locations{"http://a/1.xml.gz"});
  EXPECT_EQ(read(gzip("http://a/1\nhttp://a/2\n")), (locations{"http://a/1", "http://a/2"}));
}

TEST(ParseSitemap, GzipUpToTheLimit) {
  const std::string body = "http://a/\n";
  EXPECT_EQ(parse_sitemap(gzip(body), body.size()).error, "");
  EXPECT_EQ(error_of(gzip(body), body.size() - 1), "larger than 9 bytes when decompressed");
}

TEST(ParseSitemap, GzipBomb) {
  EXPECT_EQ(error_of(gzip_bomb(1024 * 1024), 1024), "larger than 1024 bytes when decompressed");
  // The protocol's 50 MiB by default.
  EXPECT_EQ(error_of(gzip_bomb(max_sitemap_bytes + 1)),
            "larger than 52428800 bytes when decompressed");
}

TEST(ParseSitemap, CorruptGzip) {
  const std::string whole = gzip(urlset("<url><loc>http://a/</loc></url>"));
  EXPECT_EQ(error_of(whole.substr(0, whole.size() / 2)), "truncated gzip data");
  EXPECT_TRUE(error_of("\x1f\x8b garbage").starts_with("corrupt gzip data"));
}

TEST(ParseSitemap, GzippedTwice) {
  EXPECT_EQ(error_of(gzip(gzip("http://a/\n"))), "not a sitemap: gzipped twice");
}

// ---- text sitemaps -------------------------------------------------------------------------

TEST(ParseSitemap, Text) {
  EXPECT_EQ(read("http://www.example.com/catalog?item=1\nhttp://www.example.com/catalog?item=11\n"),
            (locations{"http://www.example.com/catalog?item=1",
                       "http://www.example.com/catalog?item=11"}));
  EXPECT_EQ(read("http://a/"), locations{"http://a/"});  // no line break at the end
}

TEST(ParseSitemap, TextBlankLinesAndWhitespace) {
  EXPECT_EQ(read("\n\nhttp://a/1\n   \n\t http://a/2 \t\n\n"),
            (locations{"http://a/1", "http://a/2"}));
}

TEST(ParseSitemap, TextCrlf) {
  EXPECT_EQ(read("http://a/1\r\nhttp://a/2\r\n\r\nhttp://a/3"),
            (locations{"http://a/1", "http://a/2", "http://a/3"}));
}

TEST(ParseSitemap, TextByteOrderMark) {
  EXPECT_EQ(read("\xEF\xBB\xBFhttp://a/1\nhttp://a/2\n"), (locations{"http://a/1", "http://a/2"}));
}

TEST(ParseSitemap, TextKeepsUtf8AndWhatIsNotAUrl) {
  // Resolving is the caller's business: lines are given as they are.
  EXPECT_EQ(read("http://a/caf\xC3\xA9\nnot a url\n/relative <a>\n"),
            (locations{"http://a/caf\xC3\xA9", "not a url", "/relative <a>"}));
}

TEST(ParseSitemap, TextThatIsNotUtf8) {
  EXPECT_EQ(error_of("http://a/caf\xE9\n"), "not a sitemap: text that is not UTF-8");
}

TEST(ParseSitemap, BinaryData) {
  EXPECT_EQ(error_of(std::string("http://a/\0\n", 11)),
            "not a sitemap: binary data (control characters in text)");
  EXPECT_EQ(error_of("\x89PNG\r\n\x1a\n"), "not a sitemap: text that is not UTF-8");
  EXPECT_EQ(error_of("PK\x03\x04"), "not a sitemap: binary data (control characters in text)");
}

// ---- the number of locations ---------------------------------------------------------------

std::string text_lines(std::size_t count) {
  std::string body;
  body.reserve(count * 2);
  for (std::size_t i = 0; i < count; ++i)
    body += "a\n";
  return body;
}

TEST(ParseSitemap, UpToTheLocationLimit) {
  const sitemap_result result = parse_sitemap(text_lines(max_sitemap_locations));
  ASSERT_TRUE(result.value.has_value()) << result.error;
  EXPECT_EQ(result.value->locations.size(), max_sitemap_locations);
}

TEST(ParseSitemap, PastTheLocationLimit) {
  EXPECT_EQ(error_of(text_lines(max_sitemap_locations + 1)),
            "more than 1000000 locations in one sitemap");
  // Blank lines do not count.
  EXPECT_EQ(parse_sitemap(text_lines(max_sitemap_locations) + "\n \n").error, "");

  std::string xml = "<urlset>";
  xml.reserve((max_sitemap_locations + 1) * 24 + 20);
  for (std::size_t i = 0; i <= max_sitemap_locations; ++i)
    xml += "<url><loc>a</loc></url>";
  xml += "</urlset>";
  EXPECT_EQ(error_of(xml), "more than 1000000 locations in one sitemap");
}

}  // namespace
}  // namespace corocrawl
