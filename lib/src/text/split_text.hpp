#pragma once
// A text kept in pieces, compared and copied as if joined: the URL table keeps each origin's
// text once, and gives a URL as its origin's text and the rest.

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

namespace corocrawl {

/// Whether the pieces `a`, joined, come before the pieces `b`, joined: byte by byte as
/// unsigned, a text before the longer ones it begins.
inline bool pieces_less(std::span<const std::string_view> a, std::span<const std::string_view> b) {
  std::size_t ia = 0;
  std::size_t ib = 0;
  std::string_view ra = a.empty() ? std::string_view() : a[0];
  std::string_view rb = b.empty() ? std::string_view() : b[0];
  for (;;) {
    while (ra.empty() && ++ia < a.size())
      ra = a[ia];
    while (rb.empty() && ++ib < b.size())
      rb = b[ib];
    if (ra.empty() || rb.empty()) return ra.empty() && !rb.empty();
    const std::size_t n = std::min(ra.size(), rb.size());
    if (const int c = std::memcmp(ra.data(), rb.data(), n); c != 0) return c < 0;
    ra.remove_prefix(n);
    rb.remove_prefix(n);
  }
}

/// A text as `head` followed by `tail`; the views stay valid as long as what they view.
struct split_text {
  std::string_view head;
  std::string_view tail;

  std::size_t size() const { return head.size() + tail.size(); }
  char operator[](std::size_t i) const { return i < head.size() ? head[i] : tail[i - head.size()]; }
  std::string str() const {
    std::string joined;
    return assign_to(joined);
  }
  /// Makes `out` the text, reusing its memory.
  std::string& assign_to(std::string& out) const {
    out.clear();
    return append_to(out);
  }
  std::string& append_to(std::string& out) const { return out.append(head).append(tail); }

  friend bool operator==(const split_text& a, std::string_view b) {
    return a.size() == b.size() && b.starts_with(a.head) && b.substr(a.head.size()) == a.tail;
  }
};

}  // namespace corocrawl
