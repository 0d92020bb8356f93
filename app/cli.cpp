// The command line: CLI11 collects the words, config.hpp's parsers give them meaning.

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
while it checks it. Settings come from the defaults, then the environment
(proxies), then the config file, then the options given here; a list given
here (ROOTs, --exclude, --resolve) replaces the config file's.
)";

constexpr std::string_view footer =
    R"(Config file: TOML with one key per option, named with '_' for '-': roots =
[...], max_tasks, threads, exclude = [...], strict (false for --lenient),
max_time, max_urls, max_depth, trap_rules (false for --no-trap-rules), timeout,
max_redirect, max_tries, max_body (a number or a string such as "10MiB"),
resolve = [...], max_per_host, rate_limit, max_retry_wait, fail_on_rate_limit,
insecure, ca_file, user_agent, user, proxy, no_proxy, json, report and
verbosity ("quiet", "info", "debug" or "trace"). Headers go in a [headers]
table of "Name" = "value" lines; headers for one host only in a
[hosts."HOST".headers] table. Relative paths are taken from the file's
directory; the file may have at most 1 MiB.

Proxies: unless --proxy or the proxy key is given, http:// URLs use
$http_proxy and https:// URLs $https_proxy (or HTTP_PROXY, HTTPS_PROXY), and
unless --no-proxy or no_proxy is given, $no_proxy (or NO_PROXY) lists the hosts
reached directly. --proxy "" ignores the proxy variables. Loopback hosts
(localhost, 127.0.0.0/8, ::1) never use a proxy.

Exit status:
  0    nothing broken
  1    at least one broken URL, --max-time ran out, or --max-urls left URLs
       unchecked
  2    usage or configuration error
  3    the crawl could not run (e.g. a local directory could not be served) or
       go on (out of file descriptors), or
       a report or summary could not be written
  130  interrupted (Ctrl-C or SIGTERM)
)";

/// Every option as typed. Values stay strings here: the config.hpp parsers check them, so a
/// bad value is worded the same way on the command line and in corocrawl.toml.
struct raw_options {
  std::string config, max_tasks, threads, max_time, max_urls, max_depth, timeout, max_redirect,
      max_tries, max_body, max_per_host, rate_limit, max_retry_wait, ca_file, user_agent, user,
      proxy, no_proxy, json, report;
  std::vector<std::string> exclude, resolve, headers, roots;
};

/// The options that decide something when given, to ask CLI11 which ones were.
struct given_options {
  CLI::Option *config, *max_tasks, *threads, *exclude, *lenient, *max_time, *max_urls, *max_depth,
      *no_trap_rules, *timeout, *max_redirect, *max_tries, *max_body, *resolve, *max_per_host,
      *rate_limit, *max_retry_wait, *fail_on_rate_limit, *insecure, *ca_file, *user_agent, *headers,
      *user, *proxy, *no_proxy, *json, *report, *verbose, *quiet, *roots;
};

