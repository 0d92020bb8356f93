// The shared value parsers, corocrawl.toml and validate().

#include "corocrawl/config.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

#include "corocrawl/errors.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

/// Runs `f`, which must throw config_error; checks the message is one line and contains
/// every part. Returns the message.
std::string error_of(const std::function<void()>& f,
                     std::initializer_list<std::string_view> parts) {
  try {
    f();
  } catch (const config_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    for (std::string_view part : parts) {
      EXPECT_NE(message.find(part), std::string::npos) << "\"" << part << "\" not in: " << message;
    }
    return message;
  }
  ADD_FAILURE() << "no config_error thrown";
  return {};
}

// ---- parse_count ----------------------------------------------------------------------------

TEST(ParseCount, AcceptsDecimalIntegersFromMin) {
  EXPECT_EQ(parse_count("--max-tasks", "8", 1), 8);
  EXPECT_EQ(parse_count("--max-tasks", "1", 1), 1);
  EXPECT_EQ(parse_count("--max-redirect", "0", 0), 0);
  EXPECT_EQ(parse_count("--max-tasks", "007", 1), 7);
  EXPECT_EQ(parse_count("--max-tasks", "2147483647", 1), 2147483647);
}

TEST(ParseCount, RejectsEverythingElse) {
  for (const char* text : {"abc", "0", "-1", "+8", " 8", "8 ", "8x", "1.5", "", "0x10", "1e3"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_count("--max-tasks", text, 1); },
             {"--max-tasks: expected a positive integer, got \"", text});
  }
  error_of([] { parse_count("--max-redirect", "-1", 0); },
           {"--max-redirect: expected a non-negative integer, got \"-1\""});
  error_of([] { parse_count("--max-tasks", "2147483648", 1); }, {"--max-tasks", "too large"});
  error_of([] { parse_count("--max-tasks", "99999999999999999999", 1); }, {"--max-tasks"});
}

TEST(ParseCount, MessageIsOneLineEvenForMultiLineInput) {
  error_of([] { parse_count("--max-tries", "1\n2", 1); }, {"--max-tries", "1 2"});
}

// ---- parse_seconds --------------------------------------------------------------------------

TEST(ParseSeconds, AcceptsPositiveNumbers) {
  EXPECT_EQ(parse_seconds("--timeout", "30"), milliseconds(30'000));
  EXPECT_EQ(parse_seconds("--timeout", "0.5"), milliseconds(500));
  EXPECT_EQ(parse_seconds("--timeout", "2.25"), milliseconds(2'250));
  // Rounded up: a positive limit never becomes 0.
  EXPECT_EQ(parse_seconds("--timeout", "0.0001"), milliseconds(1));
  EXPECT_EQ(parse_seconds("--timeout", "86400"), milliseconds(86'400'000));
}

TEST(ParseSeconds, RejectsZeroNegativeAndGarbage) {
  for (const char* text :
       {"0", "0.0", "-1", "abc", "", "+1", " 1", "1 ", "1s", "inf", "nan", "-inf", "1,5"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_seconds("--timeout", text); },
             {"--timeout: expected a positive number of seconds, got \""});
  }
  error_of([] { parse_seconds("--timeout", "1e9"); }, {"--timeout", "at most 86400"});
}

// ---- parse_resolve --------------------------------------------------------------------------

TEST(ParseResolve, AcceptsIpv4) {
  EXPECT_EQ(parse_resolve("--resolve", "Example.COM:443:127.0.0.1"),
            (resolve_override{"example.com", 443, "127.0.0.1"}));
  EXPECT_EQ(parse_resolve("--resolve", "localhost:1:10.0.0.2"),
            (resolve_override{"localhost", 1, "10.0.0.2"}));
  EXPECT_EQ(parse_resolve("--resolve", "a.b:65535:1.2.3.4").port, 65535);
}

TEST(ParseResolve, AcceptsBracketedIpv6) {
  EXPECT_EQ(parse_resolve("--resolve", "example.com:8080:[::1]"),
            (resolve_override{"example.com", 8080, "::1"}));
  EXPECT_EQ(parse_resolve("--resolve", "example.com:80:[2001:db8::1]"),
            (resolve_override{"example.com", 80, "2001:db8::1"}));
}

TEST(ParseResolve, RejectsMalformedText) {
  for (const char* text : {"foo", "foo:80", ":80:1.2.3.4", "a::1.2.3.4", "a:80:", "::", ""}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_resolve("--resolve", text); },
             {"--resolve: expected HOST:PORT:ADDR, got \"", text});
  }
  error_of([] { parse_resolve("--resolve", "foo"); },
           {"--resolve: expected HOST:PORT:ADDR, got \"foo\""});
}

TEST(ParseResolve, RejectsBadParts) {
  for (const char* text : {"a:0:1.2.3.4", "a:65536:1.2.3.4", "a:8x:1.2.3.4", "a:+80:1.2.3.4",
                           "a:-1:1.2.3.4", "a:99999999999:1.2.3.4"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_resolve("--resolve", text); }, {"--resolve", "port", text});
  }
  for (const char* text : {"a:80:1.2.3", "a:80:1.2.3.256", "a:80:[::1", "a:80:[]",
                           "a:80:example.org", "a:80:[1.2.3.4]", "a:80:[::g]"}) {
    SCOPED_TRACE(text);
    error_of([&] { parse_resolve("--resolve", text); }, {"--resolve", "ADDR", text});
  }
  error_of([] { parse_resolve("--resolve", "a b:80:1.2.3.4"); }, {"--resolve", "host"});
  error_of([] { parse_resolve("--resolve", "a/b:80:1.2.3.4"); }, {"--resolve", "host"});
}

