// parse_command_line: flags, the config file underneath them, early exits and usage errors.

#include "cli.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "corocrawl/errors.hpp"
#include "corocrawl/version.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
using cli::report_mode;
using cli::settings;
using cli::verbosity;
using std::chrono::milliseconds;

/// Each test runs with a fresh, empty directory as the `cwd` given to the parser.
class CliTest : public ::testing::Test {
 protected:
  fs::path write(std::string_view content, const fs::path& name = "corocrawl.toml") {
    return temp_.write(name, content);
  }

  cli::parse_result run(const std::vector<std::string>& args) {
    return cli::parse_command_line(args, cwd_, [this](const std::string& name) {
      const auto it = env_.find(name);
      return it == env_.end() ? std::nullopt : std::optional<std::string>(it->second);
    });
  }

  settings parse(const std::vector<std::string>& args) {
    auto result = run(args);
    if (auto* s = std::get_if<settings>(&result)) return *s;
    ADD_FAILURE() << "early exit: " << std::get<cli::early_exit>(result).text;
    return {};
  }

  cli::early_exit early(const std::vector<std::string>& args) {
    auto result = run(args);
    if (auto* e = std::get_if<cli::early_exit>(&result)) return *e;
    ADD_FAILURE() << "no early exit";
    return {};
  }

  /// The config_error message for `args`; checks it is one line containing every part.
  std::string error_of(const std::vector<std::string>& args,
                       std::initializer_list<std::string_view> parts) {
    try {
      run(args);
    } catch (const config_error& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      for (std::string_view part : parts) {
        EXPECT_NE(message.find(part), std::string::npos)
            << "\"" << part << "\" not in: " << message;
      }
      return message;
    }
    ADD_FAILURE() << "no config_error thrown";
    return {};
  }

  testing::temp_dir temp_;
  const fs::path cwd_ = temp_.path();
  /// The environment the parser sees: nothing unless a test sets it.
  std::map<std::string, std::string> env_;
};

