// The program's own options, added to the library's table: one descriptor each.

#include "settings.hpp"

#include <array>
#include <utility>
#include <vector>

#include "corocrawl/report.hpp"

namespace corocrawl::cli {
namespace {

constexpr std::array<std::string_view, 3> report_modes{"text", "none", "full"};
constexpr std::array<std::string_view, 3> whens{"auto", "always", "never"};
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
  t.push_back(
      {{.flag = "-o,--output",
        .key = "outputs",
        .kind = k::outputs,
        .group = group,
        .value_name = "FORMAT[:FILE]",
        .help = "Write a report: text, json, junit, markdown,\n"
                "github or sarif, to FILE or - (stdout);\n"
                "repeatable, one on stdout at most",
        .default_text = "the text report on stdout",
        .meaning = "write a report in FORMAT (`text`, `json`, `junit`, `markdown`, `github`, "
                   "`sarif`) to FILE, or to stdout when FILE is `-` or left out; repeatable, at "
                   "most one on stdout",
        .choices = corocrawl::report_format_names},
       [](settings& s, option_value&& v) { s.outputs = std::get<std::vector<std::string>>(v); },
       [](const settings& s) { return option_value(s.outputs); }});
  t.push_back({{.flag = "--json",
                .key = "json",
                .kind = k::output_file,
                .group = group,
                .value_name = "FILE",
                .help = "Same as --output json:FILE (default: none)",
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
                .value_name = "text|full|none",
                .help = "Text report: what needs fixing, that and a\n"
                        "line per URL (full), or none (default: text)",
                .default_text = "`text`",
                .meaning = "the text report: what needs fixing (`text`), that and a line per URL "
                           "(`full`), or none unless an `--output` asks for it",
                .choices = report_modes},
               [](settings& s, option_value&& v) { s.report = report_mode(std::get<int>(v)); },
               [](const settings& s) { return option_value(static_cast<int>(s.report)); }});
  t.push_back({{.flag = "--progress",
                .key = "progress",
                .kind = k::choice,
                .group = group,
                .value_name = "auto|always|never",
                .help = "Status line on stderr (default: auto, when\nstderr is a terminal)",
                .default_text = "`auto`",
                .meaning = "a status line on stderr, redrawn in place: checked, queued, broken, "
                           "requests per second, elapsed; `auto` when stderr is a terminal",
                .choices = whens},
               [](settings& s, option_value&& v) { s.progress = when(std::get<int>(v)); },
               [](const settings& s) { return option_value(static_cast<int>(s.progress)); }});
  t.push_back({{.flag = "--color",
                .key = "color",
                .kind = k::choice,
                .group = group,
                .value_name = "auto|always|never",
                .help = "Colour the text report (default: auto, on a\n"
                        "terminal unless NO_COLOR is set)",
                .default_text = "`auto`",
                .meaning = "colours in the text report; `auto` on a terminal unless the "
                           "environment sets `NO_COLOR`",
                .choices = whens},
               [](settings& s, option_value&& v) { s.color = when(std::get<int>(v)); },
               [](const settings& s) { return option_value(static_cast<int>(s.color)); }});
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
