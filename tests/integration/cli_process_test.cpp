// The corocrawl binary as users and CI run it: exit codes, --json -, the report, config
// files, bad input, signals and local folder mode.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <boost/json.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "binary_test.hpp"
#include "json_text.hpp"
#include "process.hpp"
#include "temp_dir.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace std::chrono_literals;
using testing::process_result;
using testing::test_server;

class CliTest : public testing::binary_test {
 protected:
  /// Runs the binary with `args` in dir_ and its stdout sent to /dev/full by a shell, as users
  /// do: every write to stdout fails with "No space left on device".
  process_result run_with_full_stdout(std::vector<std::string> args) const {
    args.insert(args.begin(), COROCRAWL_BINARY);
    return testing::run_in_shell("exec \"$@\" > /dev/full", args, dir_);
  }

  void write_file(const fs::path& path, const std::string& text) const { temp_.write(path, text); }

  std::string read_file(const fs::path& path) const { return temp_.read(path); }

  /// A site whose "/" links to a page that exists and to one that does not.
  void serve_site_with_a_broken_link() {
    server_.add_page("/", {"/ok", "/missing"});
    server_.add_page("/ok", {"/"});
  }
};

TEST_F(CliTest, JsonToStdoutIsOneValidDocument) {
  serve_site_with_a_broken_link();
  const auto result = run({"--json", "-", server_.url("/")});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  const json::value doc = json::parse(result.out);  // throws unless exactly one document
  const auto& summary = doc.as_object();
  EXPECT_EQ(summary.at("schema"), "corocrawl-summary/1");
  EXPECT_EQ(summary.at("roots"), json::array{json::string(server_.url("/"))});
  auto expected_config = json::parse(R"({"max_tasks": 100, "threads": null,
      "exclude": [], "strict": true, "max_time": null, "max_urls": null, "max_depth": null,
      "trap_rules": true, "external": true, "base_url": null, "baseline": null, "cache": null, "cache_max_age": 86400,
      "fragments": true, "robots": true, "sitemaps": [],
      "accept": "200-399", "warn": "", "rules": [], "timeout": 30, "max_redirect": 10, "max_tries": 4,
      "max_body": 10485760, "resolve": [], "max_per_host": 16, "rate_limit": 0,
      "max_retry_wait": 60, "fail_on_rate_limit": false, "insecure": false, "ca_file": "",
      "user_agent": "", "headers": {}, "hosts": {}, "user": null, "proxy": "",
      "no_proxy": ""})");
  expected_config.as_object()["roots"] = json::array{json::string(server_.url("/"))};
  EXPECT_EQ(summary.at("config"), expected_config);
  EXPECT_TRUE(summary.at("elapsed_seconds").is_number());
  EXPECT_EQ(summary.at("interrupted"), false);
  EXPECT_EQ(summary.at("passed"), false);

  const auto& stats = summary.at("stats").as_object();
  EXPECT_EQ(stats.at("urls"), 3);
  EXPECT_EQ(stats.at("html"), 2);
  EXPECT_EQ(stats.at("error"), 1);
  EXPECT_EQ(stats.at("status_404"), 1);
  EXPECT_EQ(stats.at("fail"), 0);
  for (const auto& [key, value] : stats) {
    if (key.starts_with("fail_") || key.starts_with("status_")) {
      EXPECT_NE(value, 0) << key;
    }
  }

  const auto& urls = summary.at("urls").as_array();
  ASSERT_EQ(urls.size(), 3u);
  EXPECT_EQ(testing::text(urls[0].at("url")), server_.url("/"));
  EXPECT_EQ(testing::text(urls[1].at("url")), server_.url("/missing"));
  EXPECT_EQ(testing::text(urls[2].at("url")), server_.url("/ok"));
  const auto& root = urls[0].as_object();
  EXPECT_EQ(root.at("status"), 200);
  EXPECT_TRUE(root.at("next_url").is_null());
  EXPECT_TRUE(root.at("error").is_null());
  EXPECT_EQ(root.at("tries"), 1);
  EXPECT_EQ(root.at("content_type"), "text/html");
  EXPECT_EQ(root.at("encoding"), "utf-8");
  EXPECT_EQ(root.at("num_urls"), 2);
  EXPECT_EQ(root.at("num_new_urls"), 2);
  EXPECT_TRUE(root.at("referrer").is_null());
  EXPECT_TRUE(root.at("size").is_number());
  EXPECT_EQ(testing::text(urls[1].at("referrer")), server_.url("/"));

  EXPECT_EQ(summary.at("broken"),
            json::parse(R"([{"url": ")" + server_.url("/missing") +
                        R"(", "status": 404, "error": null, "external": false, "referrers": [")" +
                        server_.url("/") + R"("], "sources": [{"page": ")" + server_.url("/") +
                        R"(", "element": "a", "attribute": "href", "line": 1, "column": 19}]}])"));
  // The report, when stdout carries JSON, goes to stderr: what needs fixing, with its place.
  EXPECT_NE(result.err.find("Broken links (1):\n  " + server_.url("/missing") + " 404\n    " +
                            server_.url("/") + ":1:19 a href\n"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(result.err.find("*** Report ***"), std::string::npos);
}

TEST_F(CliTest, PassingCrawlExitsZeroAndReportsOnStdout) {
  server_.add_page("/", {"/a"});
  server_.add_page("/a");
  const auto result = run({"--json", "summary.json", server_.url("/")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  // Nothing needs fixing: the counts and the verdict only.
  EXPECT_TRUE(result.out.starts_with("2 URLs checked in ")) << result.out;
  EXPECT_NE(result.out.find(": 0 broken, 0 warnings, 0 rate limited, 0 skipped\n"),
            std::string::npos);
  EXPECT_NE(result.out.find("PASSED: 2 URLs checked, nothing broken"), std::string::npos);
  const auto doc = json::parse(read_file("summary.json"));
  EXPECT_EQ(doc.at("passed"), true);
  EXPECT_EQ(doc.at("stats").at("urls"), 2);
}

TEST_F(CliTest, BrokenLinkFailsWithTheReportNamingIt) {
  serve_site_with_a_broken_link();
  const auto result = run({server_.url("/")});
  EXPECT_EQ(result.exit_code, 1);
  // Each place a page references it: page:line:column element attribute.
  EXPECT_NE(result.out.find("Broken links (1):\n  " + server_.url("/missing") +
                            " 404\n"
                            "    " +
                            server_.url("/") + ":1:"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("FAILED: 1 broken URL of 3 checked"), std::string::npos);
}

TEST_F(CliTest, QuietKeepsOnlyErrors) {
  serve_site_with_a_broken_link();
  const auto result = run({"-q", server_.url("/")});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out.find("*** Report ***"), std::string::npos);
  EXPECT_EQ(result.out.find(server_.url("/ok")), std::string::npos);
  EXPECT_NE(result.out.find(server_.url("/missing")), std::string::npos);
  EXPECT_NE(result.out.find("FAILED"), std::string::npos);
  EXPECT_EQ(result.err, "");
}

TEST_F(CliTest, ReportNoneWritesNothingToStdout) {
  serve_site_with_a_broken_link();
  const auto result = run({"--report", "none", server_.url("/")});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
}

TEST_F(CliTest, ConfigFileInTheWorkingDirectory) {
  server_.add_page("/", {"/private/x"});
  write_file("corocrawl.toml", "roots = [\"" + server_.url("/") + "\"]\n" +
                                   "max_tasks = 3\nexclude = [\"/private/\"]\n" +
                                   "json = \"out/summary.json\"\nreport = \"none\"\n");
  fs::create_directories(dir_ / "out");
  const auto result = run({});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "");
  const auto doc = json::parse(read_file("out/summary.json"));
  EXPECT_EQ(doc.at("config").at("max_tasks"), 3);
  EXPECT_EQ(doc.at("config").at("exclude"), json::array{"/private/"});
  EXPECT_EQ(server_.requests_for("/private/x"), 0u);
}

TEST_F(CliTest, FlagsOverrideTheConfigFile) {
  server_.add_page("/");
  write_file("custom.toml", "max_tasks = 3\nmax_tries = 2\n");
  const auto result =
      run({"--config", "custom.toml", "--max-tasks", "7", "--json", "-", server_.url("/")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const auto doc = json::parse(result.out);
  EXPECT_EQ(doc.at("config").at("max_tasks"), 7);
  EXPECT_EQ(doc.at("config").at("max_tries"), 2);
}

struct bad_input {
  std::vector<std::string> args;
  std::string config;    // written to corocrawl.toml when not empty
  std::string mentions;  // the option, key or value the message must name
};

TEST_F(CliTest, BadInputIsOneLineAndExitStatusTwo) {
  const auto url = server_.url("/");
  const std::vector<bad_input> cases = {
      {{"--no-such-flag", url}, "", "--no-such-flag"},
      {{"--max-tasks", "0", url}, "", "--max-tasks"},
      {{"--max-tasks", "abc", url}, "", "--max-tasks"},
      {{"--max-tries=-1", url}, "", "--max-tries"},
      {{"--max-redirect", "x", url}, "", "--max-redirect"},
      {{"--exclude", "(unclosed", url}, "", "--exclude"},
      {{"--resolve", "nonsense", url}, "", "--resolve"},
      {{"--resolve", "host:99999:127.0.0.1", url}, "", "--resolve"},
      {{"--timeout", "soon", url}, "", "--timeout"},
      {{"--report", "fancy", url}, "", "--report"},
      {{"--config", "missing.toml", url}, "", "missing.toml"},
      {{"--json", "no/such/dir/summary.json", url}, "", "--json"},
      {{}, "", "root"},
      {{"ftp://127.0.0.1/"}, "", "ftp"},
      {{"./no-such-dir"}, "", "no-such-dir"},
      {{url}, "max_tasks = 8\nstrict = \n", "corocrawl.toml"},
      {{url}, "max_task = 8\n", "max_task"},
      {{url}, "max_tasks = \"8\"\n", "max_tasks"},
      {{url}, "timeout = 0\n", "timeout"},
  };
  for (const auto& c : cases) {
    fs::remove(dir_ / "corocrawl.toml");
    if (!c.config.empty()) write_file("corocrawl.toml", c.config);
    SCOPED_TRACE("corocrawl.toml: " + c.config);
    expect_config_error(c.args, c.mentions);
  }
  EXPECT_EQ(server_.requests().size(), 0u);
}

void interrupt_with(CliTest& test, test_server& server, int signal, const fs::path& dir) {
  server.add_page("/", {"/slow", "/fast"});
  server.add_page("/fast");
  server.add_handler("/slow", testing::never_answers());
  testing::child_process child{{COROCRAWL_BINARY, "--json", "summary.json", server.url("/")}, dir};
  ASSERT_TRUE(server.wait_for_requests("/slow", 1, 20s));
  ASSERT_EQ(server.requests_for("/slow"), 1u);
  child.send_signal(signal);
  const auto result = child.wait(20s);
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 130) << result.err;
  EXPECT_NE(result.out.find("INTERRUPTED"), std::string::npos) << result.out;
  std::ifstream in(dir / "summary.json");
  std::stringstream contents;
  contents << in.rdbuf();
  const auto doc = json::parse(contents.str());
  EXPECT_EQ(doc.at("interrupted"), true);
  EXPECT_EQ(doc.at("passed"), false);
  EXPECT_EQ(testing::text(doc.at("urls").at(0).at("url")), server.url("/"));
  (void)test;
}

TEST_F(CliTest, SigintStopsTheCrawlAndStillWritesTheSummary) {
  interrupt_with(*this, server_, SIGINT, dir_);
}

TEST_F(CliTest, SigtermStopsTheCrawlAndStillWritesTheSummary) {
  interrupt_with(*this, server_, SIGTERM, dir_);
}

TEST_F(CliTest, LocalFolderIsServedAndCrawled) {
  write_file("site/index.html", R"(<a href="about.html">About</a> <a href="docs">Docs</a>
      <img src="logo.png"> <a href="https://example.org/">elsewhere</a>)");
  write_file("site/about.html", R"(<a href="/">Home</a> <a href="docs/">Docs</a>)");
  write_file("site/docs/index.html", R"(<a href="../about.html">About</a>)");
  write_file("site/logo.png", "png");
  const auto result = run({"--json", "-", "--no-external", "site"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const auto doc = json::parse(result.out);
  const auto root = json::value_to<std::string>(doc.at("roots").at(0));
  EXPECT_TRUE(root.starts_with("http://127.0.0.1:")) << root;
  std::vector<std::string> urls;
  for (const auto& r : doc.at("urls").as_array())
    urls.push_back(json::value_to<std::string>(r.at("url")).substr(root.size() - 1));
  EXPECT_EQ(urls, (std::vector<std::string>{"/", "/about.html", "/docs", "/docs/", "/logo.png"}));
  EXPECT_EQ(doc.at("urls").at(2).at("status"), 301);
}

TEST_F(CliTest, LocalFolderWithAMissingPageFails) {
  write_file("site/index.html", R"(<a href="gone.html">Gone</a>)");
  const auto result = run({"--json", "-", "site"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  const auto doc = json::parse(result.out);
  ASSERT_EQ(doc.at("broken").as_array().size(), 1u);
  EXPECT_TRUE(
      json::value_to<std::string>(doc.at("broken").at(0).at("url")).ends_with("/gone.html"));
  EXPECT_EQ(doc.at("broken").at(0).at("status"), 404);
}

TEST_F(CliTest, APageTheParserGivesUpOnIsNamedInAWarning) {
  // This markup trips an assert() in gumbo 0.10.1 that the limiter does not foresee.
  write_file("site/index.html", "<a href=ok.html>ok</a><a href=bad.html>bad</a>");
  write_file("site/ok.html", "<p>fine</p>");
  write_file("site/bad.html",
             "<a href=lost.html><table><td><col><svg></td><foreignObject><![CDATA[ ]]>-");
  const auto result = run({"--json", "-", "site"});
  EXPECT_EQ(result.exit_code, 0) << result.err;  // lost.html is not followed, so not missing
  EXPECT_NE(result.err.find("bad.html: the HTML parser gave up on this page"), std::string::npos)
      << result.err;
  EXPECT_EQ(json::parse(result.out).at("urls").as_array().size(), 3u);
}

TEST_F(CliTest, BundledExampleSiteHasExactlyOneBrokenLink) {
  const auto result = run({"--json", "-", COROCRAWL_EXAMPLES_DIR "/site"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  const auto doc = json::parse(result.out);
  EXPECT_EQ(doc.at("broken").as_array().size(), 1u) << result.out;
  EXPECT_GE(doc.at("stats").at("html").as_int64(), 5);
}

TEST_F(CliTest, MaxTimeStopsTheCrawlWithExitStatusOne) {
  server_.add_page("/", {"/slow"});
  server_.add_handler("/slow", testing::never_answers());
  const auto result = run({"--max-time", "0.3", "--json", "-", server_.url("/")});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  const auto doc = json::parse(result.out);
  EXPECT_EQ(doc.at("timed_out"), true);
  EXPECT_EQ(doc.at("interrupted"), false);
  EXPECT_EQ(doc.at("passed"), false);
  EXPECT_NE(result.err.find("TIMED OUT"), std::string::npos) << result.err;
}

TEST_F(CliTest, RateLimitedUrlsFailOnlyWhenAsked) {
  server_.add_page("/", {"/busy"});
  server_.add_handler("/busy",
                      [](const testing::request&) -> boost::asio::awaitable<testing::reply> {
                        co_return testing::response{429, "text/plain", "", {{"Retry-After", "0"}}};
                      });
  auto result = run({"--max-tries", "2", "--json", "-", server_.url("/")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  auto doc = json::parse(result.out);
  EXPECT_EQ(doc.at("passed"), true);
  EXPECT_EQ(doc.at("broken"), json::array{});
  EXPECT_EQ(doc.at("stats").at("rate_limited"), 1);
  ASSERT_EQ(doc.at("rate_limited").as_array().size(), 1u);
  EXPECT_EQ(testing::text(doc.at("rate_limited").at(0).at("url")), server_.url("/busy"));
  EXPECT_EQ(doc.at("rate_limited").at(0).at("status"), 429);

  result = run({"--max-tries", "2", "--fail-on-rate-limit", "--json", "-", server_.url("/")});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  doc = json::parse(result.out);
  EXPECT_EQ(doc.at("passed"), false);
}

// ---------------------------------------------------------------------------------------------
// Writing the outputs: a failed write is exit status 3 with the reason, and a summary file is
// replaced whole or not at all.

/// The line of `err` that starts with "corocrawl: error: ", or "".
std::string error_line(const std::string& err) {
  const auto start = err.find("corocrawl: error: ");
  if (start == std::string::npos) return "";
  return err.substr(start, err.find('\n', start) - start);
}

/// Names in `dir` but `keep`: what a run left behind.
std::vector<std::string> other_files(const fs::path& dir, const std::string& keep) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename() != keep) names.push_back(entry.path().filename().string());
  return names;
}

TEST_F(CliTest, JsonToAFullStdoutIsExitStatusThree) {
  server_.add_page("/");
  const auto result = run_with_full_stdout({"--json", "-", server_.url("/")});
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_EQ(error_line(result.err),
            "corocrawl: error: writing the JSON summary to stdout failed: "
            "No space left on device")
      << result.err;
  EXPECT_NE(result.err.find("PASSED"), std::string::npos);  // the report on stderr still came
}

TEST_F(CliTest, ReportToAFullStdoutIsExitStatusThree) {
  serve_site_with_a_broken_link();
  for (const auto* quiet : {"-v", "-q"}) {
    const auto result = run_with_full_stdout({quiet, server_.url("/")});
    EXPECT_EQ(result.exit_code, 3) << quiet << ": " << result.err;
    EXPECT_EQ(error_line(result.err),
              "corocrawl: error: writing the report to stdout failed: No space left on device")
        << quiet << ": " << result.err;
  }
}

TEST_F(CliTest, HelpToAFullStdoutIsExitStatusThree) {
  const auto result = run_with_full_stdout({"--help"});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(error_line(result.err),
            "corocrawl: error: writing to stdout failed: No space left on device");
}

TEST_F(CliTest, JsonToADeviceIsWrittenInPlace) {
  server_.add_page("/");
  auto result = run({"--json", "/dev/full", "--report", "none", server_.url("/")});
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_EQ(error_line(result.err),
            "corocrawl: error: writing the JSON summary to \"/dev/full\" failed: "
            "No space left on device");
  EXPECT_TRUE(fs::is_character_file("/dev/full"));

  // /dev/stdout is a link to the pipe the test reads: written through, not renamed over.
  result = run({"--json", "/dev/stdout", "--report", "none", server_.url("/")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(json::parse(result.out).at("passed"), true);
}

TEST_F(CliTest, SummaryWhoseDirectoryVanishedIsExitStatusThree) {
  auto release = std::make_shared<std::atomic<bool>>(false);
  server_.add_page("/", {"/slow"});
  server_.add_handler("/slow",
                      [release](const testing::request&) -> boost::asio::awaitable<testing::reply> {
                        while (!*release)
                          co_await testing::sleep_for(5ms);
                        co_return testing::response{};
                      });
  fs::create_directories(dir_ / "out");
  testing::child_process child{{COROCRAWL_BINARY, "--json", "out/summary.json", server_.url("/")},
                               dir_};
  ASSERT_TRUE(server_.wait_for_requests("/slow", 1, 20s));
  fs::remove_all(dir_ / "out");  // mid-crawl, after the path was checked
  *release = true;
  const auto result = child.wait(20s);
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_EQ(error_line(result.err),
            "corocrawl: error: writing the JSON summary to \"out/summary.json\" failed: "
            "No such file or directory");
  EXPECT_NE(result.out.find("PASSED"), std::string::npos);  // the report is still written
}

TEST_F(CliTest, ADirectoryAsTheSummaryIsAUsageError) {
  fs::create_directories(dir_ / "out");
  const auto result = run({"--json", "out", server_.url("/")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "corocrawl: error: --json: cannot write \"out\": Is a directory\n");
  EXPECT_EQ(server_.requests().size(), 0u);
}

TEST_F(CliTest, PreviousSummarySurvivesAKilledCrawl) {
  const std::string previous = R"({"schema":"corocrawl-summary/1","previous":true})";
  write_file("summary.json", previous);
  server_.add_page("/", {"/slow"});
  server_.add_handler("/slow", testing::never_answers());
  testing::child_process child{{COROCRAWL_BINARY, "--json", "summary.json", server_.url("/")},
                               dir_};
  ASSERT_TRUE(server_.wait_for_requests("/slow", 1, 20s));
  ASSERT_EQ(server_.requests_for("/slow"), 1u);
  child.send_signal(SIGKILL);
  EXPECT_EQ(child.wait(20s).exit_code, 128 + SIGKILL);
  EXPECT_EQ(read_file("summary.json"), previous);
  EXPECT_EQ(other_files(dir_, "summary.json"), std::vector<std::string>{});
}

TEST_F(CliTest, SummaryIsReplacedWholeWithNothingLeftBehind) {
  server_.add_page("/");
  const mode_t umask_now = ::umask(0);
  ::umask(umask_now);

  // A new file gets the permissions any new file gets.
  auto result = run({"--json", "summary.json", server_.url("/")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(json::parse(read_file("summary.json")).at("passed"), true);
  EXPECT_EQ(other_files(dir_, "summary.json"), std::vector<std::string>{});
  EXPECT_EQ(static_cast<mode_t>(fs::status(dir_ / "summary.json").permissions()),
            0666 & ~umask_now);

  // A file replaced keeps its permissions.
  fs::permissions(dir_ / "summary.json", fs::perms::owner_read | fs::perms::owner_write);
  result = run({"--json", "summary.json", server_.url("/")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(fs::status(dir_ / "summary.json").permissions(),
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(other_files(dir_, "summary.json"), std::vector<std::string>{});

  // A symlink stays a symlink: the file it names is replaced.
  fs::create_directories(dir_ / "real");
  fs::rename(dir_ / "summary.json", dir_ / "real" / "summary.json");
  fs::create_symlink("real/summary.json", dir_ / "summary.json");
  result = run({"--json", "summary.json", "--report", "none", server_.url("/")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "summary.json"));
  EXPECT_EQ(json::parse(read_file("real/summary.json")).at("passed"), true);
  EXPECT_EQ(other_files(dir_ / "real", "summary.json"), std::vector<std::string>{});
}

TEST_F(CliTest, HelpAndVersion) {
  auto result = run({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("--max-tasks"), std::string::npos);
  result = run({"--version"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_TRUE(result.out.starts_with("corocrawl ")) << result.out;
}

}  // namespace
}  // namespace corocrawl
