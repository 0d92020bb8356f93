// The options of the generated documents: the table's, --help and --version, and what each
// document reads of them.

#include "documented_options.hpp"

#include <cstddef>

namespace corocrawl::cli {
namespace {

/// `text` without spaces at either end.
std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(' ') - first + 1));
}

/// `text` without its "(default: ...)" part, parentheses inside it included.
std::string without_default(std::string text) {
  const auto start = text.find("(default:");
  if (start == std::string::npos) return text;
  int depth = 0;
  std::size_t end = start;
  for (; end < text.size(); ++end) {
    if (text[end] == '(') ++depth;
    if (text[end] == ')' && --depth == 0) break;
  }
  text.erase(start, end - start + 1);
  return text;
}

}  // namespace

const option_spec& help_option() {
  static const option_spec spec{.flag = "-h,--help",
                                .kind = option_kind::flag,
                                .group = "General",
                                .help = "Print this help and exit",
                                .meaning = "print the options and exit"};
  return spec;
}

const option_spec& version_option() {
  static const option_spec spec{.flag = "--version",
                                .kind = option_kind::flag,
                                .group = "General",
                                .help = "Print the version and exit",
                                .meaning = "print the version and exit"};
  return spec;
}

std::vector<const option_spec*> documented_options() {
  std::vector<const option_spec*> specs;
  std::string_view group;
  for (const option<settings>& o : option_table()) {
    // As define_options (cli.cpp) does: help and version close the first group.
    if (group == help_option().group && o.spec.group != group) {
      specs.push_back(&help_option());
      specs.push_back(&version_option());
    }
    group = o.spec.group;
    specs.push_back(&o.spec);
  }
  return specs;
}

std::vector<std::string_view> flag_names(const option_spec& spec) {
  std::vector<std::string_view> names;
  if (!spec.flag.starts_with('-')) return names;
  std::string_view rest = spec.flag;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    names.push_back(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return names;
}

bool takes_value(const option_spec& spec) {
  return spec.flag.starts_with('-') && spec.kind != option_kind::flag &&
         spec.kind != option_kind::counted_flag;
}

bool takes_file_name(const option_spec& spec) {
  // --config is text to the table (cli.cpp reads it before anything else) but names a file.
  return takes_value(spec) &&
         (spec.kind == option_kind::input_file || spec.kind == option_kind::output_file ||
          spec.kind == option_kind::state_file || spec.flag == "--config");
}

bool repeats_on_command_line(const option_spec& spec) {
  return repeatable(spec.kind) || spec.kind == option_kind::counted_flag;
}

std::string short_description(const option_spec& spec) {
  std::string text(spec.help);
  for (char& c : text)
    if (c == '\n') c = ' ';
  text = without_default(std::move(text));
  // "see below" points into --help's footer, which a completion menu does not show.
  if (const auto below = text.find(", see below"); below != std::string::npos)
    text.erase(below, std::string_view(", see below").size());
  if (const auto stop = text.find(". "); stop != std::string::npos) text.resize(stop);
  return trimmed(text);
}

}  // namespace corocrawl::cli
