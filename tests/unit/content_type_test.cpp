// Content-Type parsing and the media type for a file name.

#include "http/content_type.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace corocrawl {
namespace {

// ---- parse_content_type --------------------------------------------------------------------

TEST(ParseContentType, TypeOnly) {
  const auto m = parse_content_type("text/html");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->type, "text/html");
  EXPECT_EQ(m->charset, std::nullopt);
}

TEST(ParseContentType, TypeIsLowerCased) {
  const auto m = parse_content_type("Text/HTML");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->type, "text/html");
}

TEST(ParseContentType, Charset) {
  const auto m = parse_content_type("text/html; charset=utf-8");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->type, "text/html");
  EXPECT_EQ(m->charset, std::optional<std::string>("utf-8"));
}

TEST(ParseContentType, CharsetIsLowerCased) {
  const auto m = parse_content_type("text/html;CHARSET=UTF-8");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->charset, std::optional<std::string>("utf-8"));
}

TEST(ParseContentType, QuotedCharset) {
  const auto m = parse_content_type("text/html; charset=\"ISO-8859-1\"");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->charset, std::optional<std::string>("iso-8859-1"));
}

TEST(ParseContentType, QuotedStringWithEscapesAndSemicolon) {
  const auto m = parse_content_type(R"(text/plain; note="a;b\"c\\d"; charset=ascii)");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->type, "text/plain");
  EXPECT_EQ(m->charset, std::optional<std::string>("ascii"));
}

TEST(ParseContentType, QuotedCharsetWithEscape) {
  const auto m = parse_content_type(R"(text/plain; charset="ut\f-8")");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->charset, std::optional<std::string>("utf-8"));
}

TEST(ParseContentType, UnterminatedQuotedString) {
  const auto m = parse_content_type("text/plain; charset=\"utf-8");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->charset, std::optional<std::string>("utf-8"));
}

TEST(ParseContentType, OptionalWhitespaceEverywhere) {
  const auto m = parse_content_type(" \t text/html \t ;\t charset = utf-8 \t ; q=1 ");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->type, "text/html");
  EXPECT_EQ(m->charset, std::optional<std::string>("utf-8"));
}

TEST(ParseContentType, OtherParametersAreSkipped) {
  const auto m = parse_content_type("multipart/form-data; boundary=xyz; charset=utf-8");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->type, "multipart/form-data");
  EXPECT_EQ(m->charset, std::optional<std::string>("utf-8"));
}

TEST(ParseContentType, FirstCharsetWins) {
  const auto m = parse_content_type("text/html; charset=utf-8; charset=latin1");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->charset, std::optional<std::string>("utf-8"));
}

TEST(ParseContentType, MalformedParametersAreIgnored) {
  const auto m = parse_content_type("text/html;;; novalue; =x; charset=");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->type, "text/html");
  EXPECT_EQ(m->charset, std::nullopt);
}

TEST(ParseContentType, ValueWithoutSlashIsStillTheType) {
  // The chapter's test_content_type serves "foo" and expects "foo".
  const auto m = parse_content_type("foo");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->type, "foo");
  const auto image = parse_content_type("IMAGE");
  ASSERT_TRUE(image.has_value());
  EXPECT_EQ(image->type, "image");
}

TEST(ParseContentType, EmptyOrBlankIsNullopt) {
  EXPECT_EQ(parse_content_type(""), std::nullopt);
  EXPECT_EQ(parse_content_type(" \t "), std::nullopt);
}

TEST(ParseContentType, OnlyParameters) {
  const auto m = parse_content_type("; charset=utf-8");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->type, "");
  EXPECT_EQ(m->charset, std::optional<std::string>("utf-8"));
}

// ---- is_markup / is_html -------------------------------------------------------------------

TEST(IsHtml, HtmlTypes) {
  EXPECT_TRUE(is_html("text/html"));
  EXPECT_TRUE(is_html("application/xhtml+xml"));
  EXPECT_TRUE(is_html("TEXT/HTML"));
  EXPECT_TRUE(is_html("text/html; charset=utf-8"));
}

TEST(IsHtml, OtherTypes) {
  EXPECT_FALSE(is_html("application/xml"));
  EXPECT_FALSE(is_html("text/plain"));
  EXPECT_FALSE(is_html("text/htmlx"));
  EXPECT_FALSE(is_html("html"));
  EXPECT_FALSE(is_html(""));
}

TEST(IsMarkup, HtmlAndXml) {
  EXPECT_TRUE(is_markup("text/html"));
  EXPECT_TRUE(is_markup("application/xhtml+xml"));
  EXPECT_TRUE(is_markup("application/xml"));
  EXPECT_TRUE(is_markup("text/xml"));
  EXPECT_TRUE(is_markup("application/rss+xml"));
  EXPECT_TRUE(is_markup("application/atom+xml"));
  EXPECT_TRUE(is_markup("image/svg+xml"));
  EXPECT_TRUE(is_markup("Application/XML; charset=utf-8"));
}

