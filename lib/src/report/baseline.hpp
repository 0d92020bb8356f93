#pragma once
// --baseline: how a crawl's broken URLs compare with an earlier crawl's (read by
// read_baseline, config/baseline_file.hpp), so that only new breakage fails a build.

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "corocrawl/crawl.hpp"

namespace corocrawl {

/// How `result`'s broken URLs compare with `baseline` (read_baseline's names), each named as
/// file_of names it from `cwd` in folder mode.
baseline_comparison compare_with_baseline(const crawl_result& result,
                                          std::span<const std::string> baseline,
                                          const std::filesystem::path& cwd);

}  // namespace corocrawl
