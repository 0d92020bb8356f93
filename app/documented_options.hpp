#pragma once
// The options as the generated documents list them (the man page and the shell completions):
// every option of the table plus the two CLI11 answers itself, and what a document needs to
// know of each beyond its spec: its dashed names, whether it takes a value, whether that value
// is a file name.

#include <string>
#include <string_view>
#include <vector>

#include "settings.hpp"

namespace corocrawl::cli {

/// -h/--help: not in option_table(), since CLI11 answers it itself; cli.cpp defines it from
/// this spec (flag and help text).
const option_spec& help_option();

/// --version, as help_option().
const option_spec& version_option();

/// Every option of the program in --help's order: option_table()'s, with --help and --version
/// closing the "General" group as --help shows them. Includes the positional ROOT and the
/// config file's own keys (empty flag).
std::vector<const option_spec*> documented_options();

/// The names an option is given by on the command line, as its flag writes them:
/// "-v,--verbose" gives "-v" and "--verbose". None for a positional ("ROOT") or a key the
/// config file alone has.
std::vector<std::string_view> flag_names(const option_spec& spec);

/// Whether the command line takes a value after the option's name (false for flags, and for
/// options the command line does not have).
bool takes_value(const option_spec& spec);

/// Whether that value names a file, so that a shell completes file names for it.
bool takes_file_name(const option_spec& spec);

/// Whether the command line takes the option more than once (repeatable values, -vv).
bool repeats_on_command_line(const option_spec& spec);

/// The first sentence of the option's --help text on one line, without its default: a short
/// description for the shells' completion menus.
std::string short_description(const option_spec& spec);

}  // namespace corocrawl::cli
