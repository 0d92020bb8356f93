#pragma once
// One hash for std::string and std::string_view alike: an unordered container of strings
// declared with string_hash and std::equal_to<> is searched with a view, without a copy
// (C++20 heterogeneous lookup).

#include <cstddef>
#include <string_view>

#include "text/text_hashes.hpp"

namespace corocrawl {

struct string_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const noexcept { return text_hash(text); }
};

}  // namespace corocrawl
