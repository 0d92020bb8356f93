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
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli.hpp"
#include "corocrawl/crawl.hpp"
#include "corocrawl/errors.hpp"
#include "corocrawl/output_file.hpp"
#include "corocrawl/report.hpp"
#include "corocrawl/utf8.hpp"

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

void set_up_logging(corocrawl::cli::verbosity verbosity) {
  auto logger = spdlog::stderr_color_mt("corocrawl");
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<printable_message>('*').set_pattern("corocrawl: %^%l%$: %*");
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

// One malloc heap for all threads: the parse threads build their trees in arenas of their own
// and allocate little else, and a heap per thread would keep its freed pages (~15% of peak
// memory on the Python docs).
void use_one_heap() {
  mallopt(M_ARENA_MAX, 1);
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

// Writes `what` ("the JSON summary", or "" to say nothing) to `target`; false, with one line on
// stderr naming the target and the system's reason, when any part of it could not be written.
bool write_output(std::string_view what, const output_target& target,
                  const std::function<void(std::ostream&)>& write) {
  try {
    auto file = target.path ? corocrawl::output_file(*target.path)
                            : corocrawl::output_file(target.fd, target.name());
    write(file.stream());
    file.commit();
    return true;
  } catch (const corocrawl::output_error& e) {
    const std::string written_what = what.empty() ? "" : std::string(what) + " ";
    fail(exit_internal,
         "writing " + written_what + "to " + target.shown() + " failed: " + e.code().message());
    return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  corocrawl::cli::settings settings;
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
  } catch (const corocrawl::config_error& e) {
    return fail(exit_usage, e.what());
  }

  // Check the summary's path before crawling, so a bad path fails at once.
  const bool json_to_stdout = settings.json_path == "-";
  if (settings.json_path && !json_to_stdout) {
    try {
      corocrawl::check_output_path(*settings.json_path);
    } catch (const corocrawl::output_error& e) {
      return fail(exit_usage,
                  "--json: cannot write \"" + *settings.json_path + "\": " + e.code().message());
    }
  }

  set_up_logging(settings.verbosity);
  raise_open_file_limit();
  use_one_heap();
  corocrawl::crawl_result result;
  try {
    result = corocrawl::run_crawl(*settings.plan);
  } catch (const corocrawl::config_error& e) {
    return fail(exit_usage, e.what());
  } catch (const std::exception& e) {
    return fail(exit_internal, std::string("crawl could not run: ") + e.what());
  }

  bool written = true;
  if (settings.json_path) {
    const auto target = json_to_stdout ? output_target::standard(STDOUT_FILENO)
                                       : output_target::file(*settings.json_path);
    written = write_output("the JSON summary", target, [&](std::ostream& out) {
      corocrawl::write_json_summary(out, result, settings.crawl);
    });
  }
  if (settings.report == corocrawl::cli::report_mode::text) {
    // stdout belongs to the JSON document when it is written there.
    const auto target = output_target::standard(json_to_stdout ? STDERR_FILENO : STDOUT_FILENO);
    written &= write_output("the report", target, [&](std::ostream& out) {
      corocrawl::write_text_report(out, result, settings.crawl,
                                   settings.verbosity == corocrawl::cli::verbosity::quiet);
    });
  }
  // CI must not take a missing or cut summary for a verdict.
  if (!written) return exit_internal;
  if (result.failure) return fail(exit_internal, "the crawl could not go on: " + *result.failure);

  if (result.interrupted) return exit_interrupted;
  return corocrawl::passed(result, settings.crawl.fail_on_rate_limit) ? exit_passed : exit_broken;
}
