#pragma once
// Character encodings of pages and stylesheets (the WHATWG Encoding Standard): which encoding a
// document is in, as browsers decide it, and its bytes decoded into UTF-8 before links are
// read and resolved. Without this a Latin-1 page's "café.html" became caf%EF%BF%BD.html (a
// false 404), Shift_JIS links went to wrong URLs and UTF-16 pages gave no links.
//
// Encodings are named by their Encoding Standard names ("UTF-8", "windows-1252", "Shift_JIS",
// "UTF-16LE", ...); the string_views this module returns point into its static tables. The
// legacy encodings are decoded with glibc's iconv, under the names that come closest to what
// browsers decode (Shift_JIS is CP932, EUC-KR is CP949, Big5 is BIG5-HKSCS...).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace corocrawl::charset {

/// The encoding `label` names by the Encoding Standard's table of labels ("latin1",
/// "iso-8859-1" and "ascii" name windows-1252, "sjis" Shift_JIS, "utf8" UTF-8...), matched
/// ASCII-case-insensitively with the ASCII whitespace around it ignored; nullopt for a label
/// the standard does not list.
std::optional<std::string_view> encoding_for_label(std::string_view label);

/// An encoding, and the length of the byte order mark that decided it (0 when none did).
struct sniffed {
  std::string_view encoding;
  std::size_t bom_length = 0;
};

/// The encoding of an HTML document's `bytes` by HTML's encoding sniffing algorithm: a byte
/// order mark (UTF-8, UTF-16LE, UTF-16BE); else the transport's charset, `http_charset` (the
/// Content-Type parameter; empty or an unknown label is no charset); else a <meta charset> or
/// <meta http-equiv=content-type content="...charset=..."> found by HTML's "prescan a byte
/// stream" over the first 1024 bytes (comments and other tags skipped; a UTF-16 meta means
/// UTF-8, x-user-defined windows-1252); else UTF-8 when all the bytes are well-formed UTF-8,
/// and windows-1252 when they are not: what browsers' detection mostly settles on for a
/// legacy page that declares nothing.
sniffed sniff_html(std::string_view bytes, std::string_view http_charset);

/// How many of a page's first bytes sniff_html's <meta> prescan reads.
inline constexpr std::size_t html_prescan_length = 1024;

/// The encoding a page declares, as sniff_html finds it before it looks at the bytes
/// themselves: its byte order mark, `http_charset`, or a <meta> in its first
/// html_prescan_length bytes; nothing when none of them names one.
std::optional<sniffed> declared_html_encoding(std::string_view bytes,
                                              std::string_view http_charset);

/// The encoding of a stylesheet's `bytes` by CSS Syntax 3.2 ("determine the fallback
/// encoding"): a byte order mark; else `http_charset`; else an initial `@charset "LABEL";`
/// (those exact bytes, within the first 1024; UTF-16 there means UTF-8); else
/// `referrer_encoding` (the encoding of the document that links it) when it names one; else
/// UTF-8.
sniffed sniff_css(std::string_view bytes, std::string_view http_charset,
                  std::string_view referrer_encoding = {});

/// `bytes` (after the byte order mark) decoded from `encoding` into UTF-8. Malformed or
/// unmappable input becomes U+FFFD and decoding goes on to the end, so is a sequence cut short
/// by the end of `bytes`. UTF-8 comes back with ill-formed sequences replaced as the Encoding
/// Standard's UTF-8 decoder does (one U+FFFD per maximal subpart). nullopt only when
/// `encoding` is none of the standard's names, or iconv has no converter for it: the caller
/// then decodes as UTF-8 and warns.
std::optional<std::string> decode(std::string_view bytes, std::string_view encoding);

/// `utf8` encoded into `encoding` for a URL's query, as the URL Standard does on a page in
/// that encoding: UTF-16LE, UTF-16BE and replacement encode as UTF-8 (so do names this module
/// does not know), and each character the encoding cannot represent becomes "&#N;" (N in
/// decimal), the standard's "encode or fail" followed by its percent-encode step. Ill-formed
/// input is read as to_valid_utf8 reads it. The caller percent-encodes the bytes.
std::string encode_for_query(std::string_view utf8, std::string_view encoding);

/// Whether `encoding` is UTF-8, so decoding can be skipped (the caller keeps the bytes as
/// they are, for speed).
bool is_utf8(std::string_view encoding);

}  // namespace corocrawl::charset
