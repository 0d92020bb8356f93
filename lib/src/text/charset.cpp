// Decoding into UTF-8 and encoding a query through glibc's iconv. iconv stops at each
// malformed or unmappable sequence; the loops here write U+FFFD (or "&#N;" when encoding), step
// over the sequence as the standard's decoders would, and go on, so a page of errors costs one
// iconv call per error and no more. The labels are in encoding_labels.cpp, the sniffing in
// charset_sniff.cpp.
#include "text/charset.hpp"

#include <iconv.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>

#include "corocrawl/utf8.hpp"
#include "text/encoding_labels.hpp"
#include "text/utf8_append.hpp"

namespace corocrawl::charset {

namespace {

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

}  // namespace

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
