// Stopping at any moment: --max-time, SIGINT and SIGTERM end a crawl of pages that take a real
// parse within a second, at whatever point they come, and always leave a complete summary
// that says what was checked and what was not. So does a crawl the environment fails midway.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "crawl_helpers.hpp"
#include "process.hpp"
#include "temp_dir.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

constexpr int kPages = 40;

// How soon a stop must end the crawl: within a second, or a few in a sanitizer's build.
constexpr auto stop_bound = testing::sanitized_build ? 8s : 1s;

// Rows of page 0: 6 MB, which takes gumbo a good while; a third of that in a sanitizer's
// build, which parses it several times slower.
constexpr int kBigPageRows = testing::sanitized_build ? 20'000 : 60'000;

// A site whose pages take a real parse: every page is read as a whole tree (a <select> keeps
// the link-tag reading away), holds 4,000 links into the others' rows (whose ids their
// fragments name), and page 0 is the big one.
void serve_site(testing::test_server& server) {
  for (int page = 0; page < kPages; ++page) {
    std::ostringstream html;
    html << "<!DOCTYPE html><title>p" << page << "</title><select></select><table>";
    const int rows = page == 0 ? kBigPageRows : 4'000;
    for (int row = 0; row < rows; ++row) {
      html << "<tr id=r" << row << "><td><a href=\"p" << (row * 7 + page) % kPages << ".html#r"
           << row % 4'000 << "\">row " << row << "</a><td><b><i>text</i></b>";
    }
    html << "</table><a href=\"missing" << page << ".html\">gone</a>";
    server.add_page("/p" + std::to_string(page) + ".html", {}, html.str());
  }
  server.add_page("/", {"/p0.html", "/p1.html"});
}

// The summary is one complete document whose parts agree with each other. Only a crawl that
// failed before it noted its root (`root_noted` false) may list no URL.
void expect_complete_summary(const std::string& text, const std::string& how,
                             bool root_noted = true) {
  SCOPED_TRACE(how);
  ASSERT_FALSE(text.empty());
  json::value doc;
  ASSERT_NO_THROW(doc = json::parse(text)) << text.substr(0, 200);
  const auto& summary = doc.as_object();
  EXPECT_EQ(summary.at("schema"), "corocrawl-summary/1");
  const auto& stats = summary.at("stats").as_object();
  const auto& checked = summary.at("urls").as_array();
  const auto& unchecked = summary.at("unchecked").as_array();
  EXPECT_EQ(stats.at("urls").as_int64(), static_cast<std::int64_t>(checked.size()));
  EXPECT_EQ(stats.at("unchecked").as_int64(), static_cast<std::int64_t>(unchecked.size()));
  std::set<std::string> seen;
  for (const auto& record : checked)
    EXPECT_TRUE(seen.insert(json::value_to<std::string>(record.at("url"))).second);
  for (const auto& left : unchecked) {
    EXPECT_TRUE(seen.insert(json::value_to<std::string>(left.at("url"))).second)
        << "checked and unchecked: " << left.at("url");
  }
  if (root_noted) {
    EXPECT_FALSE(seen.empty());  // the root is always one or the other
  }
  const bool stopped = summary.at("interrupted").as_bool() || summary.at("timed_out").as_bool();
  if (stopped) {
    EXPECT_FALSE(summary.at("passed").as_bool());
  }
}

class StopTest : public ::testing::Test {
 protected:
  void SetUp() override { serve_site(server_); }

