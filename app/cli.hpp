#pragma once
// The command line: `corocrawl [OPTIONS] [ROOT ...]` into settings.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "settings.hpp"

namespace corocrawl::cli {

/// --help and --version: text for stdout and the exit status.
struct early_exit {
  int code = 0;
  std::string text;
};

using parse_result = std::variant<settings, early_exit>;

/// An environment variable's value by name; nullopt when it is not set.
using environment = std::function<std::optional<std::string>(const std::string& name)>;

/// The process's environment (getenv).
environment process_environment();

/// Parses the arguments after the program name. Settings come from defaults, then the
/// environment (the proxy variables http_proxy, https_proxy and no_proxy, or their upper-case
/// forms; lower-case wins, empty counts as unset), then the config file (--config FILE, else
/// `cwd`/corocrawl.toml when it exists), then the flags. A list given on the command line
/// (roots, --exclude, --resolve, --sitemap, --output) replaces the file's; a --header replaces the
/// file's header of the same name. The result is checked and worked out into its `plan`, once.
/// Throws config_error (one line naming the option, key or variable) for any bad input; a bad proxy
/// variable only when it is used.
parse_result parse_command_line(const std::vector<std::string>& args,
                                const std::filesystem::path& cwd, const environment& env);

}  // namespace corocrawl::cli
