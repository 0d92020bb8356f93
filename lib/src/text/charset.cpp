// The Encoding Standard's labels and names, HTML's and CSS's sniffing, and decoding through
// glibc's iconv. iconv stops at each malformed or unmappable sequence; the loops here write
// U+FFFD (or "&#N;" when encoding), step over the sequence as the standard's decoders would,
// and go on, so a page of errors costs one iconv call per error and no more.
#include "text/charset.hpp"

#include <iconv.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <vector>

#include "corocrawl/utf8.hpp"
#include "text/ascii.hpp"

namespace corocrawl::charset {

namespace {

constexpr std::string_view replacement_character = "\xEF\xBF\xBD";  // U+FFFD

// How an encoding is decoded, and how its errors are stepped over.
enum class family : std::uint8_t {
  utf8,            // no iconv: to_valid_utf8
  utf16,           // errors are whole code units
  single_byte,     // iconv's table is the standard's
  windows,         // windows-125x and 874: bytes 80..9F iconv lacks are the C1 controls
  double_byte,     // lead bytes 81..FE; an error takes a non-ASCII trail byte with it
  gb,              // double_byte, and byte 80 is the euro sign (GBK and gb18030)
  shift_jis,       // lead bytes 81..9F and E0..FC, and byte 80 is U+0080
  euc_jp,          // lead bytes 8E, 8F and A1..FE
  iso_2022_jp,     // stateful: the state survives an error
  replacement,     // no iconv: one U+FFFD for any input
  x_user_defined,  // no iconv: bytes 80..FF are U+F780..U+F7FF
};

struct encoding {
  std::string_view name;    // the standard's
  std::string_view labels;  // the standard's, lower-case, separated by one space
  const char* decoder;      // the iconv name to decode from (and encode to), or nullptr
  family kind;
  const char* encoder = nullptr;  // the iconv name to encode to, when not `decoder`
};

// The Encoding Standard's table of encodings and labels (https://encoding.spec.whatwg.org/
// #names-and-labels), with the glibc iconv converter for each (`iconv -l`).
constexpr encoding encodings[] = {
    {"UTF-8", "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8", nullptr,
     family::utf8},
    // Legacy single-byte encodings.
    {"IBM866", "866 cp866 csibm866 ibm866", "IBM866", family::single_byte},
    {"ISO-8859-2",
     "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2",
     "ISO-8859-2", family::single_byte},
    {"ISO-8859-3",
     "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3",
     "ISO-8859-3", family::single_byte},
    {"ISO-8859-4",
     "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4",
     "ISO-8859-4", family::single_byte},
    {"ISO-8859-5",
     "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5 "
     "iso_8859-5:1988",
     "ISO-8859-5", family::single_byte},
    {"ISO-8859-6",
     "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 iso-8859-6-e "
     "iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987",
     "ISO-8859-6", family::single_byte},
    {"ISO-8859-7",
     "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597 "
     "iso_8859-7 iso_8859-7:1987 sun_eu_greek",
     "ISO-8859-7", family::single_byte},
    {"ISO-8859-8",
     "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 iso88598 "
     "iso_8859-8 iso_8859-8:1988 visual",
     "ISO-8859-8", family::single_byte},
    // Logical order instead of visual: the same bytes and characters.
    {"ISO-8859-8-I", "csiso88598i iso-8859-8-i logical", "ISO-8859-8", family::single_byte},
    {"ISO-8859-10", "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6",
     "ISO-8859-10", family::single_byte},
    {"ISO-8859-13", "iso-8859-13 iso8859-13 iso885913", "ISO-8859-13", family::single_byte},
    {"ISO-8859-14", "iso-8859-14 iso8859-14 iso885914", "ISO-8859-14", family::single_byte},
    {"ISO-8859-15", "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9", "ISO-8859-15",
     family::single_byte},
    {"ISO-8859-16", "iso-8859-16", "ISO-8859-16", family::single_byte},
    {"KOI8-R", "cskoi8r koi koi8 koi8-r koi8_r", "KOI8-R", family::single_byte},
    // The standard's KOI8-U has Ў and ў at AE and BE, where glibc's has box drawing.
    {"KOI8-U", "koi8-ru koi8-u", "KOI8-U", family::single_byte},
    {"macintosh", "csmacintosh mac macintosh x-mac-roman", "MACINTOSH", family::single_byte},
    {"windows-874", "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874", "CP874",
     family::windows},
    {"windows-1250", "cp1250 windows-1250 x-cp1250", "CP1250", family::windows},
    {"windows-1251", "cp1251 windows-1251 x-cp1251", "CP1251", family::windows},
    {"windows-1252",
     "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 "
     "iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252",
     "CP1252", family::windows},
    {"windows-1253", "cp1253 windows-1253 x-cp1253", "CP1253", family::windows},
    {"windows-1254",
     "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 "
     "latin5 windows-1254 x-cp1254",
     "CP1254", family::windows},
    {"windows-1255", "cp1255 windows-1255 x-cp1255", "CP1255", family::windows},
    {"windows-1256", "cp1256 windows-1256 x-cp1256", "CP1256", family::windows},
    {"windows-1257", "cp1257 windows-1257 x-cp1257", "CP1257", family::windows},
    {"windows-1258", "cp1258 windows-1258 x-cp1258", "CP1258", family::windows},
    {"x-mac-cyrillic", "x-mac-cyrillic x-mac-ukrainian", "MAC-CYRILLIC", family::single_byte},
    // Legacy multi-byte encodings. GBK decodes as gb18030 does.
    {"GBK", "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk",
     "GB18030", family::gb, "GBK"},
    {"gb18030", "gb18030", "GB18030", family::gb},
    {"Big5", "big5 big5-hkscs cn-big5 csbig5 x-x-big5", "BIG5-HKSCS", family::double_byte},
    // The Microsoft variants, whose tables (NEC and IBM extensions, U+FF5E for 〜) the
    // standard's indexes follow.
    {"EUC-JP", "cseucpkdfmtjapanese euc-jp x-euc-jp", "EUC-JP-MS", family::euc_jp},
    {"ISO-2022-JP", "csiso2022jp iso-2022-jp", "ISO-2022-JP", family::iso_2022_jp},
    {"Shift_JIS", "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis", "CP932",
     family::shift_jis},
    {"EUC-KR",
     "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 "
     "ksc_5601 windows-949",
     "CP949", family::double_byte},
    // Legacy miscellaneous encodings.
    {"replacement", "csiso2022kr hz-gb-2312 iso-2022-cn iso-2022-cn-ext iso-2022-kr replacement",
     nullptr, family::replacement},
    {"UTF-16BE", "unicodefffe utf-16be", "UTF-16BE", family::utf16},
    {"UTF-16LE", "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le", "UTF-16LE",
     family::utf16},
    {"x-user-defined", "x-user-defined", nullptr, family::x_user_defined},
};

constexpr std::string_view utf8_name = encodings[0].name;

const encoding* find_by_label(std::string_view label) {
  label = ascii::trim(label);
  if (label.empty()) return nullptr;
  for (const encoding& e : encodings) {
    std::string_view labels = e.labels;
    while (!labels.empty()) {
      const std::size_t space = labels.find(' ');
      if (ascii::iequals(labels.substr(0, space), label)) return &e;
      labels.remove_prefix(space == std::string_view::npos ? labels.size() : space + 1);
    }
  }
  return nullptr;
}

// The encoding named `name` (a name this module gave, or failing that a label).
const encoding* find_by_name(std::string_view name) {
  for (const encoding& e : encodings) {
    if (ascii::iequals(e.name, name)) return &e;
  }
  return find_by_label(name);
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

struct code_point {
  char32_t value;
  std::size_t length;
};

// The code point well-formed UTF-8 `text` (not empty) starts with.
code_point first_code_point(std::string_view text) {
  const auto lead = static_cast<unsigned char>(text[0]);
  const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  char32_t value = length == 1 ? lead : lead & (0x7Fu >> length);
  for (std::size_t i = 1; i < length && i < text.size(); ++i)
    value = (value << 6) | (static_cast<unsigned char>(text[i]) & 0x3Fu);
  return {value, std::min(length, text.size())};
}

// An iconv conversion descriptor, closed when it goes. iconv descriptors keep state, so each
// call of decode or encode_for_query opens its own: no locking, nothing shared between threads.
class converter {
 public:
  converter(const char* to, const char* from) : cd_(::iconv_open(to, from)) {}
  ~converter() {
    if (ok()) ::iconv_close(cd_);
  }
  converter(const converter&) = delete;
  converter& operator=(const converter&) = delete;

  bool ok() const { return cd_ != reinterpret_cast<iconv_t>(-1); }

  enum class stop : std::uint8_t { done, invalid, incomplete };

  /// Converts `in` onto the end of `out` until done or an error, which is left at the start
  /// of `in`.
  stop convert(std::string_view& in, std::string& out) {
    while (true) {
      char* source = const_cast<char*>(in.data());  // iconv's signature; it does not write
      std::size_t source_left = in.size();
      char* target = buffer_;
      std::size_t target_left = sizeof buffer_;
      const std::size_t result = ::iconv(cd_, &source, &source_left, &target, &target_left);
      const int error = result == static_cast<std::size_t>(-1) ? errno : 0;
      out.append(buffer_, static_cast<std::size_t>(target - buffer_));
      in.remove_prefix(in.size() - source_left);
      if (error == E2BIG) continue;
      if (error == EINVAL) return stop::incomplete;
      if (error != 0) return stop::invalid;
      return stop::done;
    }
  }

  /// Writes what the converter holds back (a base letter that a combining mark could still
  /// join, or the sequence back to the initial shift state) and returns it to that state.
  void flush(std::string& out) {
    char* target = buffer_;
    std::size_t target_left = sizeof buffer_;
    ::iconv(cd_, nullptr, nullptr, &target, &target_left);
    out.append(buffer_, static_cast<std::size_t>(target - buffer_));
  }

 private:
  iconv_t cd_;
  char buffer_[4096];
};

bool is_lead_byte(family kind, unsigned char byte) {
  switch (kind) {
    case family::double_byte:
    case family::gb:
      return byte >= 0x81 && byte <= 0xFE;
    case family::shift_jis:
      return (byte >= 0x81 && byte <= 0x9F) || (byte >= 0xE0 && byte <= 0xFC);
    case family::euc_jp:
      return byte == 0x8E || byte == 0x8F || (byte >= 0xA1 && byte <= 0xFE);
    default:
      return false;
  }
}

// What the standard's decoder of `kind` makes of the error iconv stopped at, at the start of
// `in`: the text it writes onto `out`, and the bytes it consumes.
std::size_t decode_error(family kind, std::string_view in, std::string& out) {
  const auto byte = static_cast<unsigned char>(in[0]);
  if (kind == family::windows && byte >= 0x80 && byte <= 0x9F) {
    append_utf8(out, byte);  // a C1 control where Windows has no character
    return 1;
  }
  if (kind == family::gb && byte == 0x80) {
    append_utf8(out, U'\u20AC');
    return 1;
  }
  if (kind == family::shift_jis && byte == 0x80) {
    append_utf8(out, 0x80);
    return 1;
  }
  out.append(replacement_character);
  if (kind == family::utf16) return std::min<std::size_t>(2, in.size());
  // A lead byte takes its trail with it, unless the trail is ASCII: that is read again, so a
  // bad pair cannot swallow the quote that ends an attribute.
  if (is_lead_byte(kind, byte) && in.size() > 1 && static_cast<unsigned char>(in[1]) >= 0x80)
    return 2;
  return 1;
}

std::string decode_x_user_defined(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    append_utf8(out, byte < 0x80 ? char32_t{byte} : char32_t{0xF780} + byte - 0x80);
  }
  return out;
}

std::optional<std::string> decode_with_iconv(std::string_view bytes, const encoding& e) {
  converter iconv("UTF-8", e.decoder);
  if (!iconv.ok()) return std::nullopt;
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 2);
  while (true) {
    const auto stop = iconv.convert(bytes, out);
    if (stop == converter::stop::done) break;
    if (stop == converter::stop::incomplete) {  // a sequence cut short by the end
      iconv.flush(out);
      out.append(replacement_character);
      break;
    }
    if (bytes.empty()) break;  // no error iconv documents
    // What a converter holds back goes out before the error's U+FFFD. A shift state must
    // survive the error, as the standard's ISO-2022-JP decoder keeps it.
    if (e.kind != family::iso_2022_jp) iconv.flush(out);
    bytes.remove_prefix(decode_error(e.kind, bytes, out));
  }
  iconv.flush(out);
  return out;
}

// Whether iconv's `decoder` has no character for `byte`: the C1 gaps of a windows encoding,
// which the standard fills with U+0080..U+009F and so encodes back.
bool is_gap(const char* decoder, unsigned char byte) {
  converter iconv("UTF-8", decoder);
  if (!iconv.ok()) return false;
  const char one = static_cast<char>(byte);
  std::string_view in(&one, 1);
  std::string out;
  return iconv.convert(in, out) == converter::stop::invalid;
}

// Writes the bytes the standard's encoder of `e` gives the code point `c` that iconv cannot
// encode; false when the standard cannot either.
bool encode_special(const encoding& e, char32_t c, std::string& out) {
  if (e.kind == family::windows && c >= 0x80 && c <= 0x9F && is_gap(e.decoder, c)) {
    out += static_cast<char>(c);
    return true;
  }
  return false;
}

void append_character_reference(std::string& out, char32_t c) {
  out += "&#";
  out += std::to_string(static_cast<std::uint32_t>(c));
  out += ';';
}

std::string encode_x_user_defined(std::string_view utf8) {
  std::string out;
  while (!utf8.empty()) {
    const auto c = first_code_point(utf8);
    if (c.value < 0x80)
      out += static_cast<char>(c.value);
    else if (c.value >= 0xF780 && c.value <= 0xF7FF)
      out += static_cast<char>(c.value - 0xF780 + 0x80);
    else
      append_character_reference(out, c.value);
    utf8.remove_prefix(c.length);
  }
  return out;
}

// `utf8` (well-formed) encoded by iconv; nullopt when iconv has no encoder.
std::optional<std::string> encode_with_iconv(std::string_view utf8, const encoding& e) {
  converter iconv(e.encoder != nullptr ? e.encoder : e.decoder, "UTF-8");
  if (!iconv.ok()) return std::nullopt;
  std::string out;
  out.reserve(utf8.size());
  while (iconv.convert(utf8, out) != converter::stop::done && !utf8.empty()) {
    const auto c = first_code_point(utf8);
    if (!encode_special(e, c.value, out)) {
      iconv.flush(out);  // back to ASCII before the reference, in a stateful encoding
      append_character_reference(out, c.value);
    }
    utf8.remove_prefix(c.length);
  }
  iconv.flush(out);
  return out;
}

bool is_utf16(std::string_view name) {
  return name == "UTF-16LE" || name == "UTF-16BE";
}

// The byte order mark `bytes` start with, if any.
std::optional<sniffed> sniff_bom(std::string_view bytes) {
  if (bytes.starts_with("\xEF\xBB\xBF")) return sniffed{utf8_name, 3};
  if (bytes.starts_with("\xFE\xFF")) return sniffed{"UTF-16BE", 2};
  if (bytes.starts_with("\xFF\xFE")) return sniffed{"UTF-16LE", 2};
  return std::nullopt;
}

// HTML's "prescan a byte stream to determine its encoding"
// (https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding),
// over the bytes given. Running out of bytes anywhere ends it with nothing found.
class prescan {
 public:
  explicit prescan(std::string_view bytes) : bytes_(bytes) {}