  std::vector<std::string> command(std::vector<std::string> extra) const {
    std::vector<std::string> args = {
        COROCRAWL_BINARY, "--json", summary_.string(), "--report", "none", "--threads", "2"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(server_.url("/"));
    return args;
  }

  // How long a crawl of the site takes to its end on this machine now. The moments a test
  // stops crawls at are fractions of it, so that most of them fall inside a crawl whether the
  // machine is idle, loaded or running sanitizers.
  std::chrono::duration<double> whole_crawl_time() const {
    const auto started = clock_type::now();
    const auto run = testing::run_process(command({}), {}, 60s);
    EXPECT_FALSE(run.timed_out);
    EXPECT_EQ(run.exit_code, 1) << run.err;  // the site's missing pages
    return clock_type::now() - started;
  }

  testing::test_server server_;
  testing::temp_dir out_;
  std::filesystem::path summary_ = out_.path() / "summary.json";
};

TEST_F(StopTest, ASignalAtAnyMomentEndsTheCrawlWithinASecondWithACompleteSummary) {
  const auto whole = whole_crawl_time();
  int stopped_midway = 0;
  for (int i = 0; i < 10; ++i) {
    const auto after = std::chrono::duration_cast<std::chrono::milliseconds>(whole * i * 0.06);
    const int signal = i % 2 == 0 ? SIGINT : SIGTERM;
    std::filesystem::remove(summary_);
    const auto before = server_.requests_for("/");
    testing::child_process crawl(command({}));
    // The root asked for once more: the crawler started is crawling, its signals handled.
    if (!server_.wait_for_requests("/", before + 1, 30s)) {
      const auto run = crawl.wait(1s);  // then killed: what it said, and how it ended
      FAIL() << "the crawler never asked for /: exit status " << run.exit_code << "\n" << run.err;
    }
    std::this_thread::sleep_for(after);
    crawl.send_signal(signal);
    const auto signalled = clock_type::now();
    const auto run = crawl.wait(60s);
    const auto took = clock_type::now() - signalled;
    const std::string how = "signal " + std::to_string(signal) + " " +
                            std::to_string(after.count()) + " ms into the crawl";
    ASSERT_FALSE(run.timed_out) << how;
    EXPECT_LT(took, stop_bound) << how;
    EXPECT_TRUE(run.exit_code == 130 || run.exit_code == 1) << how << ": " << run.exit_code << "\n"
                                                            << run.err;
    if (run.exit_code == 130) ++stopped_midway;
    expect_complete_summary(out_.read("summary.json"), how);
  }
  EXPECT_GE(stopped_midway, 5);  // the crawl takes longer than most of the moments tried
}

// Once the crawl is over, the reports are written: a signal then has nothing left to stop,
// and the summary must still come whole (the default action ended the process mid-summary,
// exit status 143, no summary). The moment is the summary's temporary file being created,
// seen with inotify: the second file made in the output folder (the first is the check of
// the path before the crawl, removed at once).
TEST_F(StopTest, ASignalWhileTheSummaryIsWrittenLetsItFinish) {
  for (const int signal : {SIGTERM, SIGINT}) {
    std::filesystem::remove(summary_);
    const int watch = ::inotify_init1(IN_CLOEXEC);
    ASSERT_GE(watch, 0);
    ASSERT_GE(::inotify_add_watch(watch, out_.path().c_str(), IN_CREATE), 0);
    testing::child_process crawl(command({}));
    int created = 0;
    alignas(inotify_event) char events[4096];
    while (created < 2) {
      const auto got = ::read(watch, events, sizeof events);
      ASSERT_GT(got, 0);
      for (auto at = events; at < events + got;) {
        const auto* event = reinterpret_cast<const inotify_event*>(at);
        if ((event->mask & IN_CREATE) != 0) ++created;
        at += sizeof(inotify_event) + event->len;
      }
    }
    crawl.send_signal(signal);
    ::close(watch);
    const auto run = crawl.wait(60s);
    const std::string how = "signal " + std::to_string(signal) + " as the summary is written";
    ASSERT_FALSE(run.timed_out) << how;
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << how << ": " << run.exit_code << "\n"
                                                          << run.err;
    expect_complete_summary(out_.read("summary.json"), how);
  }
}

TEST_F(StopTest, MaxTimeAtAnyMomentEndsTheCrawlWithACompleteSummary) {
  const auto whole = whole_crawl_time();
  int stopped_midway = 0;
  for (int i = 0; i < 8; ++i) {
    const double limit = std::max(0.01, whole.count() * (0.05 + i * 0.065));
    std::filesystem::remove(summary_);
    const auto started = clock_type::now();
    const auto run = testing::run_process(command({"--max-time", std::to_string(limit)}), {}, 60s);
    const auto took = clock_type::now() - started;
    const std::string how = "--max-time " + std::to_string(limit);
    ASSERT_FALSE(run.timed_out) << how;
    EXPECT_EQ(run.exit_code, 1) << how << "\n" << run.err;  // broken links, or the time ran out
    EXPECT_LT(took, std::chrono::duration<double>(limit) + stop_bound) << how;
    const auto text = out_.read("summary.json");
    expect_complete_summary(text, how);
    if (json::parse(text).at("timed_out").as_bool()) ++stopped_midway;
  }
  EXPECT_GE(stopped_midway, 5);
}

// corocrawl with `args` under the shell's resource limit `how` ("ulimit -v 65536").
testing::process_result run_limited(const std::string& how, std::vector<std::string> args,
                                    std::chrono::seconds within) {
  args.insert(args.begin(), COROCRAWL_BINARY);
  return testing::run_in_shell(how + " && exec \"$@\"", args, {}, within);
}

// Fewer descriptors than a crawl of `root` (a site with nothing broken) needs: at every
// limit the crawler refuses to start with one line (exit 3), or crawls, or fails midway; it
// never crashes or reports a link broken, and when it crawled at all its summary is
// complete. Some limit leaves no descriptor for a connection: the crawl fails midway, says
// why, and still writes what it knows.
void expect_descriptor_limits_kept(const std::string& root) {
  testing::temp_dir out;
  const auto summary = out.path() / "summary.json";
  bool failed_midway = false;
  for (int limit = 4; limit <= 40; ++limit) {
    std::filesystem::remove(summary);
    const std::string how = "ulimit -n " + std::to_string(limit);
    const auto run = run_limited(
        how, {"--timeout", "0.5", "--report", "none", "--json", summary.string(), root}, 30s);
    ASSERT_FALSE(run.timed_out) << how;
    // With descriptors inherited from the test runner, the lowest limits leave none for the
    // dynamic loader, before corocrawl runs at all.
    if (run.err.find("error while loading shared libraries") != std::string::npos) continue;
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 3) << how << ": " << run.exit_code << "\n"
                                                          << run.err;
    if (!std::filesystem::exists(summary)) {
      EXPECT_EQ(run.exit_code, 3) << how;
      EXPECT_NE(run.err.find("corocrawl: error: "), std::string::npos) << how;
      continue;
    }
    const auto text = out.read("summary.json");
    expect_complete_summary(text, how);
    const auto doc = json::parse(text);
    if (run.exit_code == 3) {
      EXPECT_NE(run.err.find("the crawl could not go on: no file descriptor"), std::string::npos)
          << how << "\n"
          << run.err;
      EXPECT_EQ(run.err.find("go on"), run.err.rfind("go on")) << how << ": said twice\n"
                                                               << run.err;
      EXPECT_FALSE(doc.at("failure").is_null()) << how;
      EXPECT_FALSE(doc.at("passed").as_bool()) << how;
      failed_midway = true;
    } else {
      EXPECT_TRUE(doc.at("passed").as_bool()) << how;
    }
  }
  EXPECT_TRUE(failed_midway);
}

