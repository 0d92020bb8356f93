/*
 * corocrawl: crawls a website (a URL, or a local folder of built HTML) with many concurrent
 * requests and reports what it found: a human report on stdout, a JSON summary for CI, and
 * an exit status CI can act on (0 nothing broken, 1 something broken or --max-time reached,
 * 2 usage or config error, 130 interrupted).
 *
 * This file is a thin shell: parse the command line, set up logging, run the library's
 * crawl, write the outputs.
 */
#include <malloc.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli.hpp"
#include "corocrawl/crawl.hpp"
#include "corocrawl/errors.hpp"
#include "corocrawl/report.hpp"

namespace {

constexpr int exit_passed = 0;
constexpr int exit_broken = 1;
constexpr int exit_usage = 2;
constexpr int exit_internal = 3;
constexpr int exit_interrupted = 130;

void set_up_logging(corocrawl::verbosity verbosity) {
  auto logger = spdlog::stderr_color_mt("corocrawl");
  logger->set_pattern("corocrawl: %^%l%$: %v");
  switch (verbosity) {
    case corocrawl::verbosity::quiet:
      logger->set_level(spdlog::level::err);
      break;
    case corocrawl::verbosity::info:
      logger->set_level(spdlog::level::info);
      break;
    case corocrawl::verbosity::debug:
      logger->set_level(spdlog::level::debug);
      break;
    case corocrawl::verbosity::trace:
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

}  // namespace

int main(int argc, char** argv) {
  corocrawl::settings settings;
  try {
    auto parsed =
        corocrawl::cli::parse_command_line({argv + 1, argv + argc}, std::filesystem::current_path(),
                                           corocrawl::cli::process_environment());
    if (const auto* done = std::get_if<corocrawl::cli::early_exit>(&parsed)) {
      std::cout << done->text;
      return done->code;
    }
    settings = std::move(std::get<corocrawl::settings>(parsed));
  } catch (const corocrawl::config_error& e) {
    return fail(exit_usage, e.what());
  }

  // Open the summary file before crawling, so a bad path fails at once.
  const bool json_to_stdout = settings.json_path == "-";
  std::ofstream json_file;
  if (settings.json_path && !json_to_stdout) {
    json_file.open(*settings.json_path, std::ios::binary | std::ios::trunc);
    if (!json_file)
      return fail(exit_usage,
                  "--json: cannot write \"" + *settings.json_path + "\": " + std::strerror(errno));
  }

  set_up_logging(settings.verbosity);
  raise_open_file_limit();
  use_one_heap();
  settings.crawl.stop_on_signals = true;
  corocrawl::crawl_result result;
  try {
    result = corocrawl::run_crawl(settings.crawl);
  } catch (const corocrawl::config_error& e) {
    return fail(exit_usage, e.what());
  } catch (const std::exception& e) {
    return fail(exit_internal, std::string("crawl could not run: ") + e.what());
  }

  if (settings.json_path)
    corocrawl::write_json_summary(json_to_stdout ? std::cout : json_file, result, settings.crawl);
  if (settings.report == corocrawl::report_mode::text) {
    // stdout belongs to the JSON document when it is written there.
    corocrawl::write_text_report(json_to_stdout ? std::cerr : std::cout, result, settings.crawl,
                                 settings.verbosity == corocrawl::verbosity::quiet);
  }
  std::cout.flush();
  if (json_file.is_open() && !json_file.flush())
    return fail(exit_internal, "--json: writing \"" + *settings.json_path + "\" failed");

  if (result.interrupted) return exit_interrupted;
  return corocrawl::passed(result, settings.crawl.fail_on_rate_limit) ? exit_passed : exit_broken;
}
