#pragma once
// Shell completions for corocrawl, rendered from the option table: every name of every
// option, the choices of a choice option, file names for an option that takes a file, and
// directories for ROOT.

#include <span>
#include <string>

#include "corocrawl/option_table.hpp"

namespace corocrawl::cli {

/// A bash completion script (bash-completion's completions directory, or `source` it) that
/// defines _corocrawl and registers it with `complete -F`. Values are completed after an
/// option given as a word of its own ("--report te"), not after "--report=".
std::string bash_completion(std::span<const option_spec* const> specs);

/// A zsh completion function (#compdef corocrawl) for a directory on $fpath, as _corocrawl.
std::string zsh_completion(std::span<const option_spec* const> specs);

/// fish `complete` commands, for fish's vendor_completions.d as corocrawl.fish.
std::string fish_completion(std::span<const option_spec* const> specs);

}  // namespace corocrawl::cli
