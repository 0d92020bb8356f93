// The command line: CLI11 collects the words of every option in the option table, and each
// option's kind gives them meaning, so a bad value is worded the same way on the command line
// and in corocrawl.toml.

#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "corocrawl/errors.hpp"
#include "corocrawl/version.hpp"
#include "documented_options.hpp"
#include "help.hpp"
#include "outputs.hpp"

namespace corocrawl::cli {
namespace {

namespace fs = std::filesystem;

/// What the command line gave one option: CLI11's record, and the words of its values.
struct given_words {
  CLI::Option* option = nullptr;
  std::string last;                ///< a single value: a value option given twice keeps the last
  std::vector<std::string> words;  ///< a repeatable value: the words add up
};

bool is_flag(option_kind kind) {
  return kind == option_kind::flag || kind == option_kind::counted_flag;
}

/// The name an option's errors give: its long form.
std::string_view long_name(const option_spec& spec) {
  const auto comma = spec.flag.rfind(',');
  return comma == std::string_view::npos ? spec.flag : spec.flag.substr(comma + 1);
}

std::vector<given_words> define_options(CLI::App& app, std::span<const option<settings>> table) {
  app.description(std::string(help_description));
  app.footer(help_footer(table));
  // Names in 28 columns, descriptions in the 52 after them: the help fits 80 columns.
  app.get_formatter()->column_width(28);

  std::vector<given_words> given(table.size());
  std::string_view group;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const option_spec& spec = table[i].spec;
    if (spec.flag.empty()) continue;  // corocrawl.toml only
    // Help and version close the first group (as documented_options() lists them); groups
    // are listed in the order their first option is defined.
    if (group == help_option().group && spec.group != group) {
      app.set_help_flag(std::string(help_option().flag), help_option().help)
          ->group(std::string(group));
      app.set_version_flag(std::string(version_option().flag), std::string("corocrawl ") + version,
                           version_option().help)
          ->group(std::string(group));
    }
    group = spec.group;
    const std::string name(spec.flag);
    CLI::Option* option = nullptr;
    if (!spec.flag.starts_with('-')) {
      option = app.add_option(name, given[i].words, spec.help);
    } else if (is_flag(spec.kind)) {
      // Flags take no value: "--quiet=false" is an error rather than a surprise.
      option = app.add_flag(name)->description(spec.help)->disable_flag_override();
    } else if (repeatable(spec.kind)) {
      // Exactly one value per occurrence: "--exclude a ROOT" must not swallow ROOT.
      option = app.add_option(name, given[i].words, spec.help)->allow_extra_args(false);
    } else {
      option = app.add_option(name, given[i].last, spec.help)
                   ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    }
    if (!spec.value_name.empty()) option->option_text(std::string(spec.value_name));
    // A positional stays under CLI11's "Positionals:", ahead of every group.
    if (spec.flag.starts_with('-')) option->group(std::string(spec.group));
    given[i].option = option;
  }
  return given;
}

/// `path` as the user meant it: relative to `cwd`. Kept relative (and so short in messages)
/// when `cwd` is the process's working directory anyway.
fs::path in_cwd(const fs::path& path, const fs::path& cwd) {
  if (path.is_absolute()) return path;
  std::error_code ec;
  if (fs::equivalent(cwd, fs::current_path(), ec)) return path;
  return cwd / path;
}

/// `value` for the option whose config key is `key`, as that option's check keeps it.
std::string checked_text(std::string_view key, const std::string& name, const std::string& value) {
  for (const auto& o : crawl_option_table())
    if (o.spec.key == key && o.spec.check) return o.spec.check(name, value);
  return value;
}

/// The help, with one blank line between option groups where CLI11 2.1 puts two.
std::string help_text(const CLI::App& app) {
  std::string text = app.help();
  for (auto at = text.find("\n\n\n"); at != std::string::npos; at = text.find("\n\n\n", at))
    text.erase(at, 1);
  return text;
}

/// CLI11's complaint about leftover words, as "unknown option "--nope"".
std::string extras_message(const std::vector<std::string>& extras, std::string_view fallback) {
  if (extras.empty()) return std::string(fallback);
  std::string word = extras.front();
  if (!word.starts_with('-')) return "unexpected argument \"" + word + "\"";
  if (const auto equals = word.find('='); equals != std::string::npos) word.resize(equals);
  return "unknown option \"" + word + "\"";
}

/// CLI11 says "--max-tasks: 1 required TEXT missing" for a missing value; say it plainly.
std::string mismatch_message(std::string message) {
  const auto colon = message.find(": ");
  if (colon != std::string::npos && message.find(" required ") != std::string::npos &&
      message.ends_with(" missing")) {
    return message.substr(0, colon) + ": missing value";
  }
  return message;
}

/// The config file: --config FILE, else ./corocrawl.toml when it exists.
void apply_config(const std::optional<std::string>& given, const fs::path& cwd, settings& s) {
  if (given) {
    if (given->empty()) throw config_error("--config: expected a file name, got \"\"");
    const fs::path file = in_cwd(*given, cwd);
    std::error_code ec;
    if (!fs::exists(file, ec)) {
      throw config_error("--config: no such file \"" + *given + "\"");
    }
    apply_config_file(file, s);
    return;
  }
  // The implicit config file is optional: no file, no error.
  const fs::path implicit = in_cwd("corocrawl.toml", cwd);
  std::error_code ec;
  if (fs::exists(implicit, ec)) apply_config_file(implicit, s);
}

/// Stores every option given on the command line over what `s` holds.
void apply_flags(std::span<const option<settings>> table, const std::vector<given_words>& given,
                 const fs::path& cwd, settings& s) {
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto& [spec, store, read] = table[i];
    const given_words& words = given[i];
    if (words.option == nullptr || words.option->count() == 0) continue;
    if (spec.kind == option_kind::flag) {
      store(s, spec.flag_gives);
    } else if (spec.kind == option_kind::counted_flag) {
      store(s, static_cast<int>(words.option->count()));
    } else {
      const auto values = repeatable(spec.kind) ? std::span<const std::string>(words.words)
                                                : std::span<const std::string>(&words.last, 1);
      option_value value = parse_option_words(spec, long_name(spec), values, {.dir = cwd});
      store(s, combine(spec, read(s), std::move(value)));
    }
  }
  if (s.quiet) s.verbosity = verbosity::quiet;
  if (s.verbose == 1) s.verbosity = verbosity::debug;
  if (s.verbose >= 2) s.verbosity = verbosity::trace;
}