  std::optional<std::string_view> run() {
    while (position_ < bytes_.size()) {
      const std::string_view rest = bytes_.substr(position_);
      if (rest.starts_with("<!--")) {
        // To the '>' of the first "-->", whose dashes may be those of "<!--".
        const std::size_t end = rest.find("-->", 2);
        if (end == std::string_view::npos) return std::nullopt;
        position_ += end + 2;
      } else if (rest.size() >= 6 && ascii::iequals(rest.substr(0, 5), "<meta") &&
                 (ascii::is_space(rest[5]) || rest[5] == '/')) {
        position_ += 5;
        const auto found = meta();
        if (!found) return std::nullopt;  // out of bytes
        if (*found) return *found;
      } else if (starts_tag(rest)) {
        // Another tag: its name, then its attributes.
        while (!at_end() && !ascii::is_space(byte()) && byte() != '>')
          ++position_;
        while (true) {
          const auto skipped = attribute();
          if (!skipped) return std::nullopt;
          if (!*skipped) break;
        }
      } else if (rest.starts_with("<!") || rest.starts_with("</") || rest.starts_with("<?")) {
        // Markup that is no tag: to the next '>'.
        const std::size_t end = rest.find('>');
        if (end == std::string_view::npos) return std::nullopt;
        position_ += end;
      }
      ++position_;  // "next byte"
    }
    return std::nullopt;
  }

