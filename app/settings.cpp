// The program's own options, added to the library's table: one descriptor each.

#include "settings.hpp"

#include <array>
#include <utility>
#include <vector>

namespace corocrawl::cli {
namespace {

constexpr std::array<std::string_view, 2> report_modes{"text", "none"};
constexpr std::array<std::string_view, 4> verbosities{"quiet", "info", "debug", "trace"};

std::vector<option<settings>> make_table() {
  using k = option_kind;
  std::vector<option<settings>> t;
  // Read before the other options, by parse_command_line: see there.
  t.push_back(
      {{.flag = "--config",
        .kind = k::text,
        .group = "General",
        .value_name = "FILE",
        .help = "Config file in TOML, see below\n"
                "(default: ./corocrawl.toml if it exists)",
        .default_text = "`./corocrawl.toml` if it exists",
        .meaning = "config file; flags override it"},
       [](settings& s, option_value&& v) { s.config = std::get<std::string>(v); },
       [](const settings& s) { return s.config ? option_value(*s.config) : option_value{}; }});
  const auto crawl = lift(crawl_option_table(), &settings::crawl);
  t.insert(t.end(), crawl.begin(), crawl.end());

  const std::string_view group = "Output";
  t.push_back({{.flag = "--json",
                .key = "json",
                .kind = k::output_file,
                .group = group,
                .value_name = "FILE",
                .help = "Write the JSON summary to FILE, - for stdout\n(default: none)",
                .default_text = "none",
                .meaning = "write the JSON summary to FILE; `-` writes it to stdout"},
               [](settings& s, option_value&& v) { s.json_path = std::get<std::string>(v); },
               [](const settings& s) {
                 return s.json_path ? option_value(*s.json_path) : option_value{};
               }});
  t.push_back({{.flag = "--report",
                .key = "report",
                .kind = k::choice,
                .group = group,
                .value_name = "text|none",
                .help = "Human report on stdout (default: text)",
                .default_text = "`text`",
                .meaning = "the human report on stdout",
                .choices = report_modes},
               [](settings& s, option_value&& v) { s.report = report_mode(std::get<int>(v)); },
               [](const settings& s) { return option_value(static_cast<int>(s.report)); }});
  t.push_back({{.flag = "-v,--verbose",
                .kind = k::counted_flag,
                .group = group,
                .help = "More log: -v debug, -vv trace (default: info)",
                .default_text = "`info`",
                .meaning = "log level: `-v` debug, `-vv` trace"},
               [](settings& s, option_value&& v) { s.verbose = std::get<int>(v); },
               [](const settings& s) { return option_value(s.verbose); }});
  t.push_back({{.flag = "-q,--quiet",
                .kind = k::flag,
                .group = group,
                .help = "Log only errors, report only broken URLs",
                .default_text = "off",
                .meaning = "log only errors and report only broken URLs"},
               [](settings& s, option_value&& v) { s.quiet = std::get<bool>(v); },
               [](const settings& s) { return option_value(s.quiet); }});
  t.push_back({{.key = "verbosity",
                .kind = k::choice,
                .group = group,
                .default_text = "`info`",
                .meaning = "log level: `\"quiet\"`, `\"info\"`, `\"debug\"` or `\"trace\"`; `-v` "
                           "and `-q` set it on the command line",
                .file_note = " (\"quiet\", \"info\", \"debug\" or \"trace\")",
                .choices = verbosities},
               [](settings& s, option_value&& v) { s.verbosity = verbosity(std::get<int>(v)); },
               [](const settings& s) { return option_value(static_cast<int>(s.verbosity)); }});
  return t;
}

}  // namespace

std::span<const option<settings>> option_table() {
  static const std::vector<option<settings>> table = make_table();
  return table;
}

void apply_config_file(const std::filesystem::path& file, settings& into) {
  corocrawl::apply_config_file(file, option_table(), into);
}

report_mode parse_report_mode(std::string_view name, std::string_view text) {
  return report_mode(parse_choice(name, text, report_modes));
}

enum verbosity parse_verbosity(std::string_view name, std::string_view text) {
  return verbosity(parse_choice(name, text, verbosities));
}

}  // namespace corocrawl::cli
