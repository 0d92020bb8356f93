// The text parser of each option kind, as the command line gives values, and the renderings
// of the table for people: docs/options.md and --help's list of config file keys.

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include "config/config_detail.hpp"
#include "config/option_paths.hpp"
#include "config/value_parsers.hpp"
#include "corocrawl/option_table.hpp"
#include "text/ascii.hpp"
#include "url/root.hpp"
#include "url/url_pattern.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
using namespace detail;

const std::string& last(std::span<const std::string> words) {
  return words.back();
}

/// A markdown table cell: '|' escaped, on one line.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

/// "**Politeness** (per host:port)" for "Politeness (per host:port)"; a pointer to the
/// help's prose, "(see below)", is left out.
std::string group_heading(std::string_view group) {
  const auto paren = group.find(" (");
  std::string heading = "**" + std::string(group.substr(0, paren)) + "**";
  if (paren != std::string_view::npos && group.substr(paren) != " (see below)")
    heading += std::string(group.substr(paren));
  return heading;
}

/// "`--exclude REGEX` (repeatable)", "—" for a config file key only.
std::string flag_cell(const option_spec& spec) {
  if (spec.flag.empty()) return "—";
  std::string flag(spec.flag);
  if (!spec.value_name.empty()) flag += " " + std::string(spec.value_name);
  std::string text = "`" + cell(flag) + "`";
  if (repeatable(spec.kind) && spec.flag.starts_with('-')) text += " (repeatable)";
  return text;
}

}  // namespace

std::string root_setting(std::string_view text, const fs::path& base_dir) {
  const root r = classify_root(text, base_dir);
  if (const auto* dir = std::get_if<directory_root>(&r)) return dir->path.string();
  return std::get<url_root>(r).setting;
}

std::string output_path(std::string_view name, std::string_view text, const path_base& base) {
  if (text.empty()) fail(name_of(name) + "expected a file name or \"-\", got \"\"");
  if (text == "-") return std::string(text);
  const fs::path path(text);
  if (base.from_file) return (base.dir / path).lexically_normal().string();
  if (path.is_absolute()) return path.string();
  std::error_code ec;
  if (fs::equivalent(base.dir, fs::current_path(), ec)) return path.string();
  return (base.dir / path).string();
}

std::string output_setting(std::string_view name, std::string_view text,
                           std::span<const std::string_view> formats, const path_base& base) {
  const auto colon = text.find(':');
  const std::string_view format = text.substr(0, colon);
  const int index = parse_choice(name, format, formats);
  const std::string file =
      colon == std::string_view::npos ? "-" : output_path(name, text.substr(colon + 1), base);
  return std::string(formats[static_cast<std::size_t>(index)]) + ":" + file;
}

std::string state_path(std::string_view name, std::string_view text, const path_base& base) {
  if (text.empty() || text == "-") {
    fail(name_of(name) + "expected a file name, got " + quoted(text) +
         (text == "-" ? " (write ./- for a file of that name)" : ""));
  }
  return output_path(name, text, base);
}

