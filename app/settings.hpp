#pragma once
// The program's settings: the library's crawl options plus what only the program decides
// (where the outputs go, how much it logs), and the table of every option it reads.

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "corocrawl/option_table.hpp"
#include "corocrawl/options.hpp"
#include "corocrawl/plan.hpp"

namespace corocrawl::cli {

/// The text report: what needs fixing (text), that and a line per URL (full), or none.
enum class report_mode { text, none, full };

/// Progress line and colours: on a terminal only (automatic), always or never.
enum class when { automatic, always, never };

/// Log level and report detail. quiet: errors only in the log and only broken URLs in the
/// text report.
enum class verbosity { quiet, info, debug, trace };

struct settings {
  crawl_options crawl;
  std::optional<std::string> json_path;  ///< "-" is stdout
  std::vector<std::string> outputs;      ///< --output, as "FORMAT:FILE" ("FORMAT:-": stdout)
  report_mode report = report_mode::text;
  when progress = when::automatic;
  when color = when::automatic;
  bool no_color = false;  ///< the environment's NO_COLOR is set (not empty)
  enum verbosity verbosity = verbosity::info;
  std::optional<std::string> config;  ///< --config FILE, as given
  int verbose = 0;                    ///< -v given this many times
  bool quiet = false;                 ///< -q given
  /// `crawl` checked and worked out; parse_command_line sets it.
  std::optional<crawl_plan> plan;
};

/// Every option of the program, in --help order: --config, the library's
/// (crawl_option_table()), then the output options.
std::span<const option<settings>> option_table();

/// Reads a corocrawl.toml with the program's keys (the library's plus json, report and
/// verbosity) into `into`; see corocrawl::apply_config_file (config.hpp). Relative json paths
/// are taken from the file's directory.
void apply_config_file(const std::filesystem::path& file, settings& into);

/// Parses "text", "none" or "full". Throws config_error naming `name`.
report_mode parse_report_mode(std::string_view name, std::string_view text);

/// Parses "quiet", "info", "debug" or "trace". Throws config_error naming `name`.
enum verbosity parse_verbosity(std::string_view name, std::string_view text);

}  // namespace corocrawl::cli
