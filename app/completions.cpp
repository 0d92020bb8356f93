// bash, zsh and fish completions from the option table. Each script is data, not logic: the
// option names, what each value is, and one fixed piece of shell around them.

#include "completions.hpp"

#include <string_view>
#include <vector>

#include "documented_options.hpp"

namespace corocrawl::cli {
namespace {

constexpr std::string_view generated_note = "Generated from corocrawl's option table: do not edit.";

/// `text` in single quotes for bash or zsh.
std::string sh_quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// `words` joined by `separator`.
std::string join(const std::vector<std::string_view>& words, std::string_view separator) {
  std::string out;
  for (const std::string_view word : words)
    out += (out.empty() ? "" : std::string(separator)) + std::string(word);
  return out;
}

std::vector<std::string_view> choices_of(const option_spec& spec) {
  return {spec.choices.begin(), spec.choices.end()};
}

/// The options that take a value, by what the value is.
struct value_options {
  std::vector<std::string_view> files;     ///< names of options whose value is a file
  std::vector<std::string_view> opaque;    ///< names of options whose value no list holds
  std::vector<const option_spec*> choice;  ///< options with a list of choices
};

value_options values_of(std::span<const option_spec* const> specs) {
  value_options values;
  for (const option_spec* spec : specs) {
    if (!takes_value(*spec)) continue;
    if ((spec->kind == option_kind::choice || spec->kind == option_kind::outputs)) {
      values.choice.push_back(spec);
      continue;
    }
    auto& into = takes_file_name(*spec) ? values.files : values.opaque;
    for (const std::string_view name : flag_names(*spec))
      into.push_back(name);
  }
  return values;
}

/// A zsh _arguments explanation or message: what it takes literally, backslash-escaped.
std::string zsh_escaped(std::string_view text, std::string_view specials) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || specials.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

/// The _arguments action for an option's value, after its message.
std::string zsh_action(const option_spec& spec) {
  if (takes_file_name(spec)) return "_files";
  if (spec.kind == option_kind::choice || spec.kind == option_kind::outputs) {
    std::string list;
    for (const std::string_view choice : spec.choices)
      list += (list.empty() ? "" : " ") + zsh_escaped(choice, " ()");
    return "(" + list + ")";
  }
  return " ";  // a message, nothing to complete
}

/// The _arguments specs of one option: one per name.
std::vector<std::string> zsh_specs(const option_spec& spec) {
  const std::vector<std::string_view> names = flag_names(spec);
  if (names.empty()) {
    // The positional: URLs, bare hosts or directories; directories can be completed.
    return {std::string(repeatable(spec.kind) ? "*" : "") + ":" + zsh_escaped(spec.flag, ":") +
            ":_files -/"};
  }
  std::string prefix;
  if (repeats_on_command_line(spec)) {
    prefix = "*";
  } else if (names.size() > 1) {
    prefix = "(" + join(names, " ") + ")";  // one name given, the others are not offered
  }
  const std::string explanation = "[" + zsh_escaped(short_description(spec), "[]:") + "]";
  std::vector<std::string> out;
  for (const std::string_view name : names) {
    std::string item = prefix + std::string(name);
    if (takes_value(spec)) item += name.starts_with("--") ? "=" : "+";  // "--x=v", "--x v"
    item += explanation;
    if (takes_value(spec)) item += ":" + zsh_escaped(spec.value_name, ":") + ":" + zsh_action(spec);
    out.push_back(item);
  }
  return out;
}

/// `text` in single quotes for fish.
std::string fish_quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace

std::string bash_completion(std::span<const option_spec* const> specs) {
  std::vector<std::string_view> names;
  for (const option_spec* spec : specs)
    for (const std::string_view name : flag_names(*spec))
      names.push_back(name);
  const value_options values = values_of(specs);

  std::string out = "# bash completion for corocrawl(1). " + std::string(generated_note) +
                    "\n\n"
                    "_corocrawl() {\n"
                    "  local cur=${COMP_WORDS[COMP_CWORD]} prev=\n"
                    "  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
                    "  case $prev in\n";
  if (!values.files.empty()) {
    out += "    " + join(values.files, " | ") +
           ")\n"
           "      compopt -o filenames 2>/dev/null\n"
           "      mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
           "      return\n"
           "      ;;\n";
  }
  for (const option_spec* spec : values.choice) {
    out += "    " + join(flag_names(*spec), " | ") +
           ")\n"
           "      mapfile -t COMPREPLY < <(compgen -W " +
           sh_quoted(join(choices_of(*spec), " ")) +
           " -- \"$cur\")\n"
           "      return\n"
           "      ;;\n";
  }
  if (!values.opaque.empty()) {
    out += "    " + join(values.opaque, " | ") +
           ")\n"
           "      COMPREPLY=()  # a value no list holds\n"
           "      return\n"
           "      ;;\n";
  }
  out +=
      "  esac\n"
      "  if [[ $cur == -* ]]; then\n"
      "    mapfile -t COMPREPLY < <(compgen -W " +
      sh_quoted(join(names, " ")) +
      " -- \"$cur\")\n"
      "    return\n"
      "  fi\n"
      "  # A ROOT: a URL, a bare host or a directory; directories can be completed.\n"
      "  compopt -o filenames 2>/dev/null\n"
      "  mapfile -t COMPREPLY < <(compgen -d -- \"$cur\")\n"
      "}\n"
      "complete -F _corocrawl corocrawl\n";
  return out;
}

std::string zsh_completion(std::span<const option_spec* const> specs) {
  std::string out = "#compdef corocrawl\n# zsh completion for corocrawl(1). " +
                    std::string(generated_note) + "\n\n_arguments -s -S";
  for (const option_spec* spec : specs) {
    if (spec->flag.empty()) continue;  // the config file's own
    for (const std::string& item : zsh_specs(*spec))
      out += " \\\n  " + sh_quoted(item);
  }
  return out + "\n";
}

std::string fish_completion(std::span<const option_spec* const> specs) {
  std::string out = "# fish completion for corocrawl(1). " + std::string(generated_note) + "\n";
  for (const option_spec* spec : specs) {
    const std::vector<std::string_view> names = flag_names(*spec);
    if (names.empty()) continue;  // ROOTs are files or URLs: fish's default
    out += "complete -c corocrawl";
    for (const std::string_view name : names) {
      if (name.starts_with("--")) {
        out += " -l " + fish_quoted(name.substr(2));
      } else {
        // "-v" is a short option; "-long" an old-style one.
        out += (name.size() == 2 ? " -s " : " -o ") + fish_quoted(name.substr(1));
      }
    }
    if (takes_file_name(*spec)) {
      out += " -r -F";
    } else if ((spec->kind == option_kind::choice || spec->kind == option_kind::outputs) &&
               takes_value(*spec)) {
      out += " -x -a " + fish_quoted(join(choices_of(*spec), " "));
    } else if (takes_value(*spec)) {
      out += " -x";
    }
    out += " -d " + fish_quoted(short_description(*spec)) + "\n";
  }
  return out;
}

}  // namespace corocrawl::cli
