// Crawls the roots given as arguments (URLs or local directories) with the corocrawl library
// and prints each broken URL. Exit status: 0 when the crawl passed, 1 when it did not, 2 for
// invalid arguments, 3 when the crawl could not run.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <corocrawl/crawl.hpp>
#include <corocrawl/errors.hpp>
#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: embed ROOT...\n";
    return 2;
  }
  // The library logs through spdlog's default logger: to stderr here, so that stdout carries
  // only the broken URLs.
  spdlog::set_default_logger(spdlog::stderr_color_mt("embed"));
  corocrawl::crawl_options options;
  options.roots.assign(argv + 1, argv + argc);
  try {
    const corocrawl::crawl_result result = corocrawl::run_crawl(options);
    for (const auto& link : result.broken)
      std::cout << link.url << '\n';
    return corocrawl::passed(result) ? 0 : 1;
  } catch (const corocrawl::config_error& e) {
    std::cerr << "embed: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "embed: " << e.what() << '\n';
    return 3;
  }
}