TEST_F(CliTest, Defaults) {
  const settings s = parse({"http://example.com"});
  EXPECT_EQ(s.crawl.roots, std::vector<std::string>{"http://example.com/"});
  EXPECT_EQ(s.crawl.max_tasks, 100);
  EXPECT_EQ(s.crawl.threads, std::nullopt);  // one per core but one
  EXPECT_EQ(s.crawl.max_redirect, 10);
  EXPECT_EQ(s.crawl.max_tries, 4);
  EXPECT_TRUE(s.crawl.exclude.empty());
  EXPECT_TRUE(s.crawl.strict);
  EXPECT_TRUE(s.crawl.resolve.empty());
  EXPECT_EQ(s.crawl.timeout, milliseconds(30'000));
  EXPECT_FALSE(s.json_path);
  EXPECT_EQ(s.report, report_mode::text);
  EXPECT_EQ(s.verbosity, verbosity::info);
}

TEST_F(CliTest, EveryOption) {
  const settings s = parse({"--max-tasks",
                            "8",
                            "--threads",
                            "3",
                            "--max-redirect=0",
                            "--max-tries",
                            "2",
                            "--exclude",
                            "\\.pdf$",
                            "--exclude",
                            "/private/",
                            "--lenient",
                            "--resolve",
                            "Example.com:443:127.0.0.1",
                            "--resolve",
                            "example.com:80:[::1]",
                            "--timeout",
                            "1.5",
                            "--json",
                            "-",
                            "--report",
                            "none",
                            "-v",
                            "https://example.com/",
                            "example.org"});
  EXPECT_EQ(s.crawl.roots,
            (std::vector<std::string>{"https://example.com/", "http://example.org/"}));
  EXPECT_EQ(s.crawl.max_tasks, 8);
  EXPECT_EQ(s.crawl.threads, 3);
  EXPECT_EQ(s.crawl.max_redirect, 0);
  EXPECT_EQ(s.crawl.max_tries, 2);
  EXPECT_EQ(s.crawl.exclude, (std::vector<std::string>{"\\.pdf$", "/private/"}));
  EXPECT_FALSE(s.crawl.strict);
  EXPECT_EQ(s.crawl.resolve, (std::vector<resolve_override>{{"example.com", 443, {"127.0.0.1"}},
                                                            {"example.com", 80, {"::1"}}}));
  EXPECT_EQ(s.crawl.timeout, milliseconds(1'500));
  EXPECT_EQ(s.json_path, "-");
  EXPECT_EQ(s.report, report_mode::none);
  EXPECT_EQ(s.verbosity, verbosity::debug);
}

TEST_F(CliTest, VerbosityFlags) {
  EXPECT_EQ(parse({"-v", "x.example"}).verbosity, verbosity::debug);
  EXPECT_EQ(parse({"--verbose", "x.example"}).verbosity, verbosity::debug);
  EXPECT_EQ(parse({"-vv", "x.example"}).verbosity, verbosity::trace);
  EXPECT_EQ(parse({"-v", "x.example", "-v"}).verbosity, verbosity::trace);
  EXPECT_EQ(parse({"-q", "x.example"}).verbosity, verbosity::quiet);
  EXPECT_EQ(parse({"--quiet", "x.example"}).verbosity, verbosity::quiet);
}

TEST_F(CliTest, QuietAndVerboseTogetherIsAnError) {
  error_of({"-q", "-v", "x.example"}, {"-q", "-v", "together"});
  error_of({"-qv", "x.example"}, {"-q", "-v"});
}

TEST_F(CliTest, FlagsTakeNoValue) {
  error_of({"--quiet=false", "x.example"}, {"quiet"});
  error_of({"--lenient=0", "x.example"}, {"lenient"});
}

TEST_F(CliTest, ListOptionTakesOneValuePerOccurrence) {
  const settings s =
      parse({"--exclude", "a", "http://example.com/", "--resolve", "h:1:1.2.3.4", "example.org"});
  EXPECT_EQ(s.crawl.exclude, std::vector<std::string>{"a"});
  EXPECT_EQ(s.crawl.roots,
            (std::vector<std::string>{"http://example.com/", "http://example.org/"}));
}

TEST_F(CliTest, RepeatedValueOptionKeepsTheLast) {
  EXPECT_EQ(parse({"--max-tasks", "3", "--max-tasks", "5", "x.example"}).crawl.max_tasks, 5);
  EXPECT_EQ(parse({"--threads", "3", "--threads", "1", "x.example"}).crawl.threads, 1);
}

TEST_F(CliTest, RelativeDirectoryRootIsTakenFromCwd) {
  fs::create_directories(cwd_ / "site");
  const settings s = parse({"site", "./site/"});
  EXPECT_EQ(s.crawl.roots,
            (std::vector<std::string>{(cwd_ / "site").string(), (cwd_ / "site").string()}));
}

TEST_F(CliTest, ImplicitConfigFileFromCwd) {
  write("max_tasks = 7\nroots = [\"example.com\"]\n");
  const settings s = parse({});
  EXPECT_EQ(s.crawl.max_tasks, 7);
  EXPECT_EQ(s.crawl.roots, std::vector<std::string>{"http://example.com/"});
}

TEST_F(CliTest, ExplicitConfigFile) {
  const fs::path file = write("max_tries = 9\nroots = [\"site\"]\n", "conf/crawl.toml");
  fs::create_directories(cwd_ / "conf" / "site");
  write("max_tries = 1\n");  // the implicit file is not read when --config is given
  const settings s = parse({"--config", file.string()});
  EXPECT_EQ(s.crawl.max_tries, 9);
  EXPECT_EQ(s.crawl.roots, std::vector<std::string>{(cwd_ / "conf" / "site").string()});
}

TEST_F(CliTest, RelativeConfigPathIsTakenFromCwd) {
  write("max_tries = 3\n", "conf/crawl.toml");
  EXPECT_EQ(parse({"--config", "conf/crawl.toml", "x.example"}).crawl.max_tries, 3);
}

TEST_F(CliTest, MissingExplicitConfigIsAnError) {
  error_of({"--config", "nope.toml", "x.example"}, {"--config", "nope.toml"});
}

TEST_F(CliTest, MissingImplicitConfigIsFine) {
  EXPECT_EQ(parse({"x.example"}).crawl.max_tasks, 100);
}

TEST_F(CliTest, FlagsOverrideTheFile) {
  write(R"(
max_tasks = 7
threads = 2
max_redirect = 3
max_tries = 2
strict = true
timeout = 5
json = "out.json"
report = "none"
verbosity = "trace"
roots = ["example.com"]
)");
  const settings from_file = parse({});
  EXPECT_EQ(from_file.crawl.max_tasks, 7);
  EXPECT_EQ(from_file.crawl.threads, 2);
  EXPECT_EQ(from_file.verbosity, verbosity::trace);
  EXPECT_EQ(from_file.json_path, (cwd_ / "out.json").string());

  const settings s =
      parse({"--max-tasks", "9", "--threads", "5", "--max-redirect", "4", "--max-tries", "5",
             "--lenient", "--timeout", "6", "--json", "-", "--report", "text", "-q"});
  EXPECT_EQ(s.crawl.max_tasks, 9);
  EXPECT_EQ(s.crawl.threads, 5);
  EXPECT_EQ(s.crawl.max_redirect, 4);
  EXPECT_EQ(s.crawl.max_tries, 5);
  EXPECT_FALSE(s.crawl.strict);
  EXPECT_EQ(s.crawl.timeout, milliseconds(6'000));
  EXPECT_EQ(s.json_path, "-");
  EXPECT_EQ(s.report, report_mode::text);
  EXPECT_EQ(s.verbosity, verbosity::quiet);
  EXPECT_EQ(s.crawl.roots, std::vector<std::string>{"http://example.com/"});
}

TEST_F(CliTest, FlagsNotGivenKeepTheFilesValues) {
  write("max_tasks = 7\nthreads = 2\nexclude = [\"x\"]\nresolve = [\"h:1:1.2.3.4\"]\n");
  const settings s = parse({"--max-tries", "3", "example.com"});
  EXPECT_EQ(s.crawl.max_tasks, 7);
  EXPECT_EQ(s.crawl.threads, 2);
  EXPECT_EQ(s.crawl.max_tries, 3);
  EXPECT_EQ(s.crawl.exclude, std::vector<std::string>{"x"});
  EXPECT_EQ(s.crawl.resolve, (std::vector<resolve_override>{{"h", 1, {"1.2.3.4"}}}));
}

TEST_F(CliTest, CommandLineListsReplaceTheFilesLists) {
  write(R"(
roots = ["example.com"]
exclude = ["from-file"]
resolve = ["file.example:80:10.0.0.1"]
)");
  const settings s =
      parse({"--exclude", "from-cli", "--resolve", "cli.example:81:10.0.0.2", "example.org"});
  EXPECT_EQ(s.crawl.roots, std::vector<std::string>{"http://example.org/"});
  EXPECT_EQ(s.crawl.exclude, std::vector<std::string>{"from-cli"});
  EXPECT_EQ(s.crawl.resolve, (std::vector<resolve_override>{{"cli.example", 81, {"10.0.0.2"}}}));
}

TEST_F(CliTest, RelativeJsonIsTakenFromCwd) {
  EXPECT_EQ(parse({"--json", "out/summary.json", "x.example"}).json_path,
            (cwd_ / "out" / "summary.json").string());
}

TEST_F(CliTest, ConfigFileErrorsNameTheFileAndLine) {
  write("max_tasks = 1\nmax_tries = \"many\"\n");
  error_of({"x.example"}, {"corocrawl.toml:2: max_tries: expected an integer, got a string"});
  write("max_task = 3\n");
  error_of({"x.example"}, {"corocrawl.toml", "unknown key \"max_task\"", "max_tasks"});
  write("max_tasks =\n");
  error_of({"x.example"}, {"corocrawl.toml:1:", "TOML syntax error"});
  write("threads = 0\n");
  error_of({"x.example"}, {"corocrawl.toml:1: threads: expected a positive integer, got 0"});
  write("thread = 2\n");
  error_of({"x.example"}, {"corocrawl.toml:1: unknown key \"thread\" (did you mean \"threads\"?)"});
}

TEST_F(CliTest, UnknownOption) {
  EXPECT_EQ(error_of({"--nope", "x.example"}, {}), "unknown option \"--nope\"");
  EXPECT_EQ(error_of({"x.example", "--nope=3"}, {}), "unknown option \"--nope\"");
  error_of({"-x", "x.example"}, {"unknown option \"-x\""});
}

TEST_F(CliTest, MissingValue) {
  error_of({"x.example", "--max-tasks"}, {"--max-tasks"});
  EXPECT_EQ(error_of({"x.example", "--threads"}, {}), "--threads: missing value");
  error_of({"x.example", "--exclude"}, {"--exclude"});
  error_of({"x.example", "--config"}, {"--config"});
}

TEST_F(CliTest, BadCounts) {
  for (const char* bad : {"abc", "0", "-1", "8x", "+8", " 8", "1.5", "99999999999"}) {
    SCOPED_TRACE(bad);
    error_of({"--max-tasks", bad, "x.example"}, {"--max-tasks"});
    error_of({"--max-tries", bad, "x.example"}, {"--max-tries"});
    EXPECT_TRUE(error_of({"--threads", bad, "x.example"}, {}).starts_with("--threads: "));
  }
  EXPECT_EQ(error_of({"--max-tasks", "abc", "x.example"}, {}),
            "--max-tasks: expected a positive integer, got \"abc\"");
  EXPECT_EQ(error_of({"--threads", "0", "x.example"}, {}),
            "--threads: expected a positive integer, got \"0\"");
  EXPECT_EQ(error_of({"--threads", "-1", "x.example"}, {}),
            "--threads: expected a positive integer, got \"-1\"");
  EXPECT_EQ(error_of({"--threads", "abc", "x.example"}, {}),
            "--threads: expected a positive integer, got \"abc\"");
  EXPECT_EQ(error_of({"--threads", "99999999999", "x.example"}, {}),
            "--threads: \"99999999999\" is too large (at most 1024)");
  EXPECT_EQ(parse({"--threads", "1", "x.example"}).crawl.threads, 1);
  error_of({"--max-redirect", "-1", "x.example"}, {"--max-redirect"});
  EXPECT_EQ(parse({"--max-redirect", "0", "x.example"}).crawl.max_redirect, 0);
}

TEST_F(CliTest, BadOtherValues) {
  for (const char* bad : {"0", "-1", "abc", ""}) {
    SCOPED_TRACE(bad);
    error_of({"--timeout", bad, "x.example"}, {"--timeout"});
  }
  error_of({"--report", "html", "x.example"}, {"--report", "\"html\""});
  error_of({"--json", "", "x.example"}, {"--json"});
  error_of({"--config", "", "x.example"}, {"--config"});
  error_of({"--exclude", "(", "x.example"}, {"--exclude", "\"(\""});
}

TEST_F(CliTest, BadResolve) {
  EXPECT_EQ(error_of({"--resolve", "foo", "x.example"}, {}),
            "--resolve: expected HOST:PORT:ADDR[,ADDR...], got \"foo\"");
  error_of({"--resolve", "h:0:1.2.3.4", "x.example"}, {"--resolve", "port"});
  error_of({"--resolve", "h:80:1.2.3", "x.example"}, {"--resolve", "1.2.3"});
  error_of({"--resolve", "h:80:[::1", "x.example"}, {"--resolve"});
}

TEST_F(CliTest, BadRoots) {
  error_of({"ftp://example.com"}, {"root \"ftp://example.com\"", "unsupported scheme \"ftp\""});
  error_of({"./missing"}, {"root \"./missing\": no such directory"});
  write("x", "page.html");
  error_of({"page.html"}, {"root \"page.html\" is a file"});
  error_of({"http://"}, {"root \"http://\": URL has no host"});
}

TEST_F(CliTest, NoRoot) {
  EXPECT_EQ(error_of({}, {}),
            "no root to crawl: give a URL or a directory, or roots = [...] in corocrawl.toml");
  error_of({"-v"}, {"no root to crawl"});
}

// ---- limits, politeness, TLS, identity, proxies ----------------------------------------------

TEST_F(CliTest, NewOptionsDefaults) {
  const settings s = parse({"x.example"});
  EXPECT_EQ(s.crawl.max_body, 10u * 1024 * 1024);
  EXPECT_FALSE(s.crawl.max_time);
  EXPECT_EQ(s.crawl.max_per_host, 16);
  EXPECT_EQ(s.crawl.rate_limit, 0.0);
  EXPECT_EQ(s.crawl.max_retry_wait, milliseconds(60'000));
  EXPECT_FALSE(s.crawl.fail_on_rate_limit);
  EXPECT_FALSE(s.crawl.insecure);
  EXPECT_EQ(s.crawl.ca_file, "");
  EXPECT_EQ(s.crawl.user_agent, "");
  EXPECT_TRUE(s.crawl.headers.empty());
  EXPECT_TRUE(s.crawl.host_headers.empty());
  EXPECT_FALSE(s.crawl.user);
  EXPECT_EQ(s.crawl.proxy, proxy_options{});
}

TEST_F(CliTest, EveryNewOption) {
  write("-----BEGIN CERTIFICATE-----\n", "certs/ca.pem");
  const settings s = parse({"--max-body",
                            "10MiB",
                            "--max-time",
                            "1.5",
                            "--max-per-host",
                            "4",
                            "--rate-limit",
                            "0.5",
                            "--max-retry-wait",
                            "0",
                            "--fail-on-rate-limit",
                            "--insecure",
                            "--ca-file",
                            "certs/ca.pem",
                            "--user-agent",
                            "MyBot/1.0",
                            "--header",
                            "Accept-Language: en",
                            "--header=X-Token:abc",
                            "--user",
                            "me:secret",
                            "--proxy",
                            "http://proxy.example:3128",
                            "--no-proxy",
                            " internal.example,.corp ",
                            "--resolve",
                            "h.example:443:10.0.0.1,[::1],10.0.0.2",
                            "x.example"});
  EXPECT_EQ(s.crawl.max_body, 10u * 1024 * 1024);
  EXPECT_EQ(s.crawl.max_time, milliseconds(1'500));
  EXPECT_EQ(s.crawl.max_per_host, 4);
  EXPECT_EQ(s.crawl.rate_limit, 0.5);
  EXPECT_EQ(s.crawl.max_retry_wait, milliseconds(0));
  EXPECT_TRUE(s.crawl.fail_on_rate_limit);
  EXPECT_TRUE(s.crawl.insecure);
  EXPECT_EQ(s.crawl.ca_file, (cwd_ / "certs" / "ca.pem").string());
  EXPECT_EQ(s.crawl.user_agent, "MyBot/1.0");
  EXPECT_EQ(s.crawl.headers,
            (std::vector<http_header>{{"Accept-Language", "en"}, {"X-Token", "abc"}}));
  EXPECT_EQ(s.crawl.user, "me:secret");
  EXPECT_EQ(s.crawl.proxy, (proxy_options{"http://proxy.example:3128", "http://proxy.example:3128",
                                          "internal.example,.corp"}));
  EXPECT_EQ(s.crawl.resolve,
            (std::vector<resolve_override>{{"h.example", 443, {"10.0.0.1", "::1", "10.0.0.2"}}}));
  EXPECT_EQ(s.crawl.roots, std::vector<std::string>{"http://x.example/"});
}

TEST_F(CliTest, MaxBodyUnits) {
  EXPECT_EQ(parse({"--max-body", "1", "x.example"}).crawl.max_body, 1u);
  EXPECT_EQ(parse({"--max-body", "512K", "x.example"}).crawl.max_body, 512u * 1024);
  EXPECT_EQ(parse({"--max-body", "512KiB", "x.example"}).crawl.max_body, 512u * 1024);
  EXPECT_EQ(parse({"--max-body", "3M", "x.example"}).crawl.max_body, 3u << 20);
  EXPECT_EQ(parse({"--max-body", "1G", "x.example"}).crawl.max_body, 1u << 30);
  EXPECT_EQ(parse({"--max-body", "1GiB", "x.example"}).crawl.max_body, 1u << 30);
}

TEST_F(CliTest, RepeatedHeadersAddUp) {
  const settings s =
      parse({"--header", "A: 1", "--header", "B: 2", "--header", "a: 3", "x.example"});
  EXPECT_EQ(s.crawl.headers, (std::vector<http_header>{{"A", "1"}, {"B", "2"}, {"a", "3"}}));
}

TEST_F(CliTest, HeaderTakesOneValuePerOccurrence) {
  const settings s = parse({"--header", "A: 1", "x.example", "y.example"});
  EXPECT_EQ(s.crawl.headers, (std::vector<http_header>{{"A", "1"}}));
  EXPECT_EQ(s.crawl.roots, (std::vector<std::string>{"http://x.example/", "http://y.example/"}));
}

TEST_F(CliTest, HeadersReplaceTheFilesHeadersOfTheSameName) {
  write(R"(
roots = ["example.com"]
[headers]
Accept-Language = "en"
X-File = "1"
[hosts."docs.example.com".headers]
X-Docs = "d"
)");
  EXPECT_EQ(parse({}).crawl.headers,
            (std::vector<http_header>{{"Accept-Language", "en"}, {"X-File", "1"}}));
  const settings s = parse({"--header", "accept-language: de", "--header", "X-Cli: 2"});
  EXPECT_EQ(s.crawl.headers,
            (std::vector<http_header>{{"X-File", "1"}, {"accept-language", "de"}, {"X-Cli", "2"}}));
  EXPECT_EQ(
      s.crawl.host_headers,
      (std::map<std::string, std::vector<http_header>>{{"docs.example.com", {{"X-Docs", "d"}}}}));
}

TEST_F(CliTest, NewFlagsOverrideTheFile) {
  write("x", "file-ca.pem");
  write("x", "cli-ca.pem");
  write(R"(
roots = ["example.com"]
max_body = 100
max_time = 10
max_per_host = 2
rate_limit = 3
max_retry_wait = 5
ca_file = "file-ca.pem"
user_agent = "FileBot"
user = "file:1"
proxy = "http://file-proxy.example:1"
no_proxy = "file.example"
)");
  const settings from_file = parse({});
  EXPECT_EQ(from_file.crawl.max_body, 100u);
  EXPECT_EQ(from_file.crawl.max_time, milliseconds(10'000));
  EXPECT_EQ(from_file.crawl.max_per_host, 2);
  EXPECT_EQ(from_file.crawl.rate_limit, 3.0);
  EXPECT_EQ(from_file.crawl.max_retry_wait, milliseconds(5'000));
  EXPECT_EQ(from_file.crawl.ca_file, (cwd_ / "file-ca.pem").string());
  EXPECT_EQ(from_file.crawl.user_agent, "FileBot");
  EXPECT_EQ(from_file.crawl.user, "file:1");
  EXPECT_EQ(from_file.crawl.proxy.https_proxy, "http://file-proxy.example:1");
  EXPECT_EQ(from_file.crawl.proxy.no_proxy, "file.example");

  const settings s = parse({"--max-body",       "200",
                            "--max-time",       "20",
                            "--max-per-host",   "3",
                            "--rate-limit",     "4",
                            "--max-retry-wait", "6",
                            "--ca-file",        "cli-ca.pem",
                            "--user-agent",     "CliBot",
                            "--user",           "cli:2",
                            "--proxy",          "http://cli-proxy.example:2",
                            "--no-proxy",       "cli.example"});
  EXPECT_EQ(s.crawl.max_body, 200u);
  EXPECT_EQ(s.crawl.max_time, milliseconds(20'000));
  EXPECT_EQ(s.crawl.max_per_host, 3);
  EXPECT_EQ(s.crawl.rate_limit, 4.0);
  EXPECT_EQ(s.crawl.max_retry_wait, milliseconds(6'000));
  EXPECT_EQ(s.crawl.ca_file, (cwd_ / "cli-ca.pem").string());
  EXPECT_EQ(s.crawl.user_agent, "CliBot");
  EXPECT_EQ(s.crawl.user, "cli:2");
  EXPECT_EQ(s.crawl.proxy, (proxy_options{"http://cli-proxy.example:2",
                                          "http://cli-proxy.example:2", "cli.example"}));
}

TEST_F(CliTest, BooleanFlagsFromTheFileOrTheCommandLine) {
  write("roots = [\"example.com\"]\ninsecure = true\nfail_on_rate_limit = true\n");
  const settings from_file = parse({});
  EXPECT_TRUE(from_file.crawl.insecure);
  EXPECT_TRUE(from_file.crawl.fail_on_rate_limit);
  write("roots = [\"example.com\"]\n");
  EXPECT_FALSE(parse({}).crawl.insecure);
  EXPECT_TRUE(parse({"--insecure"}).crawl.insecure);
  EXPECT_TRUE(parse({"--fail-on-rate-limit"}).crawl.fail_on_rate_limit);
}

TEST_F(CliTest, CaFileIsTakenFromCwdNotTheConfigDir) {
  write("x", "ca.pem");
  write("x", "conf/ca.pem");
  const fs::path config = write("roots = [\"example.com\"]\n", "conf/crawl.toml");
  EXPECT_EQ(parse({"--config", config.string(), "--ca-file", "ca.pem"}).crawl.ca_file,
            (cwd_ / "ca.pem").string());
  write("roots = [\"example.com\"]\nca_file = \"ca.pem\"\n", "conf/crawl.toml");
  EXPECT_EQ(parse({"--config", config.string()}).crawl.ca_file,
            (cwd_ / "conf" / "ca.pem").string());
}

TEST_F(CliTest, BadNewValues) {
  struct bad_value {
    const char* option;
    const char* value;
    const char* part;
  };
  for (const bad_value& bad : std::initializer_list<bad_value>{
           {"--max-body", "0", "expected a size in bytes >= 1"},
           {"--max-body", "10MB", "expected a size in bytes >= 1"},
           {"--max-body", "-1", "expected a size in bytes >= 1"},
           {"--max-body", "1.5M", "expected a size in bytes >= 1"},
           {"--max-body", "99999999999999999999", "too large"},
           {"--max-time", "0", "expected a positive number of seconds"},
           {"--max-time", "-1", "expected a positive number of seconds"},
           {"--max-time", "abc", "expected a positive number of seconds"},
           {"--max-time", "9999999", "at most 2592000"},
           {"--max-per-host", "0", "expected a positive integer"},
           {"--max-per-host", "1.5", "expected a positive integer"},
           {"--rate-limit", "0", "expected a positive number of requests per second"},
           {"--rate-limit", "-2", "expected a positive number of requests per second"},
           {"--rate-limit", "fast", "expected a positive number of requests per second"},
           {"--rate-limit", "0.00001", "at least 0.001"},
           {"--max-retry-wait", "-1", "expected a non-negative number of seconds"},
           {"--max-retry-wait", "x", "expected a non-negative number of seconds"},
           {"--ca-file", "missing.pem", "no such file \"missing.pem\""},
           {"--ca-file", "", "expected a file name"},
           {"--ca-file", ".", "is a directory"},
           {"--user-agent", "", "expected a non-empty string"},
           {"--user-agent", "a\nb", "control character"},
           {"--header", "NoColon", "no ':'"},
           {"--header", "Bad Name: x", "is not a header name"},
           {"--header", "Host: x", "header \"Host\" is set by corocrawl itself"},
           {"--header", "content-length: 5", "header \"content-length\""},
           {"--header", "Transfer-Encoding: chunked", "header \"Transfer-Encoding\""},
           {"--header", "Connection: close", "header \"Connection\""},
           {"--header", "X: a\r\nY: b", "control character"},
           {"--user", "nocolon", "expected USER:PASSWORD"},
           {"--user", ":pass", "USER is empty"},
           {"--proxy", "socks5://proxy.example:1080", ""},
           {"--proxy", "https://proxy.example", ""},
           {"--resolve", "h:80:1.2.3.4,", "ADDR must be"},
           {"--resolve", "h:80:1.2.3.4,localhost", "ADDR must be"},
       }) {
    SCOPED_TRACE(std::string(bad.option) + " " + bad.value);
    const std::string message =
        error_of({bad.option, bad.value, "x.example"}, {std::string(bad.option) + ":", bad.part});
    EXPECT_TRUE(message.starts_with(std::string(bad.option) + ":")) << message;
  }
}

TEST_F(CliTest, SecretsAreNotEchoedInErrors) {
  const std::string user = error_of({"--user", "mysecret", "x.example"}, {"--user"});
  EXPECT_EQ(user.find("mysecret"), std::string::npos) << user;
  const std::string header =
      error_of({"--header", "Authorization Bearer mysecret", "x.example"}, {"--header"});
  EXPECT_EQ(header.find("mysecret"), std::string::npos) << header;
}

TEST_F(CliTest, NewFlagsTakeNoValue) {
  error_of({"--insecure=false", "x.example"}, {"insecure"});
  error_of({"--fail-on-rate-limit=1", "x.example"}, {"fail-on-rate-limit"});
}

TEST_F(CliTest, NewOptionsNeedAValue) {
  for (const char* option :
       {"--max-body", "--max-time", "--max-per-host", "--rate-limit", "--max-retry-wait",
        "--ca-file", "--user-agent", "--header", "--user", "--proxy", "--no-proxy"}) {
    SCOPED_TRACE(option);
    error_of({"x.example", option}, {option});
  }
}

TEST_F(CliTest, BadNewKeysInTheConfigFile) {
  write("roots = [\"example.com\"]\nmax_per_host = 0\n");
  error_of({}, {"corocrawl.toml:2: max_per_host: expected a positive integer, got 0"});
  write("[hosts.\"docs.example.com\"]\nfoo = 1\n");
  error_of({"x.example"}, {"corocrawl.toml:2: unknown key hosts.\"docs.example.com\".foo"});
  // The command line does not rescue a bad file.
  write("rate_limit = -1\n");
  error_of({"--rate-limit", "1", "x.example"}, {"corocrawl.toml:1: rate_limit"});
}

// ---- upper bounds, header lines -------------------------------------------------------------

TEST_F(CliTest, LimitOptionsDefaults) {
  const settings s = parse({"x.example"});
  EXPECT_FALSE(s.crawl.max_urls);
  EXPECT_FALSE(s.crawl.max_depth);
  EXPECT_TRUE(s.crawl.trap_rules);
}

TEST_F(CliTest, LimitOptions) {
  const settings s =
      parse({"--max-urls", "5000000000", "--max-depth=0", "--no-trap-rules", "x.example"});
  EXPECT_EQ(s.crawl.max_urls, 5'000'000'000u);
  EXPECT_EQ(s.crawl.max_depth, 0);
  EXPECT_FALSE(s.crawl.trap_rules);
  EXPECT_EQ(parse({"--max-urls", "1", "--max-depth", "7", "x.example"}).crawl.max_depth, 7);
  EXPECT_EQ(parse({"--max-urls", "3", "--max-urls", "4", "x.example"}).crawl.max_urls, 4u);
}

TEST_F(CliTest, LimitOptionsOverrideTheFile) {
  write("roots = [\"example.com\"]\nmax_urls = 10\nmax_depth = 3\ntrap_rules = false\n");
  const settings from_file = parse({});
  EXPECT_EQ(from_file.crawl.max_urls, 10u);
  EXPECT_EQ(from_file.crawl.max_depth, 3);
  EXPECT_FALSE(from_file.crawl.trap_rules);
  const settings s = parse({"--max-urls", "20", "--max-depth", "1"});
  EXPECT_EQ(s.crawl.max_urls, 20u);
  EXPECT_EQ(s.crawl.max_depth, 1);
  write("roots = [\"example.com\"]\ntrap_rules = true\n");
  EXPECT_FALSE(parse({"--no-trap-rules"}).crawl.trap_rules);
}

TEST_F(CliTest, BadLimitValues) {
  for (const char* bad : {"0", "-1", "abc", "1.5", "+3", ""}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(error_of({"--max-urls", bad, "x.example"}, {}),
              std::string("--max-urls: expected a positive integer, got \"") + bad + "\"");
  }
  EXPECT_EQ(error_of({"--max-urls", "18446744073709551616", "x.example"}, {}),
            "--max-urls: \"18446744073709551616\" is too large (at most 18446744073709551615)");
  for (const char* bad : {"-1", "abc", "1.5", ""}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(error_of({"--max-depth", bad, "x.example"}, {}),
              std::string("--max-depth: expected a non-negative integer, got \"") + bad + "\"");
  }
  EXPECT_EQ(error_of({"--max-depth", "2147483648", "x.example"}, {}),
            "--max-depth: \"2147483648\" is too large (at most 2147483647)");
  error_of({"--no-trap-rules=false", "x.example"}, {"no-trap-rules"});
  for (const char* option : {"--max-urls", "--max-depth"}) {
    SCOPED_TRACE(option);
    EXPECT_EQ(error_of({"x.example", option}, {}), std::string(option) + ": missing value");
  }
  write("roots = [\"example.com\"]\nmax_depth = -2\n");
  error_of({}, {"corocrawl.toml:2: max_depth: expected a non-negative integer, got -2"});
}

TEST_F(CliTest, CountsAndSizesHaveUpperBounds) {
  struct bound {
    const char* option;
    const char* largest;
    const char* over;
    const char* message;
  };
  for (const bound& b : std::initializer_list<bound>{
           {"--max-tasks", "10000", "2147483647",
            "--max-tasks: \"2147483647\" is too large (at most 10000)"},
           {"--threads", "1024", "1025", "--threads: \"1025\" is too large (at most 1024)"},
           {"--max-per-host", "10000", "10001",
            "--max-per-host: \"10001\" is too large (at most 10000)"},
           {"--max-redirect", "1000", "1001",
            "--max-redirect: \"1001\" is too large (at most 1000)"},
           {"--max-tries", "100", "101", "--max-tries: \"101\" is too large (at most 100)"},
           {"--max-body", "1GiB", "1025M", "--max-body: \"1025M\" is too large (at most 1GiB)"},
       }) {
    SCOPED_TRACE(b.option);
    EXPECT_NO_THROW(parse({b.option, b.largest, "x.example"}));
    EXPECT_EQ(error_of({b.option, b.over, "x.example"}, {}), b.message);
  }
}

TEST_F(CliTest, HeaderValuesMustFitInALineServersAccept) {
  const std::string big(9'000, 'v');
  EXPECT_EQ(error_of({"--user-agent", big, "x.example"}, {}),
            "--user-agent: the User-Agent header line would be 9012 bytes, more than the 8190 "
            "servers accept");
  const std::string header = error_of({"--header", "X-Big: " + big, "x.example"},
                                      {"--header: the \"X-Big\" header line would be 9007"});
  EXPECT_EQ(header.find("vvv"), std::string::npos) << header;
  const std::string user = error_of({"--user", "me:" + big, "x.example"},
                                    {"--user: the Authorization header line it becomes"});
  EXPECT_EQ(user.find("vvv"), std::string::npos) << user;
  error_of({"--proxy", "http://me:" + big + "@proxy.example:3128", "x.example"},
           {"--proxy: the Proxy-Authorization header line"});
  // Nine headers that each fit make more than a request may carry.
  std::vector<std::string> args;
  for (int i = 0; i < 9; ++i) {
    args.push_back("--header");
    args.push_back("X-" + std::to_string(i) + ": " + std::string(7'995, 'v'));
  }
  args.push_back("x.example");
  error_of(args, {"headers:", "more than the 65536 allowed"});
  args.erase(args.begin(), args.begin() + 2);
  EXPECT_EQ(parse(args).crawl.headers.size(), 8u);
}

// ---- proxies from the environment -------------------------------------------------------------

TEST_F(CliTest, ProxyVariablesAreUsedWhenNothingElseSetsAProxy) {
  env_ = {{"http_proxy", "http://http-proxy.example:3128"},
          {"https_proxy", "http://https-proxy.example:3129"},
          {"no_proxy", " internal.example "}};
  EXPECT_EQ(parse({"x.example"}).crawl.proxy,
            (proxy_options{"http://http-proxy.example:3128", "http://https-proxy.example:3129",
                           "internal.example"}));
  env_ = {{"https_proxy", "proxy.example:8080"}};
  EXPECT_EQ(parse({"x.example"}).crawl.proxy, (proxy_options{"", "proxy.example:8080", ""}));
}

TEST_F(CliTest, UpperCaseVariablesWhenLowerCaseAreUnsetOrEmpty) {
  env_ = {{"HTTP_PROXY", "http://upper.example:1"},
          {"HTTPS_PROXY", "http://upper.example:2"},
          {"NO_PROXY", "upper.example"}};
  EXPECT_EQ(parse({"x.example"}).crawl.proxy,
            (proxy_options{"http://upper.example:1", "http://upper.example:2", "upper.example"}));
  env_["http_proxy"] = "http://lower.example:1";
  env_["https_proxy"] = "";  // empty counts as unset
  env_["no_proxy"] = "lower.example";
  EXPECT_EQ(parse({"x.example"}).crawl.proxy,
            (proxy_options{"http://lower.example:1", "http://upper.example:2", "lower.example"}));
  env_ = {{"http_proxy", ""}, {"HTTP_PROXY", ""}, {"no_proxy", ""}};
  EXPECT_EQ(parse({"x.example"}).crawl.proxy, proxy_options{});
}

TEST_F(CliTest, ConfigFileProxyOverridesTheEnvironment) {
  env_ = {{"http_proxy", "http://env.example:1"},
          {"https_proxy", "http://env.example:2"},
          {"no_proxy", "env.example"}};
  write("roots = [\"example.com\"]\nproxy = \"http://file.example:3\"\n");
  EXPECT_EQ(parse({}).crawl.proxy,
            (proxy_options{"http://file.example:3", "http://file.example:3", "env.example"}));
  write("roots = [\"example.com\"]\nno_proxy = \"file.example\"\n");
  EXPECT_EQ(parse({}).crawl.proxy,
            (proxy_options{"http://env.example:1", "http://env.example:2", "file.example"}));
  write("roots = [\"example.com\"]\nproxy = \"\"\n");
  EXPECT_EQ(parse({}).crawl.proxy, (proxy_options{"", "", "env.example"}));
}

TEST_F(CliTest, ProxyFlagsOverrideTheFileAndTheEnvironment) {
  env_ = {{"http_proxy", "http://env.example:1"},
          {"https_proxy", "http://env.example:2"},
          {"no_proxy", "env.example"}};
  write("roots = [\"example.com\"]\nproxy = \"http://file.example:3\"\nno_proxy = \"file\"\n");
  EXPECT_EQ(parse({"--proxy", "http://cli.example:4", "--no-proxy", "cli.example"}).crawl.proxy,
            (proxy_options{"http://cli.example:4", "http://cli.example:4", "cli.example"}));
  EXPECT_EQ(parse({"--proxy", "", "--no-proxy", ""}).crawl.proxy, proxy_options{});
  write("roots = [\"example.com\"]\n");
  EXPECT_EQ(parse({"--proxy", ""}).crawl.proxy, (proxy_options{"", "", "env.example"}));
  EXPECT_EQ(parse({"--proxy=http://cli.example:4"}).crawl.proxy.http_proxy, "http://cli.example:4");
}

TEST_F(CliTest, BadProxyVariableIsAnErrorNamingIt) {
  env_ = {{"https_proxy", "socks5://proxy.example:1080"}};
  EXPECT_TRUE(error_of({"x.example"}, {}).starts_with("https_proxy: "))
      << error_of({"x.example"}, {});
  env_ = {{"HTTP_PROXY", "ftp://proxy.example"}};
  EXPECT_TRUE(error_of({"x.example"}, {}).starts_with("HTTP_PROXY: "));
  // A good lower-case variable hides a bad upper-case one.
  env_ = {{"http_proxy", "http://good.example:1"}, {"HTTP_PROXY", "ftp://bad"}};
  EXPECT_EQ(parse({"x.example"}).crawl.proxy.http_proxy, "http://good.example:1");
}

TEST_F(CliTest, BadProxyVariableIsIgnoredWhenOverridden) {
  env_ = {{"http_proxy", "ftp://bad"}, {"https_proxy", "socks5://bad"}};
  EXPECT_EQ(parse({"--proxy", "", "x.example"}).crawl.proxy, proxy_options{});
  EXPECT_EQ(parse({"--proxy", "http://good.example:1", "x.example"}).crawl.proxy.https_proxy,
            "http://good.example:1");
  write("roots = [\"example.com\"]\nproxy = \"http://file.example:3\"\n");
  EXPECT_EQ(parse({}).crawl.proxy.http_proxy, "http://file.example:3");
}

TEST_F(CliTest, NoEnvironmentAtAll) {
  const cli::parse_result result = cli::parse_command_line({"x.example"}, cwd_, cli::environment{});
  ASSERT_TRUE(std::holds_alternative<settings>(result));
  EXPECT_EQ(std::get<settings>(result).crawl.proxy, proxy_options{});
}

TEST_F(CliTest, ProcessEnvironmentReadsVariables) {
  const cli::environment env = cli::process_environment();
  const char* path = std::getenv("PATH");
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(env("PATH"), std::optional<std::string>(path));
  EXPECT_EQ(env("COROCRAWL_SURELY_NOT_SET_1e3f7a"), std::nullopt);
}

// ---- help -----------------------------------------------------------------------------------

TEST_F(CliTest, HelpNamesEveryNewOptionWithItsDefault) {
  const std::string help = early({"--help"}).text;
  for (const char* part : {"--max-body BYTES",
                           "KiB, MiB, GiB",
                           "10MiB",
                           "default: 10MiB",
                           "--max-time SECONDS",
                           "--max-per-host N",
                           "default: 16",
                           "--rate-limit R",
                           "0.5",
                           "default: unlimited",
                           "--max-retry-wait SECONDS",
                           "default: 60",
                           "0: do",
                           "--fail-on-rate-limit",
                           "--insecure",
                           "--ca-file FILE",
                           "--user-agent STRING",
                           "--header",
                           "Repeatable",
                           "--user USER:PASSWORD",
                           "--proxy URL",
                           "--no-proxy LIST",
                           "HOST:PORT:ADDR[,ADDR...]",
                           "http_proxy",
                           "https_proxy",
                           "no_proxy",
                           "HTTPS_PROXY",
                           "Loopback hosts",
                           "never use a proxy",
                           "[headers]",
                           "[hosts.\"HOST\".headers]",
                           "--max-urls N",
                           "unchecked",
                           "--max-depth N",
                           "the roots only",
                           "--no-trap-rules",
                           "max_urls, max_depth, trap_rules (false for --no-trap-rules)",
                           "most 1 MiB",
                           "a report or summary could not be written",
                           "General:",
                           "Crawl:",
                           "Checking:",
                           "--no-external",
                           "--no-fragments",
                           "--ignore-robots",
                           "--sitemap URL",
                           "--accept CODES",
                           "--warn CODES",
                           "[[rules]]",
                           "HTTP:",
                           "Politeness",
                           "TLS:",
                           "Identity:",
                           "Proxy",
                           "Output:"}) {
    EXPECT_NE(help.find(part), std::string::npos) << "\"" << part << "\" not in help";
  }
  EXPECT_NE(help.find(std::string("corocrawl/") + corocrawl::version), std::string::npos);
}

TEST_F(CliTest, HelpFitsIn80ColumnsWithSingleBlankLines) {
  const std::string help = early({"--help"}).text;
  EXPECT_EQ(help.find("\n\n\n"), std::string::npos) << help;
  std::istringstream lines(help);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    ++count;
    EXPECT_LE(line.size(), 80u) << line;
  }
  EXPECT_GT(count, 50);
}

TEST_F(CliTest, Help) {
  for (const char* flag : {"--help", "-h"}) {
    const cli::early_exit e = early({flag});
    EXPECT_EQ(e.code, 0);
    for (const char* part : {"Usage: corocrawl [OPTIONS] [ROOT...]",
                             "bare host",
                             "local directory",
                             "--config",
                             "--max-tasks",
                             "default: 100",
                             "--threads N",
                             "Threads that parse pages",
                             "default: one per core but one",
                             "--max-redirect",
                             "default: 10",
                             "--max-tries",
                             "default: 4",
                             "--exclude",
                             "--lenient",
                             "--resolve",
                             "--timeout",
                             "default: 30",
                             "--json",
                             "--report",
                             "default: text",
                             "--verbose",
                             "--quiet",
                             "--version",
                             "Exit status",
                             "130"}) {
      EXPECT_NE(e.text.find(part), std::string::npos) << "\"" << part << "\" not in help";
    }
  }
}

TEST_F(CliTest, HelpComesBeforeValidationAndTheConfigFile) {
  write("not toml at all = = =");
  EXPECT_EQ(early({"--max-tasks", "abc", "--help"}).code, 0);
}

TEST_F(CliTest, Version) {
  const cli::early_exit e = early({"--version"});
  EXPECT_EQ(e.code, 0);
  EXPECT_EQ(e.text, std::string("corocrawl ") + corocrawl::version + "\n");
}

}  // namespace
}  // namespace corocrawl
