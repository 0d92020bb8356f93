#pragma once
// corocrawl(1), the man page, rendered in roff from the option table and the prose of --help,
// so that it lists what the program reads and nothing else.

#include <span>
#include <string>
#include <string_view>

#include "corocrawl/option_table.hpp"

namespace corocrawl::cli {

/// `text` as a roff text line shows it literally: backslashes and hyphens escaped (a hyphen as
/// \- so that flags copied from the page are ASCII), a leading '.' or '\'' made text. `text`
/// must be one line.
std::string roff_text(std::string_view text);

/// Markdown's inline code and links, as the option table's meanings use them, in roff: code
/// in bold, a link as its text; the rest as roff_text.
std::string roff_from_markdown(std::string_view markdown);

/// The whole man page: NAME, SYNOPSIS, DESCRIPTION, OPTIONS (each of `specs` with a dashed
/// flag or a positional, by group), CONFIGURATION (the keys of `specs`), ENVIRONMENT,
/// FILES, EXIT STATUS, EXAMPLES and SEE ALSO. `specs` in --help order, as
/// documented_options() gives them.
std::string man_page(std::span<const option_spec* const> specs);

}  // namespace corocrawl::cli
