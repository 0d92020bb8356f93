// Suggestions for a mistyped config key. Internal.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace corocrawl {

/// " (did you mean "max_tasks"?)" for a key a typo or two away from one of `candidates`
/// (compared in lower case), else the empty string.
std::string suggestion_for(std::string_view key, std::span<const std::string_view> candidates);

}  // namespace corocrawl
