// The command line: CLI11 collects the words, config.hpp's parsers give them meaning.

#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "corocrawl/errors.hpp"
#include "corocrawl/root.hpp"
#include "corocrawl/scope.hpp"
#include "corocrawl/version.hpp"

namespace corocrawl::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view description =
    R"(corocrawl crawls a website and checks its links. Starting from each ROOT it
fetches every page of the site once, many requests at a time, follows the links
that stay on the site's hosts, and reports every URL that is broken (an HTTP
error status, a network error on every try, or a redirect chain that is too
long) together with the pages that link to it.

A ROOT is an http:// or https:// URL; a bare host with an optional port and
path, such as example.com/docs or localhost:8080 (http:// is assumed); or a
local directory of built HTML, which corocrawl serves itself on 127.0.0.1
while it checks it. Settings come from the defaults, then the config file,
then the options given here; a list given here (ROOTs, --exclude, --resolve)
replaces the config file's.
)";

constexpr std::string_view footer =
    R"(Config file: TOML with the keys roots = [...], max_tasks, max_redirect,
max_tries, exclude = [...], strict (false for --lenient), resolve = [...],
timeout, json, report and verbosity ("quiet", "info", "debug" or "trace").
Relative paths in it are taken from the file's directory.

Exit status:
  0    nothing broken
  1    at least one broken URL
  2    usage or configuration error
  3    the crawl could not run (e.g. a local directory could not be served)
  130  interrupted (Ctrl-C or SIGTERM)
)";

/// Every option as typed. Values stay strings here: the config.hpp parsers check them, so a
/// bad value is worded the same way on the command line and in corocrawl.toml.
struct raw_options {
  std::string config, max_tasks, max_redirect, max_tries, timeout, json, report;
  std::vector<std::string> exclude, resolve, roots;
};

/// The options that decide something when given, to ask CLI11 which ones were.
struct given_options {
  CLI::Option *config, *max_tasks, *max_redirect, *max_tries, *exclude, *lenient, *resolve,
      *timeout, *json, *report, *verbose, *quiet, *roots;
};