 private:
  struct name_value {
    std::string name;
    std::string value;
  };

  // "<" and a letter, or "</" and a letter.
  static bool starts_tag(std::string_view s) {
    if (s.size() < 2 || s[0] != '<') return false;
    if (ascii::is_alpha(s[1])) return true;
    return s[1] == '/' && s.size() >= 3 && ascii::is_alpha(s[2]);
  }

  bool at_end() const { return position_ >= bytes_.size(); }
  char byte() const { return bytes_[position_]; }

  // A <meta>'s attributes, from the whitespace or '/' after "<meta": nullopt when the bytes
  // run out, an empty encoding when this meta declares none.
  std::optional<std::optional<std::string_view>> meta() {
    std::vector<std::string> names;
    bool got_pragma = false;
    std::optional<bool> need_pragma;
    bool charset_set = false;  // a failure to get an encoding sets it too
    std::optional<std::string_view> charset;
    while (true) {
      auto next = attribute();
      if (!next) return std::nullopt;
      if (!*next) break;
      const name_value& a = **next;
      if (std::find(names.begin(), names.end(), a.name) != names.end()) continue;
      names.push_back(a.name);
      if (a.name == "http-equiv") {
        if (a.value == "content-type") got_pragma = true;
      } else if (a.name == "content") {
        const auto from_content = charset_in_content(a.value);
        if (from_content && !charset_set) {
          charset_set = true;
          charset = from_content;
          need_pragma = true;
        }
      } else if (a.name == "charset") {
        charset_set = true;
        charset = encoding_for_label(a.value);
        need_pragma = false;
      }
    }
    if (!need_pragma || (*need_pragma && !got_pragma) || !charset)
      return std::optional<std::string_view>{};
    if (is_utf16(*charset)) return utf8_name;
    if (*charset == "x-user-defined") return encoding_for_label("windows-1252");
    return charset;
  }

