/*
 * corocrawl: crawls a website (a URL, or a local folder of built HTML) with many concurrent
 * requests and reports what it found: a human report on stdout, a JSON summary for CI, and
 * an exit status CI can act on (0 nothing broken, 1 something broken or --max-time reached,
 * 2 usage or config error, 3 the crawl could not run or an output could not be written,
 * 130 interrupted).
 *
 * This file is a thin shell: parse the command line, set up logging, run the library's
 * crawl, write the outputs.
 */
#include <malloc.h>
#include <signal.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "corocrawl/crawl.hpp"
#include "corocrawl/errors.hpp"
#include "corocrawl/output_file.hpp"
#include "corocrawl/report.hpp"
#include "corocrawl/utf8.hpp"
#include "outputs.hpp"
#include "progress_line.hpp"

namespace {

constexpr int exit_passed = 0;
constexpr int exit_broken = 1;
constexpr int exit_usage = 2;
constexpr int exit_internal = 3;  // the crawl could not run, or an output was not written
constexpr int exit_interrupted = 130;

// A log message as a terminal may show it: messages quote servers (a Location header, a
// proxy's answer), whose control characters must not reach the terminal.
class printable_message final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    const auto text = corocrawl::to_terminal_text({msg.payload.data(), msg.payload.size()});
    dest.append(text.data(), text.data() + text.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<printable_message>();
  }
};

// `over_progress`: each message first erases the progress line, which is redrawn after it.
void set_up_logging(corocrawl::cli::verbosity verbosity, bool over_progress) {
  auto logger = spdlog::stderr_color_mt("corocrawl");
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<printable_message>('*').set_pattern(
      std::string(over_progress ? "\r\x1b[K" : "") + "corocrawl: %^%l%$: %*");
  logger->set_formatter(std::move(formatter));
  switch (verbosity) {
    case corocrawl::cli::verbosity::quiet:
      logger->set_level(spdlog::level::err);
      break;
    case corocrawl::cli::verbosity::info:
      logger->set_level(spdlog::level::info);
      break;
    case corocrawl::cli::verbosity::debug:
      logger->set_level(spdlog::level::debug);
      break;
    case corocrawl::cli::verbosity::trace:
      logger->set_level(spdlog::level::trace);
      break;
  }
  spdlog::set_default_logger(std::move(logger));
}

// Each worker holds a socket: lift the soft limit on open files to the hard one.
void raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// Two malloc heaps: the event loop's thread and a parse thread each have one, rather than
// taking turns at one lock (on 2 cores, waits for it were 5,000 of the 5,800 times a
// 10k-page crawl's threads went to sleep). A heap gives back what is freed at its top past
// 512 KiB, and parse_pool trims after a big page, so the second heap's freed pages add
// little to the peak. Setting the trim threshold also fixes glibc's mmap threshold, past
// which each body would be mapped, faulted in a page at a time and unmapped when freed:
// bodies up to 512 KiB come from the heaps, and one body's memory serves the next. On the
// Python docs that halves the page faults and takes 6% off the wall time, for about 0.5 MiB
// more peak (docs/benchmarks.md).
void tune_malloc() {
  mallopt(M_ARENA_MAX, 2);
  mallopt(M_TRIM_THRESHOLD, 512 * 1024);
  mallopt(M_MMAP_THRESHOLD, 512 * 1024);
}

// While the reports are written, after the crawl (whose signal handling ended with it): a
// SIGINT or SIGTERM has nothing left to stop and lets them finish, for a summary cut short
// would be lost (the default action ended the process at once, exit status 143, no summary);
// a second one ends the process at once, as during the crawl.
volatile std::sig_atomic_t signalled_while_reporting = 0;

extern "C" void on_signal_while_reporting(int) {
  if (signalled_while_reporting != 0) std::_Exit(exit_interrupted);
  signalled_while_reporting = 1;
}

