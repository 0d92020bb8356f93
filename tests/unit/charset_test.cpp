// Encodings of pages and stylesheets: labels, sniffing, decoding into UTF-8 and encoding a
// query.
#include "text/charset.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "corocrawl/utf8.hpp"

namespace corocrawl::charset {
namespace {

const std::string fffd = "\xEF\xBF\xBD";

// Every name the Encoding Standard gives an encoding.
const std::vector<std::string_view> all_names = {
    "UTF-8",        "IBM866",       "ISO-8859-2",   "ISO-8859-3",     "ISO-8859-4",
    "ISO-8859-5",   "ISO-8859-6",   "ISO-8859-7",   "ISO-8859-8",     "ISO-8859-8-I",
    "ISO-8859-10",  "ISO-8859-13",  "ISO-8859-14",  "ISO-8859-15",    "ISO-8859-16",
    "KOI8-R",       "KOI8-U",       "macintosh",    "windows-874",    "windows-1250",
    "windows-1251", "windows-1252", "windows-1253", "windows-1254",   "windows-1255",
    "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic", "GBK",
    "gb18030",      "Big5",         "EUC-JP",       "ISO-2022-JP",    "Shift_JIS",
    "EUC-KR",       "replacement",  "UTF-16BE",     "UTF-16LE",       "x-user-defined"};

std::string decoded(std::string_view bytes, std::string_view encoding) {
  const auto text = decode(bytes, encoding);
  EXPECT_TRUE(text.has_value()) << encoding;
  return text.value_or("(no converter)");
}

std::string_view html(std::string_view bytes, std::string_view http_charset = {}) {
  return sniff_html(bytes, http_charset).encoding;
}

TEST(Charset, LabelsNameTheirEncoding) {
  EXPECT_EQ(encoding_for_label("latin1"), "windows-1252");
  EXPECT_EQ(encoding_for_label("ISO-8859-1"), "windows-1252");
  EXPECT_EQ(encoding_for_label("ascii"), "windows-1252");
  EXPECT_EQ(encoding_for_label("us-ascii"), "windows-1252");
  EXPECT_EQ(encoding_for_label("iso-8859-9"), "windows-1254");
  EXPECT_EQ(encoding_for_label("tis-620"), "windows-874");
  EXPECT_EQ(encoding_for_label("sjis"), "Shift_JIS");
  EXPECT_EQ(encoding_for_label("Windows-31J"), "Shift_JIS");
  EXPECT_EQ(encoding_for_label("utf8"), "UTF-8");
  EXPECT_EQ(encoding_for_label(" \t UTF-8\r\n\f"), "UTF-8");
  EXPECT_EQ(encoding_for_label("unicode-1-1-utf-8"), "UTF-8");
  EXPECT_EQ(encoding_for_label("gb2312"), "GBK");
  EXPECT_EQ(encoding_for_label("big5-hkscs"), "Big5");
  EXPECT_EQ(encoding_for_label("ks_c_5601-1987"), "EUC-KR");
  EXPECT_EQ(encoding_for_label("x-euc-jp"), "EUC-JP");
  EXPECT_EQ(encoding_for_label("logical"), "ISO-8859-8-I");
  EXPECT_EQ(encoding_for_label("koi8-ru"), "KOI8-U");
  EXPECT_EQ(encoding_for_label("x-mac-ukrainian"), "x-mac-cyrillic");
  EXPECT_EQ(encoding_for_label("utf-16"), "UTF-16LE");
  EXPECT_EQ(encoding_for_label("unicodefffe"), "UTF-16BE");
  EXPECT_EQ(encoding_for_label("iso-2022-kr"), "replacement");
  EXPECT_EQ(encoding_for_label("hz-gb-2312"), "replacement");
  EXPECT_EQ(encoding_for_label("x-user-defined"), "x-user-defined");
  for (const std::string_view name : all_names)
    EXPECT_EQ(encoding_for_label(name), name);
}

TEST(Charset, UnknownLabelsNameNothing) {
  for (const std::string_view label :
       {"", " ", "latin", "latin1x", "utf-8;", "utf 8", "utf-7", "\"utf-8\"", "ebcdic",
        "iso-8859-1\v", "x-mac-roman-x", "l"}) {
    EXPECT_EQ(encoding_for_label(label), std::nullopt) << label;
  }
}

TEST(Charset, IconvDecodesEveryEncoding) {
  for (const std::string_view name : all_names) {
    const auto text = decode("a-z", name);
    ASSERT_TRUE(text.has_value()) << name;
    if (name == "replacement") {
      EXPECT_EQ(*text, fffd);
    } else if (name == "UTF-16LE") {
      EXPECT_EQ(*text, "\xE2\xB5\xA1" + fffd);
    } else if (name != "UTF-16BE") {
      EXPECT_EQ(*text, "a-z") << name;
    }
  }
  EXPECT_EQ(decode("a", "no-such-encoding"), std::nullopt);
}

TEST(Charset, IsUtf8) {
  EXPECT_TRUE(is_utf8("UTF-8"));
  EXPECT_FALSE(is_utf8("windows-1252"));
  EXPECT_FALSE(is_utf8("UTF-16LE"));
  EXPECT_FALSE(is_utf8("nonsense"));
}

TEST(Charset, ByteOrderMarksComeFirst) {
  EXPECT_EQ(sniff_html("\xEF\xBB\xBFhi", "iso-8859-2").encoding, "UTF-8");
  EXPECT_EQ(sniff_html("\xEF\xBB\xBFhi", "").bom_length, 3u);
  const auto le = sniff_html("\xFF\xFE<\0a\0", "shift_jis");
  EXPECT_EQ(le.encoding, "UTF-16LE");
  EXPECT_EQ(le.bom_length, 2u);
  const auto be = sniff_html("\xFE\xFF\0<", "");
  EXPECT_EQ(be.encoding, "UTF-16BE");
  EXPECT_EQ(be.bom_length, 2u);
  EXPECT_EQ(sniff_html("<meta charset=latin2>", "").bom_length, 0u);
  EXPECT_EQ(sniff_css("\xEF\xBB\xBF@charset \"latin2\";", "latin3").encoding, "UTF-8");
  EXPECT_EQ(sniff_css("\xFF\xFE", "").encoding, "UTF-16LE");
}

TEST(Charset, TransportBeatsMeta) {
  EXPECT_EQ(html("<meta charset=iso-8859-2>", "Shift_JIS"), "Shift_JIS");
  EXPECT_EQ(html("<meta charset=iso-8859-2>", " latin1 "), "windows-1252");
  // An empty or unknown transport charset is no charset.
  EXPECT_EQ(html("<meta charset=iso-8859-2>", ""), "ISO-8859-2");
  EXPECT_EQ(html("<meta charset=iso-8859-2>", "bogus"), "ISO-8859-2");
  // The transport may name UTF-16, which a meta may not.
  EXPECT_EQ(html("<meta charset=iso-8859-2>", "utf-16"), "UTF-16LE");
}

TEST(Charset, PrescanFindsMetaCharset) {
  EXPECT_EQ(html("<meta charset=\"euc-jp\">"), "EUC-JP");
  EXPECT_EQ(html("<META CHARSET='SJIS'>"), "Shift_JIS");
  EXPECT_EQ(html("<meta charset = \" koi8-r \" >"), "KOI8-R");
  EXPECT_EQ(html("<meta/charset=gbk>"), "GBK");
  EXPECT_EQ(html("<!doctype html><html lang=en><head><title>x</title>"
                 "<meta name=viewport content=\"width=device-width\"><meta charset=big5>"),
            "Big5");
  // Only the first declaration counts, and an unknown one is skipped.
  EXPECT_EQ(html("<meta charset=latin2><meta charset=koi8-r>"), "ISO-8859-2");
  EXPECT_EQ(html("<meta charset=bogus><meta charset=koi8-r>"), "KOI8-R");
  // The first of two charset attributes counts.
  EXPECT_EQ(html("<meta charset=latin2 charset=koi8-r>"), "ISO-8859-2");
  // "<meta" must be followed by whitespace or '/'.
  EXPECT_EQ(html("<metacharset=latin2><meta-x charset=latin2>"), "UTF-8");
}

TEST(Charset, PrescanReadsHttpEquivContent) {
  EXPECT_EQ(html("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-2\">"),
            "ISO-8859-2");
  // Either order.
  EXPECT_EQ(html("<meta content='text/html;charset=shift_jis' http-equiv=content-type>"),
            "Shift_JIS");
  // Quotes, whitespace and what follows the label in content.
  EXPECT_EQ(html("<meta http-equiv=content-type content='text/html; charset = \"euc-kr\"'>"),
            "EUC-KR");
  EXPECT_EQ(html("<meta http-equiv=content-type content=\"text/html; charset='koi8-r'x\">"),
            "KOI8-R");
  EXPECT_EQ(html("<meta http-equiv=content-type content=\"text/html; charset=gb2312; x=y\">"),
            "GBK");
  EXPECT_EQ(html("<meta http-equiv=content-type content=\"charsetcharset=latin2\">"), "ISO-8859-2");
  // An unmatched quote gives nothing.
  EXPECT_EQ(html("<meta http-equiv=content-type content=\"text/html; charset='latin2\">"), "UTF-8");
  // Without the pragma, content is ignored.
  EXPECT_EQ(html("<meta content=\"text/html; charset=latin2\">"), "UTF-8");
  EXPECT_EQ(html("<meta http-equiv=refresh content=\"text/html; charset=latin2\">"), "UTF-8");
  // A charset attribute wins over content, whichever comes first.
  EXPECT_EQ(html("<meta http-equiv=content-type content=\"text/html; charset=latin2\" "
                 "charset=koi8-r>"),
            "KOI8-R");
}

TEST(Charset, PrescanSkipsCommentsAndOtherMarkup) {
  EXPECT_EQ(html("<!-- <meta charset=latin2> --><meta charset=koi8-r>"), "KOI8-R");
  EXPECT_EQ(html("<!--><meta charset=koi8-r>"), "KOI8-R");  // "<!-->" is a whole comment
  EXPECT_EQ(html("<!-- unterminated <meta charset=latin2>"), "UTF-8");
  EXPECT_EQ(html("<!DOCTYPE <meta charset=latin2>><meta charset=koi8-r>"), "KOI8-R");
  EXPECT_EQ(html("<? <meta charset=latin2> ?><meta charset=koi8-r>"), "KOI8-R");
  // A meta inside another tag's attribute value is not a tag.
  EXPECT_EQ(html("<a title='<meta charset=latin2>'><meta charset=koi8-r>"), "KOI8-R");
  EXPECT_EQ(html("<div data-x=\"<meta charset=latin2>\">"), "UTF-8");
  // Text is only skipped: a meta after it counts.
  EXPECT_EQ(html("<title>a < b <meta charset=latin2>"), "ISO-8859-2");
}

TEST(Charset, PrescanReadsTheFirst1024BytesOnly) {
  const std::string meta = "<meta charset=latin2>";
  std::string filler = "<p>" + std::string(1100, 'x');
  EXPECT_EQ(html(filler + meta), "UTF-8");
  filler.resize(1024 - meta.size());
  EXPECT_EQ(html(filler + meta), "ISO-8859-2");
  filler += ' ';  // the '>' falls outside
  EXPECT_EQ(html(filler + meta), "UTF-8");
}

TEST(Charset, MetaUtf16MeansUtf8AndUserDefinedMeansWindows1252) {
  EXPECT_EQ(html("<meta charset=utf-16>"), "UTF-8");
  EXPECT_EQ(html("<meta charset=utf-16be>\xE9"), "UTF-8");
  EXPECT_EQ(html("<meta charset=x-user-defined>"), "windows-1252");
}

TEST(Charset, WithoutDeclarationValidUtf8IsUtf8AndElseWindows1252) {
  EXPECT_EQ(html(""), "UTF-8");
  EXPECT_EQ(html("<a href=x>plain</a>"), "UTF-8");
  EXPECT_EQ(html("<a href=caf\xC3\xA9.html>"), "UTF-8");
  EXPECT_EQ(html("<a href=caf\xE9.html>"), "windows-1252");
  EXPECT_EQ(html("<meta charset=bogus><a href=caf\xE9.html>"), "windows-1252");
}

TEST(Charset, StylesheetsFollowCssSyntax) {
  EXPECT_EQ(sniff_css("@charset \"iso-8859-2\"; a{}", "").encoding, "ISO-8859-2");
  EXPECT_EQ(sniff_css("@charset \"iso-8859-2\";", "koi8-r").encoding, "KOI8-R");
  EXPECT_EQ(sniff_css("@charset \"utf-16\";", "").encoding, "UTF-8");
  // Exact bytes only.
  EXPECT_EQ(sniff_css("@CHARSET \"iso-8859-2\";", "").encoding, "UTF-8");
  EXPECT_EQ(sniff_css("@charset 'iso-8859-2';", "").encoding, "UTF-8");
  EXPECT_EQ(sniff_css("@charset  \"iso-8859-2\";", "").encoding, "UTF-8");
  EXPECT_EQ(sniff_css("@charset \"iso-8859-2\" ;", "").encoding, "UTF-8");
  EXPECT_EQ(sniff_css(" @charset \"iso-8859-2\";", "").encoding, "UTF-8");
  // Then the referrer's encoding, then UTF-8.
  EXPECT_EQ(sniff_css("@charset \"bogus\";", "", "Shift_JIS").encoding, "Shift_JIS");
  EXPECT_EQ(sniff_css("a{}", "", "windows-1252").encoding, "windows-1252");
  EXPECT_EQ(sniff_css("a{}", "bogus", "nonsense").encoding, "UTF-8");
  EXPECT_EQ(sniff_css("a{}", "").encoding, "UTF-8");
}

TEST(Charset, DecodesWindows1252) {
  EXPECT_EQ(decoded("caf\xE9.html", "windows-1252"), "caf\xC3\xA9.html");
  EXPECT_EQ(decoded("\x80", "windows-1252"), "\xE2\x82\xAC");  // €
  EXPECT_EQ(decoded("\x9F\xFF", "windows-1252"), "\xC5\xB8\xC3\xBF");
  // The bytes Windows leaves out are C1 controls, as in the standard's index.
  EXPECT_EQ(decoded("\x81\x8D\x8F\x90\x9D", "windows-1252"),
            "\xC2\x81\xC2\x8D\xC2\x8F\xC2\x90\xC2\x9D");
  // Every byte is a character, so the whole page survives.
  std::string all;
  for (int b = 0; b < 256; ++b)
    all += static_cast<char>(b);
  const std::string text = decoded(all, "windows-1252");
  EXPECT_TRUE(is_valid_utf8(text));
  EXPECT_EQ(text.find(fffd), std::string::npos);
}

TEST(Charset, DecodesSingleByteEncodings) {
  EXPECT_EQ(decoded("\xB1\xE6", "ISO-8859-2"), "\xC4\x85\xC4\x87");  // ąć
  EXPECT_EQ(decoded("\xC1\xC2", "KOI8-R"), "\xD0\xB0\xD0\xB1");      // аб
  EXPECT_EQ(decoded("\xE0\xE1", "windows-1251"), "\xD0\xB0\xD0\xB1");
  EXPECT_EQ(decoded("\xA4", "ISO-8859-15"), "\xE2\x82\xAC");
  // ISO-8859-3 has no A5: U+FFFD, and decoding goes on.
  EXPECT_EQ(decoded("a\xA5z", "ISO-8859-3"), "a" + fffd + "z");
  // windows-1253 has no AA, past the C1 range.
  EXPECT_EQ(decoded("\xAA\x81", "windows-1253"), fffd + "\xC2\x81");
}

TEST(Charset, ErrorsKeepTheOrderOfCombiningEncodings) {
  // CP1255 holds a letter back for a point that may follow; an error must not overtake it.
  EXPECT_EQ(decoded("\xE0\xFFx", "windows-1255"), "\xD7\x90" + fffd + "x");
  EXPECT_EQ(decoded("\xE0", "windows-1255"), "\xD7\x90");
}

TEST(Charset, DecodesShiftJis) {
  EXPECT_EQ(decoded("\x82\xA0.html", "Shift_JIS"), "\xE3\x81\x82.html");  // あ
  EXPECT_EQ(decoded("\x95\x5C", "Shift_JIS"), "\xE8\xA1\xA8");            // 表: 5C trails
  EXPECT_EQ(decoded("\xB1", "Shift_JIS"), "\xEF\xBD\xB1");                // halfwidth ｱ
  EXPECT_EQ(decoded("\x87\x40", "Shift_JIS"), "\xE2\x91\xA0");            // ① (NEC)
  EXPECT_EQ(decoded("\x81\x60", "Shift_JIS"), "\xEF\xBD\x9E");            // 〜 as U+FF5E
  EXPECT_EQ(decoded("\x80", "Shift_JIS"), "\xC2\x80");
  // A bad pair: an ASCII trail is read again, a non-ASCII one is taken along.
  EXPECT_EQ(decoded("\x81\x20x", "Shift_JIS"), fffd + " x");
  EXPECT_EQ(decoded("\x85\x9F\"x", "Shift_JIS"), fffd + "\"x");
  EXPECT_EQ(decoded("\xFF\"", "Shift_JIS"), fffd + "\"");
  // Cut short by the end.
  EXPECT_EQ(decoded("a\x82", "Shift_JIS"), "a" + fffd);
}

TEST(Charset, DecodesJapaneseEncodings) {
  EXPECT_EQ(decoded("\xA4\xA2", "EUC-JP"), "\xE3\x81\x82");  // あ
  EXPECT_EQ(decoded("\x8E\xB1", "EUC-JP"), "\xEF\xBD\xB1");  // halfwidth ｱ
  EXPECT_EQ(decoded("\xAD\xA1", "EUC-JP"), "\xE2\x91\xA0");  // ① (NEC row 13)
  EXPECT_EQ(decoded("\xA4\"", "EUC-JP"), fffd + "\"");       // bad pair
  EXPECT_EQ(decoded("\xA4", "EUC-JP"), fffd);                // cut short
  EXPECT_EQ(decoded("a\x1B$B$\"\x1B(Bb", "ISO-2022-JP"),
            "a\xE3\x81\x82"
            "b");
}

TEST(Charset, DecodesChineseAndKoreanEncodings) {
  EXPECT_EQ(decoded("\xC4\xE3\xBA\xC3", "gb18030"), "\xE4\xBD\xA0\xE5\xA5\xBD");  // 你好
  EXPECT_EQ(decoded("\x81\x30\x81\x30", "gb18030"), "\xC2\x80");                  // four bytes
  EXPECT_EQ(decoded("\x90\x30\x81\x30", "gb18030"), "\xF0\x90\x80\x80");          // U+10000
  EXPECT_EQ(decoded("\x80", "gb18030"), "\xE2\x82\xAC");
  EXPECT_EQ(decoded("\xC4\xE3\xBA\xC3", "GBK"), "\xE4\xBD\xA0\xE5\xA5\xBD");
  EXPECT_EQ(decoded("\x81\x30\x81\x30", "GBK"), "\xC2\x80");  // GBK decodes as gb18030
  EXPECT_EQ(decoded("\xC4", "gb18030"), fffd);
  EXPECT_EQ(decoded("\xA4\xA4\xA4\xE5", "Big5"), "\xE4\xB8\xAD\xE6\x96\x87");  // 中文
  EXPECT_EQ(decoded("\xB0\xA1", "EUC-KR"), "\xEA\xB0\x80");                    // 가
  EXPECT_EQ(decoded("\x81\x41", "EUC-KR"), "\xEA\xB0\x82");  // 갂, from the CP949 extension
}

TEST(Charset, DecodesUtf16) {
  EXPECT_EQ(decoded(std::string("a\0\xE9\0", 4), "UTF-16LE"), "a\xC3\xA9");
  EXPECT_EQ(decoded(std::string("\0a\0\xE9", 4), "UTF-16BE"), "a\xC3\xA9");
  EXPECT_EQ(decoded(std::string("\x3D\xD8\x00\xDE", 4), "UTF-16LE"), "\xF0\x9F\x98\x80");  // a pair
  // An odd byte at the end, a lone surrogate, a lead surrogate cut short.
  EXPECT_EQ(decoded(std::string("a\0b", 3), "UTF-16LE"), "a" + fffd);
  EXPECT_EQ(decoded(std::string("\0a\0", 3), "UTF-16BE"), "a" + fffd);
  EXPECT_EQ(decoded(std::string("\x00\xDCx\0", 4), "UTF-16LE"), fffd + "x");
  EXPECT_EQ(decoded(std::string("\x00\xD8x\0", 4), "UTF-16LE"), fffd + "x");
  EXPECT_EQ(decoded(std::string("\x00\xD8", 2), "UTF-16LE"), fffd);
  // The byte order mark is the caller's to strip: kept, it is U+FEFF.
  const auto page = std::string("\xFF\xFE<\0a\0 \0h\0r\0e\0f\0=\0x\0>\0", 22);
  const auto sniffed = sniff_html(page, "");
  EXPECT_EQ(decoded(std::string_view(page).substr(sniffed.bom_length), sniffed.encoding),
            "<a href=x>");
}

TEST(Charset, DecodesUtf8AsTheStandardDoes) {
  EXPECT_EQ(decoded("caf\xC3\xA9", "UTF-8"), "caf\xC3\xA9");
  EXPECT_EQ(decoded("a\xE2\x82"
                    "b\xC0\x80",
                    "utf-8"),
            "a" + fffd + "b" + fffd + fffd);
  EXPECT_EQ(decoded("\xF0\x9F\x98", "UTF-8"), fffd);
}

TEST(Charset, DecodesReplacementAndUserDefined) {
  EXPECT_EQ(decoded("", "replacement"), "");
  EXPECT_EQ(decoded("<a href=x>", "replacement"), fffd);
  EXPECT_EQ(decoded("a\x80\xFF", "x-user-defined"), "a\xEF\x9E\x80\xEF\x9F\xBF");
}

TEST(Charset, DecodingNeverStopsEarly) {
  // 64 KiB of errors: one U+FFFD each, and the text after them.
  const std::string bad(1 << 16, '\xFF');
  EXPECT_EQ(decoded(bad + "end", "Shift_JIS"), [&] {
    std::string out;
    for (std::size_t i = 0; i < bad.size(); ++i)
      out += fffd;
    return out + "end";
  }());
  const std::string bad_pairs = std::string(1 << 15, '\x85') + "\"";  // 85 85: no character
  const std::string text = decoded(bad_pairs, "Shift_JIS");
  EXPECT_TRUE(text.ends_with(fffd + "\""));
  EXPECT_EQ(text.size(), (1u << 14) * fffd.size() + 1);
}

TEST(Charset, EncodesQueriesForWindows1252) {
  EXPECT_EQ(encode_for_query("caf\xC3\xA9", "windows-1252"), "caf\xE9");
  EXPECT_EQ(encode_for_query("\xE2\x98\x83", "windows-1252"), "&#9731;");  // ☃
  EXPECT_EQ(encode_for_query("a\xF0\x9F\x98\x80z", "windows-1252"), "a&#128512;z");
  EXPECT_EQ(encode_for_query("\xE2\x82\xAC", "windows-1252"), "\x80");
  // The C1 controls the standard's index holds encode back; U+0080 (the euro's byte) cannot.
  EXPECT_EQ(encode_for_query("\xC2\x81\xC2\x9D", "windows-1252"), "\x81\x9D");
  EXPECT_EQ(encode_for_query("\xC2\x80", "windows-1252"), "&#128;");
  // Ill-formed input is read as U+FFFD.
  EXPECT_EQ(encode_for_query("a\xFF", "windows-1252"), "a&#65533;");
}

TEST(Charset, EncodesQueriesForOtherEncodings) {
  EXPECT_EQ(encode_for_query("\xE3\x81\x82", "Shift_JIS"), "\x82\xA0");  // あ
  EXPECT_EQ(encode_for_query("\xE8\xA1\xA8", "Shift_JIS"), "\x95\x5C");  // 表
  EXPECT_EQ(encode_for_query("caf\xC3\xA9", "Shift_JIS"), "caf&#233;");  // no é in JIS
  EXPECT_EQ(encode_for_query("\xE3\x81\x82", "EUC-JP"), "\xA4\xA2");
  EXPECT_EQ(encode_for_query("\xE4\xBD\xA0", "GBK"), "\xC4\xE3");
  EXPECT_EQ(encode_for_query("\xE2\x82\xAC", "GBK"), "\x80");
  EXPECT_EQ(encode_for_query("\xF0\x90\x80\x80", "gb18030"), "\x90\x30\x81\x30");
  EXPECT_EQ(encode_for_query("\xF0\x90\x80\x80", "GBK"), "&#65536;");
  EXPECT_EQ(encode_for_query("\xE4\xB8\xAD", "Big5"), "\xA4\xA4");
  EXPECT_EQ(encode_for_query("\xEA\xB0\x80", "EUC-KR"), "\xB0\xA1");
  // A stateful encoding is back in ASCII for the reference, and at the end.
  EXPECT_EQ(encode_for_query("\xE3\x81\x82\xE2\x98\x83", "ISO-2022-JP"), "\x1B$B$\"\x1B(B&#9731;");
  EXPECT_EQ(encode_for_query("\xE3\x81\x82", "ISO-2022-JP"), "\x1B$B$\"\x1B(B");
  EXPECT_EQ(encode_for_query("a\xEF\x9E\x80\xC3\xA9", "x-user-defined"), "a\x80&#233;");
}

TEST(Charset, EncodesQueriesForUtf16AndReplacementAsUtf8) {
  for (const std::string_view encoding : {"UTF-8", "UTF-16LE", "UTF-16BE", "replacement"})
    EXPECT_EQ(encode_for_query("\xE2\x98\x83", encoding), "\xE2\x98\x83") << encoding;
  EXPECT_EQ(encode_for_query("\xE2\x98\x83", "no-such-encoding"), "\xE2\x98\x83");
}

}  // namespace
}  // namespace corocrawl::charset