  // HTML's "get an attribute": nullopt when the bytes run out, an empty attribute when the
  // tag ends (position at its '>').
  std::optional<std::optional<name_value>> attribute() {
    const auto none = std::optional<std::optional<name_value>>{std::optional<name_value>{}};
    while (!at_end() && (ascii::is_space(byte()) || byte() == '/'))
      ++position_;
    if (at_end()) return std::nullopt;
    if (byte() == '>') return none;
    name_value a;
    // The name.
    while (true) {
      if (at_end()) return std::nullopt;
      const char c = byte();
      if (c == '=' && !a.name.empty()) {
        ++position_;
        return value(std::move(a));
      }
      if (ascii::is_space(c)) break;
      if (c == '/' || c == '>') return a;
      a.name += ascii::to_lower(c);
      ++position_;
    }
    while (!at_end() && ascii::is_space(byte()))
      ++position_;
    if (at_end()) return std::nullopt;
    if (byte() != '=') return a;
    ++position_;
    return value(std::move(a));
  }

  // The rest of "get an attribute", from after the '='.
  std::optional<std::optional<name_value>> value(name_value a) {
    while (!at_end() && ascii::is_space(byte()))
      ++position_;
    if (at_end()) return std::nullopt;
    const char first = byte();
    if (first == '"' || first == '\'') {
      const std::size_t end = bytes_.find(first, position_ + 1);
      if (end == std::string_view::npos) return std::nullopt;
      a.value = ascii::to_lower(bytes_.substr(position_ + 1, end - position_ - 1));
      position_ = end + 1;
      return a;
    }
    if (first == '>') return a;
    while (true) {
      if (at_end()) return std::nullopt;
      const char c = byte();
      if (ascii::is_space(c) || c == '>') return a;
      a.value += ascii::to_lower(c);
      ++position_;
    }
  }

