#pragma once
// JSON text written straight to a stream, value by value, for the documents that list every
// URL of a crawl: an object built per item and then serialised took most of the time of
// writing a million URLs' summary. The text is what Boost.JSON's serialize() writes for the
// same values (no spaces; strings escaped as it escapes them), and every string is made valid
// UTF-8 first, as json_text() does.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/ascii.hpp"

namespace corocrawl {

/// A member's name as the documents write it: a string literal of ASCII letters, digits and
/// '_', checked where it is compiled, so that it is written as it is, without escaping.
class json_name {
 public:
  template <std::size_t N>
  consteval json_name(const char (&literal)[N]) : text_(literal, N - 1) {  // NOLINT: implicit
    for (const char c : text_) {
      if (!ascii::is_alnum(c) && c != '_')
        throw "a JSON member name is ASCII letters, digits and '_'";
    }
  }
  constexpr std::string_view text() const { return text_; }

 private:
  std::string_view text_;
};

class json_writer {
 public:
  /// Writes to `out` through a buffer, flushed when it fills and by flush().
  explicit json_writer(std::ostream& out) : out_(&out) { buffer_.reserve(kFlushAt + 4096); }
  /// Writes into text, taken by take_text(), for text to be written elsewhere.
  json_writer() = default;
  json_writer(const json_writer&) = delete;
  json_writer& operator=(const json_writer&) = delete;
  ~json_writer() { flush(); }

  json_writer& begin_object() { return open('{'); }
  json_writer& end_object() { return close('}'); }
  json_writer& begin_array() { return open('['); }
  json_writer& end_array() { return close(']'); }
  /// A member's name (the value follows).
  json_writer& key(json_name name);

  json_writer& string(std::string_view text);
  json_writer& number(std::uint64_t value);
  json_writer& number(std::int64_t value);
  json_writer& boolean(bool value) { return raw_value(value ? "true" : "false"); }
  json_writer& null() { return raw_value("null"); }
  json_writer& optional_string(const std::optional<std::string>& text) {
    return text ? string(*text) : null();
  }
  json_writer& optional_number(const std::optional<unsigned>& value) {
    return value ? number(std::uint64_t{*value}) : null();
  }
  /// Text written as it is, outside any value: separators, and values serialised elsewhere.
  json_writer& raw(std::string_view text);

  /// Writes what the buffer holds to the stream; false when the stream has failed. Writing
  /// into text, does nothing.
  bool flush();
  /// False once the stream has failed (seen when the buffer was last written to it).
  bool good() const { return out_ == nullptr || static_cast<bool>(*out_); }
  /// Writing into text: the text written so far, which the writer then no longer holds.
  std::string take_text() { return std::exchange(buffer_, {}); }

 private:
  static constexpr std::size_t kFlushAt = 64 * 1024;
  json_writer& open(char bracket);
  json_writer& close(char bracket);
  json_writer& raw_value(std::string_view text);
  void before_value();
  void escaped(std::string_view valid_utf8);

  std::ostream* out_ = nullptr;  // none: writing into text
  std::string buffer_;
  std::vector<bool> has_members_;  // per open object or array
  bool after_key_ = false;
};

}  // namespace corocrawl
