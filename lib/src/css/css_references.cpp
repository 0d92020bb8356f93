#include "css/css_references.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

#include "text/ascii.hpp"

namespace corocrawl::css {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Function and at-rule names are kept up to this many bytes: longer ones match nothing we
// look for, and a 10 MB name costs no memory.
constexpr std::size_t kMaxName = 32;

// The closer each open block waits for; an image-set() function waits for ')' too.
constexpr char kImageSet = 'i';

constexpr bool is_newline(char c) {
  return c == '\n' || c == '\r' || c == '\f';
}

// CSS whitespace is HTML's: space, tab and the newlines.
constexpr bool is_whitespace(char c) {
  return ascii::is_space(c);
}

constexpr bool is_quote(char c) {
  return c == '"' || c == '\'';
}

// Non-ASCII bytes (UTF-8 lead and continuation bytes alike) and NUL (read as U+FFFD) are
// ident code points, as the code points they belong to are.
constexpr bool is_ident_start(char c) {
  return ascii::is_alpha(c) || c == '_' || c == '\0' || static_cast<unsigned char>(c) >= 0x80;
}

constexpr bool is_ident_char(char c) {
  return is_ident_start(c) || ascii::is_digit(c) || c == '-';
}

// NUL is not among them: the input's NULs are U+FFFD.
constexpr bool is_non_printable(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return (byte >= 0x01 && byte <= 0x08) || byte == 0x0B || (byte >= 0x0E && byte <= 0x1F) ||
         byte == 0x7F;
}

constexpr std::uint32_t hex_value(char c) {
  if (ascii::is_digit(c)) return static_cast<std::uint32_t>(c - '0');
  return static_cast<std::uint32_t>(ascii::to_lower(c) - 'a' + 10);
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

// The tokens that matter here; whitespace and comments are skipped, and everything else
// (idents, numbers, delimiters...) is `other`.
enum class kind {
  end,
  string,
  bad_string,
  url,
  bad_url,
  function,
  at_keyword,
  open_paren,
  close_paren,
  open_bracket,
  close_bracket,
  open_brace,
  close_brace,
  semicolon,
  other,
};

struct token {
  kind what = kind::end;
  std::size_t begin = 0;  // offset of its first byte
  // Of a string or url: its value, escapes undone. Of a function or at-keyword: its name,
  // escapes undone, ASCII-lowered, cut at kMaxName bytes.
  std::string value;
};

// CSS Syntax Level 3's tokenizer (section 4.3), reading bytes: "\r\n" counts as one newline
// where that matters (after an escape's hex digits, after a backslash in a string), NUL as
// U+FFFD, and a non-ASCII byte as part of an ident code point.
class tokenizer {
 public:
  explicit tokenizer(std::string_view css) : css_(css) {}

  // The next token that is not whitespace or a comment, into `t` (whose buffer is reused).
  void next(token& t) {
    skip_whitespace_and_comments();
    t.begin = pos_;
    t.value.clear();
    if (pos_ >= css_.size()) {
      t.what = kind::end;
      return;
    }
    const char c = css_[pos_];
    t.what = kind::other;
    switch (c) {
      case '"':
      case '\'':
        consume_string(t);
        return;
      case '#':
        ++pos_;
        if (pos_ < css_.size() && (is_ident_char(css_[pos_]) || is_valid_escape(pos_)))
          consume_ident_sequence(nullptr);
        return;
      case '(':
        return single(t, kind::open_paren);
      case ')':
        return single(t, kind::close_paren);
      case '[':
        return single(t, kind::open_bracket);
      case ']':
        return single(t, kind::close_bracket);
      case '{':
        return single(t, kind::open_brace);
      case '}':
        return single(t, kind::close_brace);
      case ';':
        return single(t, kind::semicolon);
      case '+':
      case '.':
        if (starts_number(pos_))
          consume_numeric();
        else
          ++pos_;
        return;
      case '-':
        if (starts_number(pos_)) {
          consume_numeric();
        } else if (css_.substr(pos_, 3) == "-->") {
          pos_ += 3;
        } else if (starts_ident_sequence(pos_)) {
          consume_ident_like(t);
        } else {
          ++pos_;
        }
        return;
      case '<':
        pos_ += css_.substr(pos_, 4) == "<!--" ? 4u : 1u;
        return;
      case '@':
        ++pos_;
        if (starts_ident_sequence(pos_)) {
          consume_ident_sequence(&t.value);
          t.what = kind::at_keyword;
        }
        return;
      case '\\':
        if (is_valid_escape(pos_))
          consume_ident_like(t);
        else
          ++pos_;
        return;
      default:
        if (ascii::is_digit(c)) {
          consume_numeric();
        } else if (is_ident_start(c)) {
          consume_ident_like(t);
        } else {
          ++pos_;
        }
        return;
    }
  }

 private:
  char at(std::size_t i) const { return i < css_.size() ? css_[i] : '\0'; }
  bool has(std::size_t i) const { return i < css_.size(); }

  void single(token& t, kind what) {
    t.what = what;
    ++pos_;
  }

  void skip_whitespace_and_comments() {
    while (pos_ < css_.size()) {
      if (is_whitespace(css_[pos_])) {
        ++pos_;
      } else if (css_.substr(pos_, 2) == "/*") {
        const std::size_t close = css_.find("*/", pos_ + 2);
        pos_ = close == std::string_view::npos ? css_.size() : close + 2;
      } else {
        return;
      }
    }
  }

  // A backslash at `i` that does not start a newline (at the end of the input it does: it
  // stands for U+FFFD).
  bool is_valid_escape(std::size_t i) const {
    return has(i) && css_[i] == '\\' && !(has(i + 1) && is_newline(css_[i + 1]));
  }

  bool starts_ident_sequence(std::size_t i) const {
    if (!has(i)) return false;
    const char c = css_[i];
    if (c == '-') {
      return (has(i + 1) && (is_ident_start(css_[i + 1]) || css_[i + 1] == '-')) ||
             is_valid_escape(i + 1);
    }
    if (c == '\\') return is_valid_escape(i);
    return is_ident_start(c);
  }

  bool starts_number(std::size_t i) const {
    const char c = at(i);
    if (has(i) && (c == '+' || c == '-')) ++i;
    if (has(i) && ascii::is_digit(css_[i])) return true;
    return has(i + 1) && css_[i] == '.' && ascii::is_digit(css_[i + 1]);
  }

  void skip_digits() {
    while (has(pos_) && ascii::is_digit(css_[pos_]))
      ++pos_;
  }

  // A number, percentage or dimension token; pos_ is at its first byte.
  void consume_numeric() {
    if (css_[pos_] == '+' || css_[pos_] == '-') ++pos_;
    skip_digits();
    if (has(pos_ + 1) && css_[pos_] == '.' && ascii::is_digit(css_[pos_ + 1])) {
      pos_ += 2;
      skip_digits();
    }
    if (has(pos_) && (css_[pos_] == 'e' || css_[pos_] == 'E')) {
      const char sign = at(pos_ + 1);
      if (has(pos_ + 1) && ascii::is_digit(sign)) {
        pos_ += 2;
        skip_digits();
      } else if (has(pos_ + 2) && (sign == '+' || sign == '-') && ascii::is_digit(css_[pos_ + 2])) {
        pos_ += 3;
        skip_digits();
      }
    }
    if (starts_ident_sequence(pos_)) {
      consume_ident_sequence(nullptr);
    } else if (has(pos_) && css_[pos_] == '%') {
      ++pos_;
    }
  }

  // After a backslash (pos_ just past it): the escaped code point, appended to `out` unless
  // it is null.
  void consume_escape(std::string* out) {
    if (!has(pos_)) {
      if (out) out->append(kReplacement);
      return;
    }
    const char c = css_[pos_];
    if (!ascii::is_hex(c)) {
      ++pos_;
      if (!out) return;
      if (c == '\0')
        out->append(kReplacement);
      else
        *out += c;  // a UTF-8 lead byte: the loop that called copies the rest
      return;
    }
    std::uint32_t value = 0;
    for (int digits = 0; digits < 6 && has(pos_) && ascii::is_hex(css_[pos_]); ++digits)
      value = value * 16 + hex_value(css_[pos_++]);
    if (css_.substr(pos_, 2) == "\r\n")
      pos_ += 2;
    else if (has(pos_) && is_whitespace(css_[pos_]))
      ++pos_;
    if (!out) return;
    if (value == 0 || (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF)
      out->append(kReplacement);
    else
      append_utf8(*out, value);
  }

  // An ident sequence at pos_, its name (see token::value) appended to `name` unless it is
  // null.
  void consume_ident_sequence(std::string* name) {
    std::string* out = name;
    while (has(pos_)) {
      const char c = css_[pos_];
      const std::size_t before = out ? out->size() : 0;
      if (is_ident_char(c)) {
        ++pos_;
        if (out) {
          if (c == '\0')
            out->append(kReplacement);
          else
            *out += c;
        }
      } else if (is_valid_escape(pos_)) {
        ++pos_;
        consume_escape(out);
      } else {
        break;
      }
      if (!out) continue;
      for (std::size_t i = before; i < out->size(); ++i)
        (*out)[i] = ascii::to_lower((*out)[i]);
      if (out->size() > kMaxName) {
        out->resize(kMaxName);  // matches no name we look for
        out = nullptr;          // read the rest without keeping it
      }
    }
  }

  // An ident, function or url token.
  void consume_ident_like(token& t) {
    consume_ident_sequence(&t.value);
    if (!has(pos_) || css_[pos_] != '(') return;  // an ident
    ++pos_;
    t.what = kind::function;
    if (t.value != "url") return;
    while (has(pos_ + 1) && is_whitespace(css_[pos_]) && is_whitespace(css_[pos_ + 1]))
      ++pos_;
    const char c = at(pos_);
    if (has(pos_) && (is_quote(c) || (is_whitespace(c) && has(pos_ + 1) && is_quote(at(pos_ + 1)))))
      return;  // url( followed by a string: a function
    t.value.clear();
    consume_url(t);
  }

  // An unquoted url( ... ); pos_ is just past the '('.
  void consume_url(token& t) {
    t.what = kind::url;
    while (has(pos_) && is_whitespace(css_[pos_]))
      ++pos_;
    while (has(pos_)) {
      const char c = css_[pos_];
      if (c == ')') {
        ++pos_;
        return;
      }
      if (is_whitespace(c)) {
        while (has(pos_) && is_whitespace(css_[pos_]))
          ++pos_;
        if (!has(pos_)) return;
        if (css_[pos_] == ')') {
          ++pos_;
          return;
        }
        return bad_url(t);
      }
      if (is_quote(c) || c == '(' || is_non_printable(c)) return bad_url(t);
      if (c == '\\') {
        if (!is_valid_escape(pos_)) return bad_url(t);
        ++pos_;
        consume_escape(&t.value);
        continue;
      }
      ++pos_;
      if (c == '\0')
        t.value.append(kReplacement);
      else
        t.value += c;
    }
  }

  // The remnants of a bad url: up to the first ')' not escaped, or the end.
  void bad_url(token& t) {
    t.what = kind::bad_url;
    t.value.clear();
    while (has(pos_)) {
      if (css_[pos_] == ')') {
        ++pos_;
        return;
      }
      pos_ = std::min(css_.size(), pos_ + (is_valid_escape(pos_) ? 2 : 1));  // "\)" goes on
    }
  }

  // A string token (or a bad one, ended by a newline, which is left for the next token).
  void consume_string(token& t) {
    const char quote = css_[pos_++];
    t.what = kind::string;
    while (has(pos_)) {
      const char c = css_[pos_];
      if (c == quote) {
        ++pos_;
        return;
      }
      if (is_newline(c)) {
        t.what = kind::bad_string;
        return;
      }
      ++pos_;
      if (c == '\\') {
        if (!has(pos_)) return;
        if (css_.substr(pos_, 2) == "\r\n")
          pos_ += 2;  // an escaped newline: nothing
        else if (is_newline(css_[pos_]))
          ++pos_;
        else
          consume_escape(&t.value);
      } else if (c == '\0') {
        t.value.append(kReplacement);
      } else {
        t.value += c;
      }
    }
  }

  std::string_view css_;
  std::size_t pos_ = 0;
};

// Lines and columns of offsets that never decrease, in one pass over the text.
class locator {
 public:
  locator(std::string_view text, std::uint32_t first_line, std::uint32_t first_column)
      : text_(text), line_(first_line), column_(first_column) {}

  // The line and column of text[offset]; `offset` is at least the last one asked for.
  std::pair<std::uint32_t, std::uint32_t> at(std::size_t offset) {
    for (; offset_ < offset; ++offset_) {
      const char c = text_[offset_];
      const bool crlf = c == '\r' && offset_ + 1 < text_.size() && text_[offset_ + 1] == '\n';
      if (is_newline(c) && !crlf) {
        ++line_;
        column_ = 1;
      } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {  // not a continuation byte
        ++column_;
      }
    }
    return {line_, column_};
  }

 private:
  std::string_view text_;
  std::size_t offset_ = 0;
  std::uint32_t line_;
  std::uint32_t column_;
};

// Reads the tokens, keeping what the URLs among them depend on: the open blocks (to know
// which strings are directly inside an image-set()), what the last token asks of the next
// one (an @import its target, a url( function its string), and whether the prelude of an
// @namespace rule is being read.
class reference_reader {
 public:
  reference_reader(std::string_view css, std::uint32_t first_line, std::uint32_t first_column)
      : tokens_(css), locator_(css, first_line, first_column) {}

  std::vector<css_reference> run() {
    token t;
    for (tokens_.next(t); t.what != kind::end; tokens_.next(t))
      read(t);
    return std::move(references_);
  }

 private:
  enum class awaiting { nothing, import_target, import_url_string, url_string };

  void read(token& t) {
    const awaiting awaited = std::exchange(awaiting_, awaiting::nothing);
    switch (t.what) {
      case kind::string:
        if (awaited == awaiting::import_target || awaited == awaiting::import_url_string) {
          add(t.value, true, pending_);
        } else if (awaited == awaiting::url_string) {
          add(t.value, false, pending_);
        } else if (!blocks_.empty() && blocks_.back() == kImageSet) {
          add(t.value, false, locator_.at(t.begin));
        }
        break;
      case kind::url:
        add(t.value, awaited == awaiting::import_target,
            awaited == awaiting::import_target ? pending_ : locator_.at(t.begin));
        break;
      case kind::function:
        if (t.value == "url") {
          if (awaited == awaiting::import_target) {
            awaiting_ = awaiting::import_url_string;
          } else {
            awaiting_ = awaiting::url_string;
            pending_ = locator_.at(t.begin);
          }
        }
        blocks_.push_back(t.value == "image-set" || t.value == "-webkit-image-set" ? kImageSet
                                                                                   : ')');
        break;
      case kind::at_keyword:
        if (t.value == "import") {
          awaiting_ = awaiting::import_target;
          pending_ = locator_.at(t.begin);
        } else if (t.value == "namespace" && !namespace_depth_) {
          namespace_depth_ = blocks_.size();
        }
        break;
      case kind::open_paren:
        blocks_.push_back(')');
        break;
      case kind::open_bracket:
        blocks_.push_back(']');
        break;
      case kind::open_brace:
        if (namespace_depth_ == blocks_.size()) namespace_depth_.reset();
        blocks_.push_back('}');
        break;
      case kind::close_paren:
        close(')');
        break;
      case kind::close_bracket:
        close(']');
        break;
      case kind::close_brace:
        if (namespace_depth_ == blocks_.size()) namespace_depth_.reset();  // ends the rule
        close('}');
        break;
      case kind::semicolon:
        if (namespace_depth_ == blocks_.size()) namespace_depth_.reset();
        break;
      case kind::end:
      case kind::bad_string:
      case kind::bad_url:
      case kind::other:
        break;
    }
  }

  // A closer ends the innermost block if it is that block's; a stray one is just a token.
  void close(char closer) {
    if (blocks_.empty()) return;
    const char expected = blocks_.back() == kImageSet ? ')' : blocks_.back();
    if (expected != closer) return;
    blocks_.pop_back();
    if (namespace_depth_ && *namespace_depth_ > blocks_.size()) namespace_depth_.reset();
  }

  void add(std::string_view url, bool import, std::pair<std::uint32_t, std::uint32_t> at) {
    if (namespace_depth_) return;  // @namespace's URL names a namespace: nothing to fetch
    url = ascii::trim(url);
    if (url.empty()) return;
    references_.push_back({std::string(url), import, at.first, at.second});
  }

  tokenizer tokens_;
  locator locator_;
  std::vector<char> blocks_;  // the closer each open block waits for, innermost last
  awaiting awaiting_ = awaiting::nothing;
  std::pair<std::uint32_t, std::uint32_t> pending_{};  // where the @import or url( started
  std::optional<std::size_t> namespace_depth_;  // blocks_.size() at the @namespace being read
  std::vector<css_reference> references_;
};

}  // namespace

std::vector<css_reference> css_references(std::string_view css, std::uint32_t first_line,
                                          std::uint32_t first_column) {
  return reference_reader(css, first_line, first_column).run();
}

}  // namespace corocrawl::css