given_options define_options(CLI::App& app, raw_options& raw) {
  app.description(std::string(description));
  app.footer(std::string(footer));
  app.get_formatter()->column_width(28);
  app.set_help_flag("-h,--help", "Print this help and exit");
  app.set_version_flag("--version", std::string("corocrawl ") + version,
                       "Print the version and exit");

  // A value option given twice keeps the last value, as most tools do; list options add up.
  const auto single = [&](const std::string& name, std::string& into, const std::string& text,
                          const std::string& help) {
    return app.add_option(name, into, help)
        ->option_text(text)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  };
  // Exactly one value per occurrence: "--exclude a ROOT" must not swallow ROOT.
  const auto list = [&](const std::string& name, std::vector<std::string>& into,
                        const std::string& text, const std::string& help) {
    return app.add_option(name, into, help)->option_text(text)->allow_extra_args(false);
  };
  // Flags take no value: "--quiet=false" is an error rather than a surprise.
  const auto flag = [&](const std::string& name, const std::string& help) {
    return app.add_flag(name)->description(help)->disable_flag_override();
  };

  given_options given{};
  given.config = single("--config", raw.config, "FILE",
                        "Config file in TOML, see below\n"
                        "(default: ./corocrawl.toml if it exists)");
  given.max_tasks = single("--max-tasks", raw.max_tasks, "N",
                           "Worker coroutines = concurrent requests\n(default: 100)");
  given.max_redirect = single("--max-redirect", raw.max_redirect, "N",
                              "Redirects followed in one chain, 0 for none\n(default: 10)");
  given.max_tries =
      single("--max-tries", raw.max_tries, "N", "Attempts per URL on network errors (default: 4)");
  given.exclude = list("--exclude", raw.exclude, "REGEX",
                       "Skip URLs this ECMAScript regex matches anywhere\n"
                       "in: neither fetched nor counted. Repeatable\n(default: none)");
  given.lenient = flag("--lenient",
                       "Follow any host of the roots' domains (same last\n"
                       "two labels), not only the roots' hosts with or\n"
                       "without www. (default: strict)");
  given.resolve = list("--resolve", raw.resolve, "HOST:PORT:ADDR",
                       "Connect to ADDR (IPv4 or [IPv6]) for HOST:PORT,\n"
                       "like curl's --resolve. Repeatable (default: none)");
  given.timeout = single("--timeout", raw.timeout, "SECONDS",
                         "Time limit per request, may be a fraction\n(default: 30)");
  given.json = single("--json", raw.json, "FILE",
                      "Write the JSON summary to FILE, - for stdout\n(default: none)");
  given.report =
      single("--report", raw.report, "text|none", "Human report on stdout (default: text)");
  given.verbose = flag("-v,--verbose", "More log: -v debug, -vv trace (default: info)");
  given.quiet = flag("-q,--quiet", "Log only errors, report only broken URLs");
  given.roots =
      app.add_option("ROOT", raw.roots, "URL, bare host or local directory")->option_text("...");
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

/// A root as stored in settings: directories absolute, URLs normalised (see config.cpp).
std::string root_text(std::string_view text, const fs::path& cwd) {
  const root r = classify_root(text, cwd);
  if (const auto* dir = std::get_if<directory_root>(&r)) return dir->path.string();
  return std::get<url_root>(r).url;
}

std::string one_line(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
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

void apply_config(const raw_options& raw, const given_options& given, const fs::path& cwd,
                  settings& s) {
  if (given.config->count() > 0) {
    if (raw.config.empty()) throw config_error("--config: expected a file name, got \"\"");
    const fs::path file = in_cwd(raw.config, cwd);
    std::error_code ec;
    if (!fs::exists(file, ec)) {
      throw config_error("--config: no such file \"" + one_line(raw.config) + "\"");
    }
    apply_config_file(file, s);
    return;
  }
  // The implicit config file is optional: no file, no error.
  const fs::path implicit = in_cwd("corocrawl.toml", cwd);
  std::error_code ec;
  if (fs::exists(implicit, ec)) apply_config_file(implicit, s);
}

void apply_flags(const raw_options& raw, const given_options& given, const fs::path& cwd,
                 settings& s) {
  crawl_options& c = s.crawl;
  if (given.max_tasks->count() > 0) c.max_tasks = parse_count("--max-tasks", raw.max_tasks, 1);
  // 0 is allowed: it means "follow no redirect at all".
  if (given.max_redirect->count() > 0) {
    c.max_redirect = parse_count("--max-redirect", raw.max_redirect, 0);
  }
  if (given.max_tries->count() > 0) c.max_tries = parse_count("--max-tries", raw.max_tries, 1);
  if (given.exclude->count() > 0) {
    compile_patterns(raw.exclude, "--exclude");
    c.exclude = raw.exclude;
  }
  if (given.lenient->count() > 0) c.strict = false;
  if (given.resolve->count() > 0) {
    c.resolve.clear();
    for (const std::string& text : raw.resolve)
      c.resolve.push_back(parse_resolve("--resolve", text));
  }
  if (given.timeout->count() > 0) c.timeout = parse_seconds("--timeout", raw.timeout);
  if (given.json->count() > 0) {
    if (raw.json.empty()) throw config_error("--json: expected a file name or \"-\", got \"\"");
    s.json_path = raw.json == "-" ? raw.json : in_cwd(raw.json, cwd).string();
  }
  if (given.report->count() > 0) s.report = parse_report_mode("--report", raw.report);
  if (given.quiet->count() > 0) s.verbosity = verbosity::quiet;
  if (given.verbose->count() == 1) s.verbosity = verbosity::debug;
  if (given.verbose->count() >= 2) s.verbosity = verbosity::trace;
  if (given.roots->count() > 0) {
    c.roots.clear();
    for (const std::string& text : raw.roots)
      c.roots.push_back(root_text(text, cwd));
  }
}

}  // namespace

parse_result parse_command_line(const std::vector<std::string>& args,
                                const std::filesystem::path& cwd) {
  CLI::App app{"", "corocrawl"};
  raw_options raw;
  const given_options given = define_options(app, raw);

  // CLI11 wants the words in reverse order; it never prints or exits by itself unless asked
  // to through app.exit(), which is not used.
  std::vector<std::string> words(args.rbegin(), args.rend());
  try {
    app.parse(words);
  } catch (const CLI::CallForHelp&) {
    return early_exit{0, app.help()};
  } catch (const CLI::CallForVersion& e) {
    return early_exit{0, std::string(e.what()) + "\n"};
  } catch (const CLI::ArgumentMismatch& e) {
    throw config_error(one_line(mismatch_message(e.what())));
  } catch (const CLI::ExtrasError& e) {
    throw config_error(one_line(extras_message(app.remaining(false), e.what())));
  } catch (const CLI::ParseError& e) {
    throw config_error(one_line(e.what()));
  }

  if (given.quiet->count() > 0 && given.verbose->count() > 0) {
    throw config_error("-q/--quiet and -v/--verbose cannot be used together");
  }
  settings s;
  apply_config(raw, given, cwd, s);
  apply_flags(raw, given, cwd, s);
  validate(s);
  return s;
}

}  // namespace corocrawl::cli