void finish_reports_through_signals() {
  struct sigaction action {};
  action.sa_handler = on_signal_while_reporting;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // the reports' writes go on
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

// Whether a stream is a terminal a person watches: colours and a progress line are for them.
bool is_terminal(int fd) {
  return fd >= 0 && isatty(fd) == 1;
}

bool shows_progress(const corocrawl::cli::settings& s) {
  using corocrawl::cli::when;
  return s.progress == when::always ||
         (s.progress == when::automatic && is_terminal(STDERR_FILENO));
}

// `fd`: the terminal the report goes to, -1 for a file.
bool uses_color(const corocrawl::cli::settings& s, int fd) {
  using corocrawl::cli::when;
  return s.color == when::always || (s.color == when::automatic && !s.no_color && is_terminal(fd));
}

corocrawl::text_detail text_detail_of(const corocrawl::cli::settings& s) {
  if (s.report == corocrawl::cli::report_mode::full) return corocrawl::text_detail::full;
  if (s.verbosity == corocrawl::cli::verbosity::quiet) return corocrawl::text_detail::brief;
  return corocrawl::text_detail::problems;
}

int fail(int status, std::string_view message) {
  std::cerr << "corocrawl: error: " << message << '\n';
  return status;
}

// Where an output goes: a file (replaced whole when done) or a standard stream.
struct output_target {
  std::optional<std::filesystem::path> path;
  int fd = STDOUT_FILENO;

  static output_target file(std::filesystem::path path) { return {std::move(path)}; }
  static output_target standard(int fd) { return {std::nullopt, fd}; }
  std::string name() const {
    return path ? path->string() : fd == STDERR_FILENO ? "stderr" : "stdout";
  }
  std::string shown() const { return path ? "\"" + path->string() + "\"" : name(); }
};

bool cannot_write(std::string_view what, const output_target& target, std::string_view reason) {
  const std::string written_what = what.empty() ? "" : std::string(what) + " ";
  fail(exit_internal,
       "writing " + written_what + "to " + target.shown() + " failed: " + std::string(reason));
  return false;
}

// Writes `what` ("the json report", or "" to say nothing) to `target`; false, with one line on
// stderr naming the target and the system's reason, when any part of it could not be written
// (memory included: the file is then left as it was).
bool write_output(std::string_view what, const output_target& target,
                  const std::function<void(std::ostream&)>& write) {
  try {
    auto file = target.path ? corocrawl::output_file(*target.path)
                            : corocrawl::output_file(target.fd, target.name());
    write(file.stream());
    file.commit();
    return true;
  } catch (const corocrawl::output_error& e) {
    return cannot_write(what, target, e.code().message());
  } catch (const std::bad_alloc&) {
    return cannot_write(what, target, "out of memory");
  }
}

// Writes `request`'s report of `result`; false (with one line on stderr) when it could not be
// written whole.
bool write_request(const corocrawl::cli::output_request& request,
                   const corocrawl::crawl_result& result, const corocrawl::cli::settings& settings,
                   const corocrawl::page_locator& locate) {
  using corocrawl::report_format;
  const auto target =
      request.path
          ? output_target::file(*request.path)
          : output_target::standard(request.stream == corocrawl::cli::stream::err ? STDERR_FILENO
                                                                                  : STDOUT_FILENO);
  const bool fail_on_rate_limit = settings.crawl.fail_on_rate_limit;
  return write_output(corocrawl::cli::output_name(request.format), target, [&](std::ostream& out) {
    switch (request.format) {
      case report_format::text:
        corocrawl::write_text_report(out, result, settings.crawl,
                                     {.detail = text_detail_of(settings),
                                      .color = uses_color(settings, request.path ? -1 : target.fd),
                                      .locate = locate});
        break;
      case report_format::json:
        corocrawl::write_json_summary(out, result, settings.crawl);
        break;
      case report_format::junit:
        corocrawl::write_junit_report(out, result, fail_on_rate_limit, locate);
        break;
      case report_format::markdown:
        corocrawl::write_markdown_report(out, result, fail_on_rate_limit, locate);
        break;
      case report_format::github:
        corocrawl::write_github_annotations(out, result, locate);
        break;
      case report_format::sarif:
        corocrawl::write_sarif_report(out, result, locate);
        break;
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  corocrawl::cli::settings settings;
  std::vector<corocrawl::cli::output_request> outputs;
  try {
    auto parsed =
        corocrawl::cli::parse_command_line({argv + 1, argv + argc}, std::filesystem::current_path(),
                                           corocrawl::cli::process_environment());
    if (const auto* done = std::get_if<corocrawl::cli::early_exit>(&parsed)) {
      const bool written = write_output("", output_target::standard(STDOUT_FILENO),
                                        [&](std::ostream& out) { out << done->text; });
      return written ? done->code : exit_internal;
    }
    settings = std::move(std::get<corocrawl::cli::settings>(parsed));
    outputs = corocrawl::cli::output_requests(settings);
  } catch (const corocrawl::config_error& e) {
    return fail(exit_usage, e.what());
  }

  // Check every output's path before crawling, so a bad path fails at once.
  for (const auto& request : outputs) {
    if (!request.path) continue;
    try {
      corocrawl::check_output_path(*request.path);
    } catch (const corocrawl::output_error& e) {
      return fail(exit_usage, std::string(request.option) + ": cannot write \"" + *request.path +
                                  "\": " + e.code().message());
    }
  }

  const bool progress_shown = shows_progress(settings);
  set_up_logging(settings.verbosity, progress_shown);
  raise_open_file_limit();
  tune_malloc();
  corocrawl::crawl_result result;
  try {
    std::optional<corocrawl::cli::progress_line> progress;
    corocrawl::progress_listener listener;
    if (progress_shown) {
      progress.emplace(STDERR_FILENO);
      listener.on_progress = [&progress](const corocrawl::crawl_progress& now) {
        progress->show(now);
      };
    }
    result = corocrawl::run_crawl(*settings.plan, listener);
  } catch (const corocrawl::config_error& e) {
    return fail(exit_usage, e.what());
  } catch (const std::bad_alloc&) {
    // At the start, or while the result was made after the crawl failed for memory.
    return fail(exit_internal, "out of memory: no report could be made");
  } catch (const std::exception& e) {
    return fail(exit_internal, std::string("crawl could not run: ") + e.what());
  }

  if (settings.crawl.stop_on_signals) finish_reports_through_signals();
  const auto locate = corocrawl::report_locator(result, std::filesystem::current_path());
  bool written = true;
  for (const auto& request : outputs)
    written &= write_request(request, result, settings, locate);
  // CI must not take a missing or cut summary for a verdict.
  if (!written) return exit_internal;
  if (result.failure) return fail(exit_internal, "the crawl could not go on: " + *result.failure);

  if (result.interrupted) return exit_interrupted;
  return corocrawl::passed(result, settings.crawl.fail_on_rate_limit) ? exit_passed : exit_broken;
}