  // HTML's "extract a character encoding from a meta element", on a content attribute's
  // value (already lower-cased).
  static std::optional<std::string_view> charset_in_content(std::string_view s) {
    std::size_t position = 0;
    while (true) {
      const std::size_t found = s.find("charset", position);
      if (found == std::string_view::npos) return std::nullopt;
      position = found + 7;
      while (position < s.size() && ascii::is_space(s[position]))
        ++position;
      if (position < s.size() && s[position] == '=') break;
      // Not "charset=": look again from the byte after the word's whitespace.
    }
    ++position;
    while (position < s.size() && ascii::is_space(s[position]))
      ++position;
    if (position == s.size()) return std::nullopt;
    const char quote = s[position];
    if (quote == '"' || quote == '\'') {
      const std::size_t end = s.find(quote, position + 1);
      if (end == std::string_view::npos) return std::nullopt;
      return encoding_for_label(s.substr(position + 1, end - position - 1));
    }
    // To the first whitespace or ';', or the end (npos, which substr takes as the end).
    const std::size_t end = std::min(s.find(';', position), s.find_first_of(" \t\n\r\f", position));
    return encoding_for_label(s.substr(position, end - position));
  }

  std::string_view bytes_;
  std::size_t position_ = 0;
};

constexpr std::size_t prescan_length = 1024;

}  // namespace

