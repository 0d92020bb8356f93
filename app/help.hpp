#pragma once
// The prose of --help around the options: what corocrawl does, the config file, proxies
// and exit statuses.

#include <string>
#include <string_view>

#include "settings.hpp"

namespace corocrawl::cli {

/// What corocrawl does and what a ROOT is: printed before the options.
extern const std::string_view help_description;

/// The config file's keys (from `table`), the proxy variables and the exit statuses:
/// printed after the options, in lines of at most 79 columns.
std::string help_footer(std::span<const option<settings>> table);

}  // namespace corocrawl::cli