given_options define_options(CLI::App& app, raw_options& raw) {
  app.description(std::string(description));
  app.footer(std::string(footer));
  // Names in 28 columns, descriptions in the 52 after them: the help fits 80 columns.
  app.get_formatter()->column_width(28);

  // Groups are listed in the order their first option is defined.
  std::string group;
  // A value option given twice keeps the last value, as most tools do; list options add up.
  const auto single = [&](const std::string& name, std::string& into, const std::string& text,
                          const std::string& help) {
    return app.add_option(name, into, help)
        ->option_text(text)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
        ->group(group);
  };
  // Exactly one value per occurrence: "--exclude a ROOT" must not swallow ROOT.
  const auto list = [&](const std::string& name, std::vector<std::string>& into,
                        const std::string& text, const std::string& help) {
    return app.add_option(name, into, help)
        ->option_text(text)
        ->allow_extra_args(false)
        ->group(group);
  };
  // Flags take no value: "--quiet=false" is an error rather than a surprise.
  const auto flag = [&](const std::string& name, const std::string& help) {
    return app.add_flag(name)->description(help)->disable_flag_override()->group(group);
  };

  given_options given{};
  group = "General";
  given.config = single("--config", raw.config, "FILE",
                        "Config file in TOML, see below\n"
                        "(default: ./corocrawl.toml if it exists)");
  app.set_help_flag("-h,--help", "Print this help and exit")->group(group);
  app.set_version_flag("--version", std::string("corocrawl ") + version,
                       "Print the version and exit")
      ->group(group);

  group = "Crawl";
  given.max_tasks = single("--max-tasks", raw.max_tasks, "N",
                           "Worker coroutines = concurrent requests\n(default: 100)");
  given.threads =
      single("--threads", raw.threads, "N", "Threads that parse pages\n(default: one per core)");
  given.exclude = list("--exclude", raw.exclude, "REGEX",
                       "Skip URLs this ECMAScript regex matches anywhere\n"
                       "in: neither fetched nor counted. Repeatable\n(default: none)");
  given.lenient = flag("--lenient",
                       "Follow any host of the roots' domains (same last\n"
                       "two labels), not only the roots' hosts with or\n"
                       "without www. (default: strict)");
  given.max_time = single("--max-time", raw.max_time, "SECONDS",
                          "Stop the whole crawl after this long, may be a\n"
                          "fraction (default: none)");
  given.max_urls = single("--max-urls", raw.max_urls, "N",
                          "Check at most N URLs; the rest are reported as\n"
                          "unchecked and the crawl fails (default: none)");
  given.max_depth = single("--max-depth", raw.max_depth, "N",
                           "Follow links at most N hops from a root, 0 for\n"
                           "the roots only; redirects add no hop\n"
                           "(default: none)");
  given.no_trap_rules = flag("--no-trap-rules",
                             "Fetch URLs whose path repeats a segment more\n"
                             "than 3 times in a row or has more than 64\n"
                             "segments (default: skip them as crawler traps)");

  group = "HTTP";
  given.timeout = single("--timeout", raw.timeout, "SECONDS",
                         "Time limit per request, may be a fraction\n(default: 30)");
  given.max_redirect = single("--max-redirect", raw.max_redirect, "N",
                              "Redirects followed in one chain, 0 for none\n(default: 10)");
  given.max_tries = single("--max-tries", raw.max_tries, "N",
                           "Attempts per URL on network errors, 429 and 503\n(default: 4)");
  given.max_body = single("--max-body", raw.max_body, "BYTES",
                          "Largest decoded body: bytes, or with a unit K, M,\n"
                          "G or KiB, MiB, GiB (powers of 1024) as in 10MiB\n"
                          "(default: 10MiB = 10485760)");
  given.resolve = list("--resolve", raw.resolve, "HOST:PORT:ADDR[,ADDR...]",
                       "Connect to ADDR (IPv4 or [IPv6]) for HOST:PORT,\n"
                       "like curl's --resolve; several ADDRs are tried in\n"
                       "order. Repeatable (default: none)");

  group = "Politeness (per host:port)";
  given.max_per_host = single("--max-per-host", raw.max_per_host, "N",
                              "Concurrent requests to one host:port\n(default: 16)");
  given.rate_limit = single("--rate-limit", raw.rate_limit, "R",
                            "Requests per second to one host:port, may be a\n"
                            "fraction such as 0.5 (default: unlimited)");
  given.max_retry_wait = single("--max-retry-wait", raw.max_retry_wait, "SECONDS",
                                "Longest wait a Retry-After header gets; 0: do\n"
                                "not wait for Retry-After (default: 60)");
  given.fail_on_rate_limit = flag("--fail-on-rate-limit",
                                  "Fail the crawl when URLs still answer 429 (Too\n"
                                  "Many Requests) after every try (default: off)");

  group = "TLS";
  given.insecure = flag("--insecure",
                        "Do not verify certificates or host names\n"
                        "(default: verify)");
  given.ca_file = single("--ca-file", raw.ca_file, "FILE",
                         "PEM file of CA certificates to trust besides the\n"
                         "system's (default: none)");

  group = "Identity";
  given.user_agent = single("--user-agent", raw.user_agent, "STRING",
                            std::string("User-Agent header (default: corocrawl/") + version +
                                "\n(+" + project_url + "))");
  given.headers = list("--header", raw.headers, "\"NAME: VALUE\"",
                       "Header for the roots' origins; replaces a config\n"
                       "file header of that name. Repeatable\n(default: none)");
  given.user = single("--user", raw.user, "USER:PASSWORD",
                      "Basic authentication for the roots' origins\n(default: none)");

  group = "Proxy (see below)";
  given.proxy = single("--proxy", raw.proxy, "URL",
                       "HTTP proxy for http and https URLs, as\n"
                       "http://[USER:PASS@]HOST[:PORT] (https through\n"
                       "CONNECT); \"\" for none (default: $http_proxy and\n"
                       "$https_proxy, see below)");
  given.no_proxy = single("--no-proxy", raw.no_proxy, "LIST",
                          "Hosts reached directly: comma-separated names\n"
                          "(with their subdomains), IP addresses, or *\n"
                          "(default: $no_proxy)");

  group = "Output";
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
  return std::get<url_root>(r).setting;
}

