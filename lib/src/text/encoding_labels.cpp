// The Encoding Standard's names and labels: the table of encodings, and the lookups by label
// and by name.
#include "text/encoding_labels.hpp"

#include "text/ascii.hpp"
#include "text/charset.hpp"

namespace corocrawl::charset {

namespace {

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

static_assert(encodings[0].name == utf8_name);

}  // namespace

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

const encoding* find_by_name(std::string_view name) {
  for (const encoding& e : encodings) {
    if (ascii::iequals(e.name, name)) return &e;
  }
  return find_by_label(name);
}

std::optional<std::string_view> encoding_for_label(std::string_view label) {
  const encoding* e = find_by_label(label);
  if (e == nullptr) return std::nullopt;
  return e->name;
}

}  // namespace corocrawl::charset
