#pragma once
// The command line: `corocrawl [OPTIONS] [ROOT ...]` into settings.

#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "corocrawl/config.hpp"

namespace corocrawl::cli {

/// --help and --version: text for stdout and the exit status.
struct early_exit {
  int code = 0;
  std::string text;
};

using parse_result = std::variant<settings, early_exit>;

/// Parses the arguments after the program name. Settings come from defaults, then the config
/// file (--config FILE, else `cwd`/corocrawl.toml when it exists), then the flags; a list
/// given on the command line (roots, --exclude, --resolve) replaces the file's. The result is
/// validated. Throws config_error (one line naming the option or key) for any bad input.
parse_result parse_command_line(const std::vector<std::string>& args,
                                const std::filesystem::path& cwd);

}  // namespace corocrawl::cli