option_value parse_option_words(const option_spec& spec, std::string_view name,
                                std::span<const std::string> words, const path_base& base) {
  switch (spec.kind) {
    case option_kind::count:
      return parse_count(name, last(words), spec.counts);
    case option_kind::large_count:
      return parse_large_count(name, last(words));
    case option_kind::seconds:
      return parse_seconds(name, last(words), spec.seconds);
    case option_kind::duration:
      return parse_duration(name, last(words), spec.seconds);
    case option_kind::byte_size:
      return parse_byte_size(name, last(words), spec.max_bytes);
    case option_kind::rate:
      return parse_rate(name, last(words));
    case option_kind::text:
      return spec.check ? spec.check(name, last(words)) : last(words);
    case option_kind::choice:
      return parse_choice(name, last(words), spec.choices);
    case option_kind::input_file:
      return parse_ca_file(name, last(words), base.dir);
    case option_kind::output_file:
      return output_path(name, last(words), base);
    case option_kind::state_file:
      return state_path(name, last(words), base);
    case option_kind::roots: {
      std::vector<std::string> roots;
      for (const std::string& text : words)
        roots.push_back(root_setting(text, base.dir));
      return roots;
    }
    case option_kind::patterns:
      compile_patterns(words, name);
      return std::vector<std::string>(words.begin(), words.end());
    case option_kind::resolves: {
      std::vector<resolve_override> overrides;
      for (const std::string& text : words)
        overrides.push_back(parse_resolve(name, text));
      return overrides;
    }
    case option_kind::headers: {
      std::vector<http_header> headers;
      for (const std::string& text : words)
        headers.push_back(parse_header(name, text));
      return headers;
    }
    case option_kind::texts: {
      std::vector<std::string> texts;
      for (const std::string& text : words)
        texts.push_back(spec.check ? spec.check(name, text) : text);
      return texts;
    }
    case option_kind::outputs: {
      std::vector<std::string> outputs;
      for (const std::string& text : words)
        outputs.push_back(output_setting(name, text, spec.choices, base));
      return outputs;
    }
    case option_kind::status_codes:
      return parse_status_codes(name, last(words));
    case option_kind::flag:
    case option_kind::counted_flag:
    case option_kind::host_headers:
    case option_kind::status_rules:
      break;
  }
  fail(name_of(name) + "takes no value");
}

option_value combine(const option_spec& spec, option_value earlier, option_value given) {
  if (spec.kind != option_kind::headers) return given;
  auto& headers = std::get<std::vector<http_header>>(earlier);
  const auto& added = std::get<std::vector<http_header>>(given);
  std::erase_if(headers, [&](const http_header& old) {
    return std::any_of(added.begin(), added.end(),
                       [&](const http_header& h) { return ascii::iequals(old.name, h.name); });
  });
  headers.insert(headers.end(), added.begin(), added.end());
  return earlier;
}

std::string config_key_markdown(const option_spec& spec) {
  if (spec.key.empty()) return "—";
  const std::string key(spec.key);
  switch (spec.kind) {
    case option_kind::roots:
    case option_kind::patterns:
    case option_kind::resolves:
    case option_kind::texts:
    case option_kind::outputs:
      return "`" + key + " = [...]`";
    case option_kind::flag:
      return spec.flag_gives ? "`" + key + "`" : "`" + key + " = false`";
    case option_kind::headers:
      return "`[" + key + "]` table";
    case option_kind::host_headers:
      return "`[" + key + ".\"HOST\".headers]` tables";
    case option_kind::status_rules:
      return "`[[" + key + "]]` tables";
    default:
      return "`" + key + "`";
  }
}

std::string options_markdown(std::span<const option_spec* const> specs) {
  std::string out =
      "| option | config key | default | meaning |\n"
      "|---|---|---|---|\n";
  std::string_view group = "General";  // the first group goes without a heading
  for (const option_spec* spec : specs) {
    if (spec->group != group) {
      group = spec->group;
      out += "| " + group_heading(group) + " | | | |\n";
    }
    out += "| " + flag_cell(*spec) + " | " + config_key_markdown(*spec) + " | " +
           cell(spec->default_text) + " | " + cell(spec->meaning) + " |\n";
  }
  return out;
}

std::string config_key_list(std::span<const option_spec* const> specs) {
  std::vector<std::string> keys;
  const auto add = [&](const option_spec& spec) {
    keys.push_back(std::string(spec.key) + std::string(spec.file_note));
  };
  const auto is_positional = [](const option_spec* s) {
    return !s->flag.empty() && !s->flag.starts_with('-');
  };
  for (const option_spec* spec : specs)
    if (is_positional(spec) && !spec->key.empty()) add(*spec);
  for (const option_spec* spec : specs) {
    if (is_positional(spec) || spec->key.empty()) continue;
    if (spec->kind == option_kind::headers || spec->kind == option_kind::host_headers ||
        spec->kind == option_kind::status_rules)
      continue;
    add(*spec);
  }
  std::string out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) out += i + 1 == keys.size() ? " and " : ", ";
    out += keys[i];
  }
  return out;
}

}  // namespace corocrawl