// ---- parse_report_mode, parse_verbosity -------------------------------------------------------

TEST(ParseReportMode, TextOrNone) {
  EXPECT_EQ(parse_report_mode("--report", "text"), report_mode::text);
  EXPECT_EQ(parse_report_mode("--report", "none"), report_mode::none);
  error_of([] { parse_report_mode("--report", "html"); }, {"--report", "\"html\""});
  error_of([] { parse_report_mode("report", "Text"); }, {"report", "\"Text\""});
}

TEST(ParseVerbosity, FourLevels) {
  EXPECT_EQ(parse_verbosity("verbosity", "quiet"), verbosity::quiet);
  EXPECT_EQ(parse_verbosity("verbosity", "info"), verbosity::info);
  EXPECT_EQ(parse_verbosity("verbosity", "debug"), verbosity::debug);
  EXPECT_EQ(parse_verbosity("verbosity", "trace"), verbosity::trace);
  error_of([] { parse_verbosity("verbosity", "loud"); }, {"verbosity", "\"loud\""});
}

// ---- corocrawl.toml -------------------------------------------------------------------------

/// A fresh directory per test, removed at the end, to write config files in.
class ConfigFileTest : public ::testing::Test {
 protected:
  fs::path write(std::string_view content, const fs::path& name = "corocrawl.toml") {
    return temp_.write(name, content);
  }

  settings apply(std::string_view content) {
    settings s;
    apply_config_file(write(content), s);
    return s;
  }

  /// The config_error for a file with `content`; checks it names the file and every part.
  std::string error_for(std::string_view content, std::initializer_list<std::string_view> parts) {
    const fs::path file = write(content);
    const std::string message = error_of(
        [&] {
          settings s;
          apply_config_file(file, s);
        },
        parts);
    EXPECT_TRUE(message.starts_with(file.string() + ":")) << message;
    return message;
  }

  testing::temp_dir temp_;
  const fs::path dir_ = temp_.path();
};

