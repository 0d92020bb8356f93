#pragma once
// CSS Syntax Level 3's tokenizer, reduced to the tokens css_references reads, and the line and
// column counting of token offsets. Internal: not part of the library's interface.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace corocrawl::css {

// Function and at-rule names are kept up to this many bytes: longer ones match nothing we
// look for, and a 10 MB name costs no memory.
inline constexpr std::size_t kMaxName = 32;

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
  void next(token& t);

 private:
  char at(std::size_t i) const { return i < css_.size() ? css_[i] : '\0'; }
  bool has(std::size_t i) const { return i < css_.size(); }

  void single(token& t, kind what);

  void skip_whitespace_and_comments();

  // A backslash at `i` that does not start a newline (at the end of the input it does: it
  // stands for U+FFFD).
  bool is_valid_escape(std::size_t i) const;

  bool starts_ident_sequence(std::size_t i) const;

  bool starts_number(std::size_t i) const;

  void skip_digits();

  // A number, percentage or dimension token; pos_ is at its first byte.
  void consume_numeric();

  // After a backslash (pos_ just past it): the escaped code point, appended to `out` unless
  // it is null.
  void consume_escape(std::string* out);

  // An ident sequence at pos_, its name (see token::value) appended to `name` unless it is
  // null.
  void consume_ident_sequence(std::string* name);

  // An ident, function or url token.
  void consume_ident_like(token& t);

  // An unquoted url( ... ); pos_ is just past the '('.
  void consume_url(token& t);

  // The remnants of a bad url: up to the first ')' not escaped, or the end.
  void bad_url(token& t);

  // A string token (or a bad one, ended by a newline, which is left for the next token).
  void consume_string(token& t);

  std::string_view css_;
  std::size_t pos_ = 0;
};

// Lines and columns of offsets that never decrease, in one pass over the text.
class locator {
 public:
  locator(std::string_view text, std::uint32_t first_line, std::uint32_t first_column)
      : text_(text), line_(first_line), column_(first_column) {}

  // The line and column of text[offset]; `offset` is at least the last one asked for.
  std::pair<std::uint32_t, std::uint32_t> at(std::size_t offset);

 private:
  std::string_view text_;
  std::size_t offset_ = 0;
  std::uint32_t line_;
  std::uint32_t column_;
};

}  // namespace corocrawl::css