TEST(DescriptorLimitTest, TooFewDescriptorsNeverCrashOrLoseTheSummary) {
  if (testing::sanitized_build) GTEST_SKIP() << "the sanitizers' runtimes need descriptors too";
  testing::test_server server;
  server.add_page("/", {"/a", "/b"});
  server.add_page("/a");
  server.add_page("/b");
  expect_descriptor_limits_kept(server.url("/"));
}

// A folder's server short of descriptors for a file or a connection answers 503 or closes
// the connection: the crawl fails (exit 3), and no file there is reported missing.
TEST(DescriptorLimitTest, AFolderServerShortOfDescriptorsFailsTheCrawlNotTheSite) {
  if (testing::sanitized_build) GTEST_SKIP() << "the sanitizers' runtimes need descriptors too";
  testing::temp_dir site;
  std::string index = "<!DOCTYPE html><title>index</title>";
  for (int page = 0; page < 12; ++page) {
    const std::string name = "page" + std::to_string(page) + ".html";
    index += "<a href=\"" + name + "\">" + name + "</a>";
    site.write(name, "<!DOCTYPE html><title>page</title><a href=\"index.html\">home</a>");
  }
  site.write("index.html", index);
  expect_descriptor_limits_kept(site.path().string());
}

// Too little memory (an address space limit, ulimit -v): from limits too low to start at all
// up to one the crawl fits in, the crawler ends with one line (exit 3), or fails midway and
// says so, or crawls; it never hangs or crashes, and a summary it writes is complete. Pages of
// 1.5 MB, 16 read at once, make the memory run out while bodies are read.
TEST(MemoryLimitTest, TooLittleMemoryNeverHangsAndKeepsWhatItCan) {
  if (testing::sanitized_build) GTEST_SKIP() << "the sanitizers' runtimes map terabytes";
  testing::test_server server;
  constexpr int pages = 24;
  std::vector<std::string> links;
  for (int page = 0; page < pages; ++page) {
    const std::string path = "/big" + std::to_string(page) + ".html";
    links.push_back(path);
    std::string body = "<!DOCTYPE html><title>big</title>";
    while (body.size() < 1'500'000)
      body += "<p id=p" + std::to_string(body.size()) + ">words <a href=\"/\">home</a> words</p>";
    server.add_page(path, {}, body);
  }
  server.add_page("/", links);
  testing::temp_dir out;
  const auto summary = out.path() / "summary.json";
  bool failed_midway = false;
  bool crawled = false;
  for (int megabytes = 16; megabytes <= 512 && !crawled; megabytes += 4) {
    std::filesystem::remove(summary);
    const std::string how = "ulimit -v " + std::to_string(megabytes * 1024);
    const auto run =
        run_limited(how, {"--report", "none", "--json", summary.string(), server.url("/")}, 60s);
    ASSERT_FALSE(run.timed_out) << how;
    // The lowest limits leave the dynamic loader no room to map corocrawl's libraries.
    if (run.exit_code == 127) continue;
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 3) << how << ": " << run.exit_code << "\n"
                                                          << run.err;
    if (run.exit_code == 0) {
      crawled = true;
      expect_complete_summary(out.read("summary.json"), how);
      continue;
    }
    // The error says why (memory, or no thread could start), in corocrawl's lines only (no
    // abort, no trace); with a summary, they and the summary say the crawl failed midway.
    std::istringstream lines(run.err);
    int count = 0;
    for (std::string line; std::getline(lines, line); ++count)
      EXPECT_TRUE(line.starts_with("corocrawl: ")) << how << "\n" << run.err;
    EXPECT_GE(count, 1) << how;
    EXPECT_TRUE(run.err.find("out of memory") != std::string::npos ||
                run.err.find("cannot start a thread") != std::string::npos)
        << how << "\n"
        << run.err;
    if (!std::filesystem::exists(summary)) continue;
    const auto text = out.read("summary.json");
    expect_complete_summary(text, how, false);
    const auto doc = json::parse(text);
    EXPECT_EQ(doc.at("failure"), "out of memory") << how;
    EXPECT_FALSE(doc.at("passed").as_bool()) << how;
    EXPECT_NE(run.err.find("the crawl could not go on: out of memory"), std::string::npos) << how;
    EXPECT_EQ(run.err.find("go on"), run.err.rfind("go on")) << how << ": said twice\n" << run.err;
    failed_midway = true;
  }
  EXPECT_TRUE(crawled);
  EXPECT_TRUE(failed_midway);
}

