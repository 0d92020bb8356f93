// parse_command_line: flags, the config file underneath them, early exits and usage errors.

#include "cli.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <initializer_list>
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
using std::chrono::milliseconds;

/// Each test runs with a fresh, empty directory as the `cwd` given to the parser.
class CliTest : public ::testing::Test {
 protected:
  fs::path write(std::string_view content, const fs::path& name = "corocrawl.toml") {
    return temp_.write(name, content);
  }

  cli::parse_result run(const std::vector<std::string>& args) {
    return cli::parse_command_line(args, cwd_);
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
};

TEST_F(CliTest, Defaults) {
  const settings s = parse({"http://example.com"});
  EXPECT_EQ(s.crawl.roots, std::vector<std::string>{"http://example.com/"});
  EXPECT_EQ(s.crawl.max_tasks, 100);
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
  EXPECT_EQ(s.crawl.max_redirect, 0);
  EXPECT_EQ(s.crawl.max_tries, 2);
  EXPECT_EQ(s.crawl.exclude, (std::vector<std::string>{"\\.pdf$", "/private/"}));
  EXPECT_FALSE(s.crawl.strict);
  EXPECT_EQ(s.crawl.resolve, (std::vector<resolve_override>{{"example.com", 443, "127.0.0.1"},
                                                            {"example.com", 80, "::1"}}));
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
  EXPECT_EQ(from_file.verbosity, verbosity::trace);
  EXPECT_EQ(from_file.json_path, (cwd_ / "out.json").string());

  const settings s =
      parse({"--max-tasks", "9", "--max-redirect", "4", "--max-tries", "5", "--lenient",
             "--timeout", "6", "--json", "-", "--report", "text", "-q"});
  EXPECT_EQ(s.crawl.max_tasks, 9);
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
  write("max_tasks = 7\nexclude = [\"x\"]\nresolve = [\"h:1:1.2.3.4\"]\n");
  const settings s = parse({"--max-tries", "3", "example.com"});
  EXPECT_EQ(s.crawl.max_tasks, 7);
  EXPECT_EQ(s.crawl.max_tries, 3);
  EXPECT_EQ(s.crawl.exclude, std::vector<std::string>{"x"});
  EXPECT_EQ(s.crawl.resolve, (std::vector<resolve_override>{{"h", 1, "1.2.3.4"}}));
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
  EXPECT_EQ(s.crawl.resolve, (std::vector<resolve_override>{{"cli.example", 81, "10.0.0.2"}}));
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
}

TEST_F(CliTest, UnknownOption) {
  EXPECT_EQ(error_of({"--nope", "x.example"}, {}), "unknown option \"--nope\"");
  EXPECT_EQ(error_of({"x.example", "--nope=3"}, {}), "unknown option \"--nope\"");
  error_of({"-x", "x.example"}, {"unknown option \"-x\""});
}

TEST_F(CliTest, MissingValue) {
  error_of({"x.example", "--max-tasks"}, {"--max-tasks"});
  error_of({"x.example", "--exclude"}, {"--exclude"});
  error_of({"x.example", "--config"}, {"--config"});
}

TEST_F(CliTest, BadCounts) {
  for (const char* bad : {"abc", "0", "-1", "8x", "+8", " 8", "1.5", "99999999999"}) {
    SCOPED_TRACE(bad);
    error_of({"--max-tasks", bad, "x.example"}, {"--max-tasks"});
    error_of({"--max-tries", bad, "x.example"}, {"--max-tries"});
  }
  EXPECT_EQ(error_of({"--max-tasks", "abc", "x.example"}, {}),
            "--max-tasks: expected a positive integer, got \"abc\"");
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
            "--resolve: expected HOST:PORT:ADDR, got \"foo\"");
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
