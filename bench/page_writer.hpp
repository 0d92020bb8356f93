#pragma once
// Writes a synthetic page into a string through a position of its own, the string kept at
// least 16 bytes longer than what is written: a word is copied 16 bytes at a time from a
// padded table, with no capacity check or memcpy call per word. page_server makes every page
// on request on the cores the crawler under test runs on, and appending word by word to a
// std::string took most of its time (45 µs a page against nginx's 10).

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace corocrawl::bench {

/// A word of at most 16 bytes, padded with NULs to 16.
struct padded_word {
  std::array<char, 16> text{};
  std::uint8_t size = 0;
};

template <std::size_t N>
constexpr std::array<padded_word, N> pad_words(const std::array<std::string_view, N>& words) {
  std::array<padded_word, N> padded{};
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t k = 0; k < words[i].size() && k < 16; ++k)
      padded[i].text[k] = words[i][k];
    padded[i].size = static_cast<std::uint8_t>(words[i].size());
  }
  return padded;
}

class page_writer {
 public:
  /// Writes after what `out` holds, making room for `expected` bytes at once; `out` has its
  /// final size after finish() or the writer's end.
  explicit page_writer(std::string& out, std::size_t expected = 0) : out_(out), size_(out.size()) {
    room(expected);
  }
  page_writer(const page_writer&) = delete;
  page_writer& operator=(const page_writer&) = delete;
  ~page_writer() { finish(); }

  std::size_t size() const { return size_; }
  /// Takes back what was written after `size`.
  void truncate(std::size_t size) { size_ = std::min(size, size_); }
  void finish() { out_.resize(size_); }

  void put(char c) {
    room(1);
    out_[size_++] = c;
  }
  /// `c` when `wanted`, without a branch.
  void put_if(char c, bool wanted) {
    room(1);
    out_[size_] = c;
    size_ += wanted ? 1 : 0;
  }
  void put(std::string_view text) {
    room(text.size());
    std::memcpy(out_.data() + size_, text.data(), text.size());
    size_ += text.size();
  }
  void put(std::size_t count, char c) {
    room(count);
    std::memset(out_.data() + size_, c, count);
    size_ += count;
  }
  /// `word` (lower case ASCII), its first letter in upper case when `capital`.
  void put(const padded_word& word, bool capital = false) {
    room(sizeof word.text);
    char* const at = out_.data() + size_;
    std::memcpy(at, word.text.data(), sizeof word.text);
    if (capital) at[0] = static_cast<char>(at[0] - 'a' + 'A');
    size_ += word.size;
  }
  void put_number(std::uint64_t value) {
    char digits[20];
    const auto end = std::to_chars(std::begin(digits), std::end(digits), value).ptr;
    put({digits, static_cast<std::size_t>(end - digits)});
  }

 private:
  // Keeps at least `more` + 16 bytes after size_: the 16 that a word's copy may touch.
  void room(std::size_t more) {
    if (size_ + more + 16 <= out_.size()) return;
    out_.resize(std::max(out_.size() * 2, size_ + more + 16 + 4096));
  }

  std::string& out_;
  std::size_t size_;
};

}  // namespace corocrawl::bench