// The same for a folder, which a server thread of the crawler's serves, with a link to a host
// name on each page: the folder's server, Asio's resolver thread and glibc's name service
// (which, in 2.36, crashes when its first lookup cannot allocate) all meet the limit too.
// It never hangs or calls a file of the folder broken.
TEST(MemoryLimitTest, AFolderWithHostNamesNeverHangsOrBlamesTheFolder) {
  if (testing::sanitized_build) GTEST_SKIP() << "the sanitizers' runtimes map terabytes";
  testing::test_server named;  // reached as localhost, a name /etc/hosts answers
  named.add_page("/");
  const std::string named_url = "http://localhost:" + std::to_string(named.port()) + "/";
  testing::temp_dir site;
  std::string index = "<!DOCTYPE html><title>index</title>";
  for (int page = 0; page < 24; ++page) {
    const std::string name = "big" + std::to_string(page) + ".html";
    index += "<a href=\"" + name + "\">" + name + "</a>";
    std::string body = "<!DOCTYPE html><title>big</title><a href=\"" + named_url + "\">named</a>";
    while (body.size() < 1'500'000)
      body +=
          "<p id=p" + std::to_string(body.size()) + ">words <a href=\"index.html\">home</a></p>";
    site.write(name, body);
  }
  site.write("index.html", index);
  testing::temp_dir out;
  const auto summary = out.path() / "summary.json";
  bool crawled = false;
  for (int megabytes = 16; megabytes <= 512 && !crawled; megabytes += 2) {
    std::filesystem::remove(summary);
    const std::string how = "ulimit -v " + std::to_string(megabytes * 1024);
    const auto run = run_limited(
        how, {"--report", "none", "--json", summary.string(), site.path().string()}, 60s);
    ASSERT_FALSE(run.timed_out) << how;
    if (run.exit_code == 127) continue;
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 3) << how << ": " << run.exit_code << "\n"
                                                          << run.err;
    crawled = run.exit_code == 0;
    if (std::filesystem::exists(summary))
      expect_complete_summary(out.read("summary.json"), how, crawled);
  }
  EXPECT_TRUE(crawled);
}

}  // namespace
}  // namespace corocrawl
