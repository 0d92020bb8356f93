#include "report/json_writer.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "corocrawl/utf8.hpp"

namespace corocrawl {

namespace {

// What Boost.JSON's serializer writes for each byte: itself, a two-byte escape, or \u00XX.
enum : char { as_is = 0, as_unicode = 'u' };
constexpr std::array<char, 256> make_escapes() {
  std::array<char, 256> escapes{};
  for (int c = 0; c < 0x20; ++c)
    escapes[c] = as_unicode;
  escapes['\b'] = 'b';
  escapes['\t'] = 't';
  escapes['\n'] = 'n';
  escapes['\f'] = 'f';
  escapes['\r'] = 'r';
  escapes['"'] = '"';
  escapes['\\'] = '\\';
  return escapes;
}
constexpr auto kEscapes = make_escapes();

// Whether any of the eight bytes of `word` is below 0x20, '"' or '\\': the bit tricks of
// "Bit Twiddling Hacks" (a byte below n: (x - n) & ~x & 0x80; equal to c: below 1 of x ^ c).
bool needs_escaping(std::uint64_t word) {
  constexpr std::uint64_t ones = 0x0101'0101'0101'0101ULL;
  constexpr std::uint64_t highs = 0x8080'8080'8080'8080ULL;
  const auto below = [](std::uint64_t x, std::uint64_t n) { return (x - ones * n) & ~x & highs; };
  return (below(word, 0x20) | below(word ^ (ones * '"'), 1) | below(word ^ (ones * '\\'), 1)) != 0;
}

}  // namespace

json_writer& json_writer::key(json_name name) {
  before_value();
  buffer_ += '"';
  buffer_ += name.text();  // nothing in it needs escaping (see json_name)
  buffer_ += "\":";
  after_key_ = true;
  return *this;
}

json_writer& json_writer::string(std::string_view text) {
  before_value();
  buffer_ += '"';
  if (is_valid_utf8(text)) {
    escaped(text);
  } else {
    escaped(to_valid_utf8(text));
  }
  buffer_ += '"';
  if (buffer_.size() >= kFlushAt) flush();
  return *this;
}

json_writer& json_writer::number(std::uint64_t value) {
  char digits[24];
  const auto end = std::to_chars(std::begin(digits), std::end(digits), value).ptr;
  return raw_value({digits, static_cast<std::size_t>(end - digits)});
}

json_writer& json_writer::number(std::int64_t value) {
  char digits[24];
  const auto end = std::to_chars(std::begin(digits), std::end(digits), value).ptr;
  return raw_value({digits, static_cast<std::size_t>(end - digits)});
}

json_writer& json_writer::raw(std::string_view text) {
  if (out_ != nullptr && text.size() >= kFlushAt) {  // a block of text written elsewhere
    if (flush()) out_->write(text.data(), static_cast<std::streamsize>(text.size()));
    return *this;
  }
  buffer_ += text;
  if (buffer_.size() >= kFlushAt) flush();
  return *this;
}

bool json_writer::flush() {
  if (out_ == nullptr) return true;
  if (!buffer_.empty() && *out_)
    out_->write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  return static_cast<bool>(*out_);
}

json_writer& json_writer::open(char bracket) {
  before_value();
  buffer_ += bracket;
  has_members_.push_back(false);
  return *this;
}

json_writer& json_writer::close(char bracket) {
  buffer_ += bracket;
  has_members_.pop_back();
  if (buffer_.size() >= kFlushAt) flush();
  return *this;
}

json_writer& json_writer::raw_value(std::string_view text) {
  before_value();
  buffer_ += text;
  return *this;
}

void json_writer::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (has_members_.empty()) return;
  if (has_members_.back()) buffer_ += ',';
  has_members_.back() = true;
}

void json_writer::escaped(std::string_view valid_utf8) {
  constexpr std::string_view hex = "0123456789abcdef";
  std::size_t plain = 0;  // the start of the bytes not written yet
  std::size_t i = 0;
  while (i < valid_utf8.size()) {
    // Most strings need no escape: eight bytes at a time while none does.
    if (valid_utf8.size() - i >= 8) {
      std::uint64_t word;
      std::memcpy(&word, valid_utf8.data() + i, sizeof word);
      if (!needs_escaping(word)) {
        i += 8;
        continue;
      }
    }
    const auto byte = static_cast<unsigned char>(valid_utf8[i]);
    const char escape = kEscapes[byte];
    ++i;
    if (escape == as_is) continue;
    buffer_.append(valid_utf8, plain, i - 1 - plain);
    plain = i;
    buffer_ += '\\';
    if (escape == as_unicode) {
      buffer_ += "u00";
      buffer_ += hex[byte >> 4];
      buffer_ += hex[byte & 0xF];
    } else {
      buffer_ += escape;
    }
  }
  buffer_.append(valid_utf8, plain);
}

}  // namespace corocrawl