std::optional<std::string_view> encoding_for_label(std::string_view label) {
  const encoding* e = find_by_label(label);
  if (e == nullptr) return std::nullopt;
  return e->name;
}

sniffed sniff_html(std::string_view bytes, std::string_view http_charset) {
  if (const auto bom = sniff_bom(bytes)) return *bom;
  if (const auto transport = encoding_for_label(http_charset)) return {*transport};
  if (const auto meta = prescan(bytes.substr(0, prescan_length)).run()) return {*meta};
  if (is_valid_utf8(bytes)) return {utf8_name};
  return {*encoding_for_label("windows-1252")};
}

sniffed sniff_css(std::string_view bytes, std::string_view http_charset,
                  std::string_view referrer_encoding) {
  if (const auto bom = sniff_bom(bytes)) return *bom;
  if (const auto transport = encoding_for_label(http_charset)) return {*transport};
  constexpr std::string_view at_charset = "@charset \"";
  const std::string_view head = bytes.substr(0, prescan_length);
  if (head.starts_with(at_charset)) {
    const std::size_t end = head.find('"', at_charset.size());
    if (end != std::string_view::npos && end + 1 < head.size() && head[end + 1] == ';') {
      const auto declared =
          encoding_for_label(head.substr(at_charset.size(), end - at_charset.size()));
      if (declared) return {is_utf16(*declared) ? utf8_name : *declared};
    }
  }
  if (const encoding* referrer = find_by_name(referrer_encoding)) return {referrer->name};
  return {utf8_name};
}

std::optional<std::string> decode(std::string_view bytes, std::string_view encoding) {
  const auto* e = find_by_name(encoding);
  if (e == nullptr) return std::nullopt;
  switch (e->kind) {
    case family::utf8:
      return to_valid_utf8(bytes);
    case family::replacement:
      return bytes.empty() ? std::string() : std::string(replacement_character);
    case family::x_user_defined:
      return decode_x_user_defined(bytes);
    default:
      return decode_with_iconv(bytes, *e);
  }
}

std::string encode_for_query(std::string_view utf8, std::string_view encoding) {
  std::string valid = to_valid_utf8(utf8);
  const auto* e = find_by_name(encoding);
  if (e == nullptr) return valid;
  switch (e->kind) {
    case family::utf8:
    case family::utf16:
    case family::replacement:
      return valid;
    case family::x_user_defined:
      return encode_x_user_defined(valid);
    default: {
      auto encoded = encode_with_iconv(valid, *e);
      return encoded ? std::move(*encoded) : valid;
    }
  }
}

bool is_utf8(std::string_view encoding) {
  const auto* e = find_by_name(encoding);
  return e != nullptr && e->kind == family::utf8;
}

}  // namespace corocrawl::charset
