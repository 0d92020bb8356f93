// Fuzzes the encodings of pages and stylesheets (text/charset.hpp) and checks their contracts,
// not only that they do not crash.
//
// Input: one byte choosing the encoding (its value modulo the number of encodings), then the
// bytes: decoded from that encoding, encoded back for a query, sniffed as a page and as a
// stylesheet, and read as a label.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.hpp"
#include "corocrawl/utf8.hpp"
#include "text/charset.hpp"

namespace {

namespace charset = corocrawl::charset;

constexpr corocrawl::fuzz::checker check{"charset"};

// Every encoding of the Encoding Standard, by name.
constexpr std::array<std::string_view, 40> names = {
    "UTF-8",        "IBM866",       "ISO-8859-2",   "ISO-8859-3",     "ISO-8859-4",
    "ISO-8859-5",   "ISO-8859-6",   "ISO-8859-7",   "ISO-8859-8",     "ISO-8859-8-I",
    "ISO-8859-10",  "ISO-8859-13",  "ISO-8859-14",  "ISO-8859-15",    "ISO-8859-16",
    "KOI8-R",       "KOI8-U",       "macintosh",    "windows-874",    "windows-1250",
    "windows-1251", "windows-1252", "windows-1253", "windows-1254",   "windows-1255",
    "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic", "GBK",
    "gb18030",      "Big5",         "EUC-JP",       "ISO-2022-JP",    "Shift_JIS",
    "EUC-KR",       "replacement",  "UTF-16BE",     "UTF-16LE",       "x-user-defined"};

// Encodings where every byte is one character and every such character one byte, so
// encoding what was decoded gives the bytes back.
bool is_bijective(std::string_view name) {
  return name == "windows-1252" || name == "windows-1251" || name == "ISO-8859-2" ||
         name == "KOI8-R" || name == "IBM866" || name == "x-user-defined";
}

// Encodings in which ASCII (without the escape and shift bytes) stands for itself.
bool keeps_ascii(std::string_view name) {
  return name != "UTF-16BE" && name != "UTF-16LE" && name != "replacement" && name != "ISO-2022-JP";
}

bool is_plain_ascii(std::string_view bytes) {
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80 || byte == 0x1B || byte == 0x0E || byte == 0x0F) return false;
  }
  return true;
}

bool is_known_name(std::string_view name) {
  for (const std::string_view known : names) {
    if (known == name) return true;
  }
  return false;
}

void check_sniffed(const charset::sniffed& sniffed, std::string_view bytes) {
  check(is_known_name(sniffed.encoding), "sniffed an encoding with no name", sniffed.encoding);
  check(charset::encoding_for_label(sniffed.encoding) == sniffed.encoding,
        "a sniffed name is not its own label", sniffed.encoding);
  check(sniffed.bom_length == 0 || sniffed.bom_length == 2 || sniffed.bom_length == 3,
        "a byte order mark of a strange length", bytes);
  check(sniffed.bom_length <= bytes.size(), "a byte order mark longer than the bytes", bytes);
}

void check_decoding(std::string_view name, std::string_view bytes) {
  const auto text = charset::decode(bytes, name);
  check(text.has_value(), "no converter for a standard encoding", name);
  check(corocrawl::is_valid_utf8(*text), "decoded text is not UTF-8", bytes);
  if (name == "UTF-8")
    check(*text == corocrawl::to_valid_utf8(bytes), "UTF-8 not as utf8.hpp", bytes);
  if (keeps_ascii(name) && is_plain_ascii(bytes))
    check(*text == bytes, "ASCII decoded to something else", bytes);
  if (name != "ISO-2022-JP")  // escape sequences alone decode to nothing
    check(bytes.empty() == text->empty(), "decoding lost or made up all the text", bytes);

  const std::string encoded = charset::encode_for_query(*text, name);
  if (is_bijective(name)) check(encoded == bytes, "encoding back changed the bytes", bytes);
  if (keeps_ascii(name) && is_plain_ascii(bytes))
    check(encoded == bytes, "ASCII encoded to something else", bytes);
  // What was encoded decodes without errors, except where the text had them.
  if (const auto again = charset::decode(encoded, name); again && name != "replacement") {
    check(corocrawl::is_valid_utf8(*again), "re-decoded text is not UTF-8", encoded);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view name = names[data[0] % names.size()];
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);

  check_decoding(name, bytes);

  const auto page = charset::sniff_html(bytes, "");
  check_sniffed(page, bytes);
  if (page.bom_length == 0)
    check(page.encoding != "UTF-16LE" && page.encoding != "UTF-16BE" &&
              page.encoding != "x-user-defined",
          "a page without a byte order mark sniffed as UTF-16 or x-user-defined", bytes);
  const auto declared = charset::sniff_html(bytes, name);
  check_sniffed(declared, bytes);
  if (declared.bom_length == 0)
    check(declared.encoding == name, "the transport's charset was not used", bytes);

  check_sniffed(charset::sniff_css(bytes, ""), bytes);
  const auto css = charset::sniff_css(bytes, "", name);
  check_sniffed(css, bytes);
  if (css.bom_length == 0 && !bytes.starts_with("@charset \""))
    check(css.encoding == name, "the referrer's encoding was not used", bytes);

  if (const auto label = charset::encoding_for_label(bytes))
    check(charset::encoding_for_label(*label) == *label, "a name is not its own label", bytes);
  return 0;
}
