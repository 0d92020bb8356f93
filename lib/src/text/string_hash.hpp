#pragma once
// One hash for std::string and std::string_view alike: an unordered container of strings
// declared with string_hash and std::equal_to<> is searched with a view, without a copy
// (C++20 heterogeneous lookup).

#include <cstddef>
#include <functional>
#include <string_view>

namespace corocrawl {

struct string_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const noexcept {
    return std::hash<std::string_view>{}(text);
  }
};

}  // namespace corocrawl
