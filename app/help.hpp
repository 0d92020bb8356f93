#pragma once
// The prose of --help around the options: what corocrawl does, the config file, proxies
// and exit statuses. The man page (man_page.hpp) reads the same prose.

#include <span>
#include <string>
#include <string_view>

#include "settings.hpp"

namespace corocrawl::cli {

/// An exit status of the program and what it means, in lines of at most 72 columns (as
/// --help breaks them; the man page joins them).
struct exit_status_doc {
  int code = 0;
  std::string_view meaning;
};

/// Every exit status main() gives, in order.
std::span<const exit_status_doc> exit_statuses();

/// The config file's paragraph of --help on one line: TOML, the keys of `specs` (see
/// config_key_list), the tables and how paths are read.
std::string config_file_text(std::span<const option_spec* const> specs);

/// What corocrawl does and what a ROOT is: printed before the options.
extern const std::string_view help_description;

/// The config file's keys (from `table`), the proxy variables and the exit statuses:
/// printed after the options, in lines of at most 79 columns.
std::string help_footer(std::span<const option<settings>> table);

}  // namespace corocrawl::cli
