// HTML's and CSS's encoding sniffing: byte order marks, the transport's charset, HTML's
// prescan for a <meta> charset, and CSS's @charset rule.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "corocrawl/utf8.hpp"
#include "text/ascii.hpp"
#include "text/charset.hpp"
#include "text/encoding_labels.hpp"

namespace corocrawl::charset {

namespace {

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

}  // namespace

std::optional<sniffed> declared_html_encoding(std::string_view bytes,
                                              std::string_view http_charset) {
  if (const auto bom = sniff_bom(bytes)) return *bom;
  if (const auto transport = encoding_for_label(http_charset)) return sniffed{*transport};
  if (const auto meta = prescan(bytes.substr(0, html_prescan_length)).run()) return sniffed{*meta};
  return std::nullopt;
}

sniffed sniff_html(std::string_view bytes, std::string_view http_charset) {
  if (const auto declared = declared_html_encoding(bytes, http_charset)) return *declared;
  if (is_valid_utf8(bytes)) return {utf8_name};
  return {*encoding_for_label("windows-1252")};
}

sniffed sniff_css(std::string_view bytes, std::string_view http_charset,
                  std::string_view referrer_encoding) {
  if (const auto bom = sniff_bom(bytes)) return *bom;
  if (const auto transport = encoding_for_label(http_charset)) return {*transport};
  constexpr std::string_view at_charset = "@charset \"";
  const std::string_view head = bytes.substr(0, html_prescan_length);
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

}  // namespace corocrawl::charset