/// A proxy variable that is set (not empty), and which of its two spellings set it.
struct proxy_variable {
  std::string name;
  std::string value;
};

/// `lower` (say http_proxy) when set, else `upper` (HTTP_PROXY): curl's order.
std::optional<proxy_variable> read_variable(const environment& env, const std::string& lower,
                                            const std::string& upper) {
  if (!env) return std::nullopt;
  for (const std::string& name : {lower, upper}) {
    if (std::optional<std::string> value = env(name); value && !value->empty()) {
      return proxy_variable{name, std::move(*value)};
    }
  }
  return std::nullopt;
}

/// The proxy variables, read before the config file and the flags so that those override
/// them. They are checked only afterwards, and only when still in use: a broken variable
/// the user has overridden is not an error.
struct proxy_environment {
  std::optional<proxy_variable> http, https, no_proxy;

  explicit proxy_environment(const environment& env)
      : http(read_variable(env, "http_proxy", "HTTP_PROXY")),
        https(read_variable(env, "https_proxy", "HTTPS_PROXY")),
        no_proxy(read_variable(env, "no_proxy", "NO_PROXY")) {}

  void apply(proxy_options& proxy) const {
    if (http) proxy.http_proxy = http->value;
    if (https) proxy.https_proxy = https->value;
    if (no_proxy) proxy.no_proxy = checked_text("no_proxy", no_proxy->name, no_proxy->value);
  }

  /// A value equal to the variable's either came from it or was checked where it came from.
  void check_in_use(const proxy_options& proxy) const {
    if (http && proxy.http_proxy == http->value) parse_proxy_url(http->name, http->value);
    if (https && proxy.https_proxy == https->value) parse_proxy_url(https->name, https->value);
  }
};

}  // namespace

environment process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

parse_result parse_command_line(const std::vector<std::string>& args,
                                const std::filesystem::path& cwd, const environment& env) {
  CLI::App app{"", "corocrawl"};
  const auto table = option_table();
  const std::vector<given_words> given = define_options(app, table);

  // CLI11 wants the words in reverse order; it never prints or exits by itself unless asked
  // to through app.exit(), which is not used.
  std::vector<std::string> words(args.rbegin(), args.rend());
  try {
    app.parse(words);
  } catch (const CLI::CallForHelp&) {
    return early_exit{0, help_text(app)};
  } catch (const CLI::CallForVersion& e) {
    return early_exit{0, std::string(e.what()) + "\n"};
  } catch (const CLI::ArgumentMismatch& e) {
    throw config_error(mismatch_message(e.what()));
  } catch (const CLI::ExtrasError& e) {
    throw config_error(extras_message(app.remaining(false), e.what()));
  } catch (const CLI::ParseError& e) {
    throw config_error(e.what());
  }

  const auto count = [&](std::string_view flag) {
    const auto it = std::find_if(table.begin(), table.end(),
                                 [&](const auto& o) { return o.spec.flag == flag; });
    return given[static_cast<std::size_t>(it - table.begin())].option->count();
  };
  if (count("-q,--quiet") > 0 && count("-v,--verbose") > 0) {
    throw config_error("-q/--quiet and -v/--verbose cannot be used together");
  }
  settings s;
  const proxy_environment from_environment(env);
  from_environment.apply(s.crawl.proxy);
  const auto config_words = app.get_option("--config");
  apply_config(
      config_words->count() > 0 ? std::optional(config_words->as<std::string>()) : std::nullopt,
      cwd, s);
  apply_flags(table, given, cwd, s);
  from_environment.check_in_use(s.crawl.proxy);
  if (env) {
    // https://no-color.org: set and not empty.
    const auto no_color = env("NO_COLOR");
    s.no_color = no_color && !no_color->empty();
  }
  output_requests(s);  // checked now: two outputs on stdout are a usage error
  // The program stops cleanly on SIGINT and SIGTERM.
  s.crawl.stop_on_signals = true;
  s.plan = make_plan(s.crawl);
  return s;
}

}  // namespace corocrawl::cli