TEST_F(ConfigFileTest, EmptyFileKeepsDefaults) {
  const settings s = apply("# nothing set\n");
  const settings defaults;
  EXPECT_EQ(s.crawl.max_tasks, defaults.crawl.max_tasks);
  EXPECT_EQ(s.crawl.max_redirect, 10);
  EXPECT_EQ(s.crawl.max_tries, 4);
  EXPECT_TRUE(s.crawl.strict);
  EXPECT_EQ(s.crawl.timeout, milliseconds(30'000));
  EXPECT_TRUE(s.crawl.roots.empty());
  EXPECT_FALSE(s.json_path);
  EXPECT_EQ(s.report, report_mode::text);
  EXPECT_EQ(s.verbosity, verbosity::info);
}

TEST_F(ConfigFileTest, EveryKey) {
  const settings s = apply(R"(
roots = ["https://Example.com", "example.org/docs"]
max_tasks = 8
max_redirect = 0
max_tries = 2
exclude = ["\\.pdf$", "/private/"]
strict = false
resolve = ["example.com:443:127.0.0.1", "example.org:80:[::1]"]
timeout = 2.5
json = "-"
report = "none"
verbosity = "debug"
)");
  EXPECT_EQ(s.crawl.roots,
            (std::vector<std::string>{"https://example.com/", "http://example.org/docs"}));
  EXPECT_EQ(s.crawl.max_tasks, 8);
  EXPECT_EQ(s.crawl.max_redirect, 0);
  EXPECT_EQ(s.crawl.max_tries, 2);
  EXPECT_EQ(s.crawl.exclude, (std::vector<std::string>{"\\.pdf$", "/private/"}));
  EXPECT_FALSE(s.crawl.strict);
  EXPECT_EQ(s.crawl.resolve, (std::vector<resolve_override>{{"example.com", 443, "127.0.0.1"},
                                                            {"example.org", 80, "::1"}}));
  EXPECT_EQ(s.crawl.timeout, milliseconds(2'500));
  EXPECT_EQ(s.json_path, "-");
  EXPECT_EQ(s.report, report_mode::none);
  EXPECT_EQ(s.verbosity, verbosity::debug);
}

TEST_F(ConfigFileTest, IntegerTimeoutAndOtherLevels) {
  EXPECT_EQ(apply("timeout = 5").crawl.timeout, milliseconds(5'000));
  EXPECT_EQ(apply("verbosity = \"trace\"").verbosity, verbosity::trace);
  EXPECT_EQ(apply("verbosity = \"quiet\"").verbosity, verbosity::quiet);
  EXPECT_EQ(apply("strict = true").crawl.strict, true);
  EXPECT_EQ(apply("report = \"text\"").report, report_mode::text);
}

TEST_F(ConfigFileTest, RelativePathsAreTakenFromTheFilesDirectory) {
  fs::create_directories(dir_ / "conf" / "site");
  fs::create_directories(dir_ / "other");
  const fs::path file = write(R"(
roots = ["site", "../other", "./site/"]
json = "out/summary.json"
)",
                              "conf/corocrawl.toml");
  settings s;
  apply_config_file(file, s);
  EXPECT_EQ(s.crawl.roots,
            (std::vector<std::string>{(dir_ / "conf" / "site").string(), (dir_ / "other").string(),
                                      (dir_ / "conf" / "site").string()}));
  EXPECT_EQ(s.json_path, (dir_ / "conf" / "out" / "summary.json").string());
}

TEST_F(ConfigFileTest, AbsoluteJsonPathStays) {
  const std::string path = (dir_ / "x.json").string();
  EXPECT_EQ(apply("json = \"" + path + "\"").json_path, path);
}

TEST_F(ConfigFileTest, FileListsReplaceEarlierLists) {
  settings s;
  s.crawl.exclude = {"old"};
  s.crawl.roots = {"http://old.example/"};
  apply_config_file(write("exclude = [\"new\"]\nroots = []\n"), s);
  EXPECT_EQ(s.crawl.exclude, (std::vector<std::string>{"new"}));
  EXPECT_TRUE(s.crawl.roots.empty());
}

TEST_F(ConfigFileTest, ErrorLeavesSettingsUntouched) {
  settings s;
  const fs::path file = write("max_tasks = 8\nmax_tries = \"x\"\n");
  EXPECT_THROW(apply_config_file(file, s), config_error);
  EXPECT_EQ(s.crawl.max_tasks, 100);
}

TEST_F(ConfigFileTest, SyntaxErrorHasLineAndColumn) {
  const std::string message =
      error_for("max_tasks = 8\n\nmax_tries = = 3\n", {":3:", "TOML syntax error: "});
  EXPECT_NE(message.find(".toml:3:"), std::string::npos) << message;
  error_for("roots = [\"a\",\n", {"TOML syntax error"});
  error_for("max_tasks = 1\nmax_tasks = 2\n", {":2:", "TOML syntax error"});
}

TEST_F(ConfigFileTest, UnknownKey) {
  error_for("max_tasks = 3\nmax_task = 8\n", {":2: unknown key \"max_task\"", "max_tasks"});
  error_for("colour = true\n", {"unknown key \"colour\""});
  error_for("[crawl]\nmax_tasks = 1\n", {"unknown key \"crawl\""});
}

TEST_F(ConfigFileTest, WrongTypes) {
  error_for("max_tasks = \"8\"", {":1: max_tasks: expected an integer, got a string"});
  error_for("max_tasks = 1.5", {"max_tasks: expected an integer, got a float"});
  error_for("strict = \"yes\"", {"strict: expected a boolean, got a string"});
  error_for("exclude = \"x\"", {"exclude: expected an array of strings, got a string"});
  error_for("roots = [1]", {"roots: expected a string, got an integer"});
  error_for("resolve = [\"a:1:1.2.3.4\", true]", {"resolve: expected a string, got a boolean"});
  error_for("timeout = \"abc\"", {"timeout: expected a number of seconds, got a string"});
  error_for("json = 1", {"json: expected a string, got an integer"});
  error_for("report = false", {"report: expected a string, got a boolean"});
  error_for("verbosity = 2", {"verbosity: expected a string, got an integer"});
  error_for("max_tries = [1]", {"max_tries: expected an integer, got an array"});
}

TEST_F(ConfigFileTest, BadValues) {
  error_for("max_tasks = 0", {":1: max_tasks: expected a positive integer, got 0"});
  error_for("max_tasks = -3", {"max_tasks: expected a positive integer, got -3"});
  error_for("max_tasks = 3000000000", {"max_tasks: expected a positive integer"});
  error_for("max_tries = 0", {"max_tries: expected a positive integer, got 0"});
  error_for("max_redirect = -1", {"max_redirect: expected a non-negative integer, got -1"});
  error_for("timeout = 0", {":1: timeout: expected a positive number of seconds, got 0"});
  error_for("timeout = -1.5", {"timeout: expected a positive number of seconds"});
  error_for("timeout = nan", {"timeout: expected a positive number of seconds"});
  error_for("timeout = inf", {"timeout: expected a positive number of seconds"});
  error_for("report = \"html\"", {":1: report: expected \"text\" or \"none\", got \"html\""});
  error_for("verbosity = \"loud\"", {"verbosity:", "\"loud\""});
  error_for("json = \"\"", {"json:"});
  error_for("\nresolve = [\"foo\"]", {":2: resolve: expected HOST:PORT:ADDR, got \"foo\""});
  error_for("exclude = [\"ok\",\n  \"(\"]", {":2:", "exclude", "\"(\""});
}

TEST_F(ConfigFileTest, BadRoots) {
  error_for("roots = [\"./missing\"]", {":1: roots: root \"./missing\": no such directory"});
  error_for("roots = [\"ftp://x\"]", {"roots: root \"ftp://x\": unsupported scheme \"ftp\""});
  write("<html></html>", "index.html");
  error_for("roots = [\"index.html\"]", {"root \"index.html\" is a file"});
}

TEST_F(ConfigFileTest, MissingOrUnreadableFile) {
  settings s;
  error_of([&] { apply_config_file(dir_ / "nope.toml", s); }, {"nope.toml", "no such"});
  fs::create_directories(dir_ / "dir.toml");
  error_of([&] { apply_config_file(dir_ / "dir.toml", s); }, {"dir.toml", "directory"});
}

// ---- validate -------------------------------------------------------------------------------

settings with_root() {
  settings s;
  s.crawl.roots = {"http://example.com/"};
  return s;
}

TEST(Validate, DefaultsWithARootPass) {
  EXPECT_NO_THROW(validate(with_root()));
}

TEST(Validate, NeedsARoot) {
  error_of([] { validate(settings{}); },
           {"no root to crawl: give a URL or a directory, or roots = [...] in corocrawl.toml"});
}

TEST(Validate, EveryRootMustClassify) {
  settings s = with_root();
  s.crawl.roots.push_back("ftp://example.com/");
  error_of([&] { validate(s); }, {"root \"ftp://example.com/\"", "unsupported scheme"});
}

TEST(Validate, ExcludePatternsMustCompile) {
  settings s = with_root();
  s.crawl.exclude = {"fine", "[unclosed"};
  error_of([&] { validate(s); }, {"exclude", "[unclosed"});
}

TEST(Validate, RangesOfValuesSetByALibraryUser) {
  settings s = with_root();
  s.crawl.max_tasks = 0;
  error_of([&] { validate(s); }, {"max_tasks"});
  s = with_root();
  s.crawl.max_tries = 0;
  error_of([&] { validate(s); }, {"max_tries"});
  s = with_root();
  s.crawl.max_redirect = -1;
  error_of([&] { validate(s); }, {"max_redirect"});
  s = with_root();
  s.crawl.max_redirect = 0;
  EXPECT_NO_THROW(validate(s));
  s.crawl.timeout = milliseconds(0);
  error_of([&] { validate(s); }, {"timeout"});
}

}  // namespace
}  // namespace corocrawl