std::string one_line(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return text;
}

/// `text` without the spaces and tabs around it.
std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

/// Header names are case-insensitive (ASCII).
bool same_header_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    return lower(x) == lower(y);
  });
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
  if (given.max_tasks->count() > 0) {
    c.max_tasks = parse_count("--max-tasks", raw.max_tasks, max_tasks_range);
  }
  if (given.threads->count() > 0) c.threads = parse_count("--threads", raw.threads, threads_range);
  // 0 is allowed: it means "follow no redirect at all".
  if (given.max_redirect->count() > 0) {
    c.max_redirect = parse_count("--max-redirect", raw.max_redirect, max_redirect_range);
  }
  if (given.max_tries->count() > 0) {
    c.max_tries = parse_count("--max-tries", raw.max_tries, max_tries_range);
  }
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
  if (given.max_time->count() > 0) {
    c.max_time = parse_seconds("--max-time", raw.max_time, max_time_range);
  }
  if (given.max_urls->count() > 0) c.max_urls = parse_large_count("--max-urls", raw.max_urls);
  // 0 is allowed: the roots only.
  if (given.max_depth->count() > 0) {
    c.max_depth = parse_count("--max-depth", raw.max_depth, max_depth_range);
  }
  if (given.no_trap_rules->count() > 0) c.trap_rules = false;
  if (given.max_body->count() > 0) {
    c.max_body = parse_byte_size("--max-body", raw.max_body, max_body_limit);
  }
  if (given.max_per_host->count() > 0) {
    c.max_per_host = parse_count("--max-per-host", raw.max_per_host, max_per_host_range);
  }
  if (given.rate_limit->count() > 0) c.rate_limit = parse_rate("--rate-limit", raw.rate_limit);
  if (given.max_retry_wait->count() > 0) {
    c.max_retry_wait = parse_seconds("--max-retry-wait", raw.max_retry_wait, retry_wait_range);
  }
  if (given.fail_on_rate_limit->count() > 0) c.fail_on_rate_limit = true;
  if (given.insecure->count() > 0) c.insecure = true;
  if (given.ca_file->count() > 0) c.ca_file = parse_ca_file("--ca-file", raw.ca_file, cwd);
  if (given.user_agent->count() > 0) {
    c.user_agent = parse_user_agent("--user-agent", raw.user_agent);
  }
  if (given.headers->count() > 0) {
    std::vector<http_header> headers;
    for (const std::string& text : raw.headers)
      headers.push_back(parse_header("--header", text));
    std::erase_if(c.headers, [&](const http_header& from_file) {
      return std::any_of(headers.begin(), headers.end(), [&](const http_header& given_header) {
        return same_header_name(from_file.name, given_header.name);
      });
    });
    c.headers.insert(c.headers.end(), headers.begin(), headers.end());
  }
  if (given.user->count() > 0) c.user = parse_user("--user", raw.user);
  if (given.proxy->count() > 0) {
    // "" is a proxy setting too: none, whatever the environment says.
    c.proxy.http_proxy = c.proxy.https_proxy = parse_proxy_url("--proxy", raw.proxy);
  }
  if (given.no_proxy->count() > 0) c.proxy.no_proxy = trimmed(raw.no_proxy);
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
    if (no_proxy) proxy.no_proxy = trimmed(no_proxy->value);
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
  raw_options raw;
  const given_options given = define_options(app, raw);

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
  const proxy_environment from_environment(env);
  from_environment.apply(s.crawl.proxy);
  apply_config(raw, given, cwd, s);
  apply_flags(raw, given, cwd, s);
  from_environment.check_in_use(s.crawl.proxy);
  validate(s);
  return s;
}

}  // namespace corocrawl::cli
