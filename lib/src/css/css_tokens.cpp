// The tokenizer's primitives (comments, escapes, idents, numbers, strings, url tokens) and the
// locator's line and column counting.
#include "css/css_tokens.hpp"

#include <algorithm>

#include "text/ascii.hpp"
#include "text/utf8_append.hpp"

namespace corocrawl::css {

namespace {

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

}  // namespace

void tokenizer::next(token& t) {
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

void tokenizer::single(token& t, kind what) {
  t.what = what;
  ++pos_;
}

void tokenizer::skip_whitespace_and_comments() {
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

bool tokenizer::is_valid_escape(std::size_t i) const {
  return has(i) && css_[i] == '\\' && !(has(i + 1) && is_newline(css_[i + 1]));
}

bool tokenizer::starts_ident_sequence(std::size_t i) const {
  if (!has(i)) return false;
  const char c = css_[i];
  if (c == '-') {
    return (has(i + 1) && (is_ident_start(css_[i + 1]) || css_[i + 1] == '-')) ||
           is_valid_escape(i + 1);
  }
  if (c == '\\') return is_valid_escape(i);
  return is_ident_start(c);
}

bool tokenizer::starts_number(std::size_t i) const {
  const char c = at(i);
  if (has(i) && (c == '+' || c == '-')) ++i;
  if (has(i) && ascii::is_digit(css_[i])) return true;
  return has(i + 1) && css_[i] == '.' && ascii::is_digit(css_[i + 1]);
}

void tokenizer::skip_digits() {
  while (has(pos_) && ascii::is_digit(css_[pos_]))
    ++pos_;
}

void tokenizer::consume_numeric() {
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

void tokenizer::consume_escape(std::string* out) {
  if (!has(pos_)) {
    if (out) out->append(replacement_character);
    return;
  }
  const char c = css_[pos_];
  if (!ascii::is_hex(c)) {
    ++pos_;
    if (!out) return;
    if (c == '\0')
      out->append(replacement_character);
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
    out->append(replacement_character);
  else
    append_utf8(*out, value);
}

void tokenizer::consume_ident_sequence(std::string* name) {
  std::string* out = name;
  while (has(pos_)) {
    const char c = css_[pos_];
    const std::size_t before = out ? out->size() : 0;
    if (is_ident_char(c)) {
      ++pos_;
      if (out) {
        if (c == '\0')
          out->append(replacement_character);
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

void tokenizer::consume_ident_like(token& t) {
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

void tokenizer::consume_url(token& t) {
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
      t.value.append(replacement_character);
    else
      t.value += c;
  }
}

void tokenizer::bad_url(token& t) {
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

void tokenizer::consume_string(token& t) {
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
      t.value.append(replacement_character);
    } else {
      t.value += c;
    }
  }
}

std::pair<std::uint32_t, std::uint32_t> locator::at(std::size_t offset) {
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

}  // namespace corocrawl::css
