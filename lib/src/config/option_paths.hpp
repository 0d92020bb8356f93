// Values that name places, as the option kinds roots, output_file and state_file keep them.
// Internal.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "corocrawl/option_table.hpp"

namespace corocrawl {

/// A root as settings keep it: directories (relative ones taken from `base_dir`) absolute,
/// URLs normalised with their userinfo, so that the root means the same whatever the working
/// directory of whoever reads the settings later. Throws config_error as classify_root.
std::string root_setting(std::string_view text, const std::filesystem::path& base_dir);

/// An output file as given: "-" (stdout) kept, a relative path taken from `base`. Throws
/// config_error naming `name` for "".
std::string output_path(std::string_view name, std::string_view text, const path_base& base);

/// An output as given, "FORMAT[:FILE]", kept as "FORMAT:FILE": FORMAT one of `formats`, FILE
/// as output_path keeps it, "-" when omitted. Throws config_error naming `name`.
std::string output_setting(std::string_view name, std::string_view text,
                           std::span<const std::string_view> formats, const path_base& base);
/// A state file as given (option_kind::state_file): a relative path taken from `base` as
/// output_path takes it. Throws config_error naming `name` for "" and "-", which would be
/// stdout for an output file.
std::string state_path(std::string_view name, std::string_view text, const path_base& base);

}  // namespace corocrawl