TEST(IsMarkup, NotMarkup) {
  EXPECT_FALSE(is_markup("text/plain"));
  EXPECT_FALSE(is_markup("application/json"));
  EXPECT_FALSE(is_markup("image/png"));
  EXPECT_FALSE(is_markup("image"));
  EXPECT_FALSE(is_markup("foo"));
  EXPECT_FALSE(is_markup("+xml"));
  EXPECT_FALSE(is_markup("application/+xml"));
  EXPECT_FALSE(is_markup("application/xmlx"));
  EXPECT_FALSE(is_markup(""));
}

// ---- content_type_for_path -----------------------------------------------------------------

TEST(ContentTypeForPath, TextTypesCarryCharset) {
  EXPECT_EQ(content_type_for_path("index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(content_type_for_path("a/b/page.htm"), "text/html; charset=utf-8");
  EXPECT_EQ(content_type_for_path("style.css"), "text/css; charset=utf-8");
  EXPECT_EQ(content_type_for_path("app.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type_for_path("mod.mjs"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type_for_path("notes.txt"), "text/plain; charset=utf-8");
  EXPECT_EQ(content_type_for_path("README.md"), "text/markdown; charset=utf-8");
  EXPECT_EQ(content_type_for_path("data.csv"), "text/csv; charset=utf-8");
  EXPECT_EQ(content_type_for_path("page.xhtml"), "application/xhtml+xml; charset=utf-8");
  EXPECT_EQ(content_type_for_path("feed.xml"), "application/xml; charset=utf-8");
  EXPECT_EQ(content_type_for_path("feed.rss"), "application/rss+xml; charset=utf-8");
  EXPECT_EQ(content_type_for_path("feed.atom"), "application/atom+xml; charset=utf-8");
  EXPECT_EQ(content_type_for_path("logo.svg"), "image/svg+xml; charset=utf-8");
}

TEST(ContentTypeForPath, BinaryAndJsonTypes) {
  EXPECT_EQ(content_type_for_path("data.json"), "application/json");
  EXPECT_EQ(content_type_for_path("app.js.map"), "application/json");
  EXPECT_EQ(content_type_for_path("a.png"), "image/png");
  EXPECT_EQ(content_type_for_path("a.jpg"), "image/jpeg");
  EXPECT_EQ(content_type_for_path("a.jpeg"), "image/jpeg");
  EXPECT_EQ(content_type_for_path("a.gif"), "image/gif");
  EXPECT_EQ(content_type_for_path("a.webp"), "image/webp");
  EXPECT_EQ(content_type_for_path("a.avif"), "image/avif");
  EXPECT_EQ(content_type_for_path("favicon.ico"), "image/x-icon");
  EXPECT_EQ(content_type_for_path("doc.pdf"), "application/pdf");
  EXPECT_EQ(content_type_for_path("f.woff"), "font/woff");
  EXPECT_EQ(content_type_for_path("f.woff2"), "font/woff2");
  EXPECT_EQ(content_type_for_path("f.ttf"), "font/ttf");
  EXPECT_EQ(content_type_for_path("f.otf"), "font/otf");
  EXPECT_EQ(content_type_for_path("m.wasm"), "application/wasm");
  EXPECT_EQ(content_type_for_path("v.mp4"), "video/mp4");
  EXPECT_EQ(content_type_for_path("v.webm"), "video/webm");
  EXPECT_EQ(content_type_for_path("s.mp3"), "audio/mpeg");
  EXPECT_EQ(content_type_for_path("s.ogg"), "audio/ogg");
  EXPECT_EQ(content_type_for_path("a.zip"), "application/zip");
  EXPECT_EQ(content_type_for_path("a.tar.gz"), "application/gzip");
}

TEST(ContentTypeForPath, ExtensionIsCaseInsensitive) {
  EXPECT_EQ(content_type_for_path("INDEX.HTML"), "text/html; charset=utf-8");
  EXPECT_EQ(content_type_for_path("Photo.JpG"), "image/jpeg");
}

TEST(ContentTypeForPath, UnknownIsOctetStream) {
  EXPECT_EQ(content_type_for_path("archive.xyz"), "application/octet-stream");
  EXPECT_EQ(content_type_for_path("Makefile"), "application/octet-stream");
  EXPECT_EQ(content_type_for_path("file."), "application/octet-stream");
  EXPECT_EQ(content_type_for_path(""), "application/octet-stream");
  EXPECT_EQ(content_type_for_path(".html"), "application/octet-stream");
  EXPECT_EQ(content_type_for_path("htm"), "application/octet-stream");
}

TEST(ContentTypeForPath, OnlyTheFileNameCounts) {
  EXPECT_EQ(content_type_for_path("dir.html/file"), "application/octet-stream");
  EXPECT_EQ(content_type_for_path("/srv/site.d/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(content_type_for_path("C:\\site\\page.css"), "text/css; charset=utf-8");
}

}  // namespace
}  // namespace corocrawl
