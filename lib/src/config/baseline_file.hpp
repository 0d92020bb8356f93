#pragma once
// --baseline's file: the broken URLs of an earlier crawl's JSON summary.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace corocrawl {

/// The names of the broken URLs in the corocrawl-summary/1 document `file` (each entry's
/// "file" in folder mode, else its "url"), sorted and distinct. Throws config_error naming
/// `name` when the file cannot be read or is not such a summary.
std::vector<std::string> read_baseline(std::string_view name, const std::filesystem::path& file);

}  // namespace corocrawl
