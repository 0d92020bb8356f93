// parse_floor [--threads N] [--reading gumbo|compact|shrunk|whole|tags|tags-in-pieces]
//             [--repeat R] DIR...
//
// The floor under any crawler's HTML throughput: reads every *.html file under the DIRs into
// memory (not timed), then only parses them with gumbo on N threads, which share the files
// through one atomic index. Prints one JSON line:
// {"files":F,"bytes":B,"threads":N,"seconds":S,"mb_per_s":M} with MB = 1e6 bytes.
// --reading times the library's reference extraction (extract_references, html/links.hpp)
// in that reading instead of a bare gumbo parse (gumbo, the default); tags times the link-tag
// reader alone on the whole page (read_link_tags, html/link_tags.hpp), and tags-in-pieces the
// same reading given the page 16 KiB at a time (link_tag_stream); --repeat reads the files R
// times over (bytes counts each time).
#include <gumbo.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "html/link_tags.hpp"
#include "html/links.hpp"

namespace {

namespace fs = std::filesystem;

constexpr int exit_failure = 1;
constexpr int exit_usage = 2;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> read_html_files(const std::vector<std::string>& dirs) {
  std::vector<std::string> files;
  for (const auto& dir : dirs) {
    for (const auto& entry :
         fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied)) {
      if (entry.is_regular_file() && entry.path().extension() == ".html")
        files.push_back(read_file(entry.path()));
    }
  }
  return files;
}

void parse_all(const std::vector<std::string>& files, unsigned threads, const std::string& reading,
               std::size_t repeat) {
  // As the crawler sets it up: parse errors are not recorded (recording them costs time).
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;
  const std::size_t total = files.size() * repeat;
  const auto how = reading == "whole"    ? corocrawl::markup_reading::whole
                   : reading == "shrunk" ? corocrawl::markup_reading::shrunk
                                         : corocrawl::markup_reading::compact;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> found{0};
  const auto work = [&] {
    for (;;) {
      const auto i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= total) return;
      const std::string& file = files[i % files.size()];
      if (reading == "gumbo") {
        GumboOutput* output = gumbo_parse_with_options(&options, file.data(), file.size());
        gumbo_destroy_output(&options, output);
      } else if (reading == "tags") {
        const auto tags = corocrawl::read_link_tags(file);
        found.fetch_add(tags ? tags->count : 0, std::memory_order_relaxed);
      } else if (reading == "tags-in-pieces") {
        // As a body arrives: 16 KiB at a time (a connection's reads).
        corocrawl::link_tag_stream stream;
        constexpr std::size_t piece = 16 * 1024;
        bool going_on = true;
        for (std::size_t at = 0; going_on && at < file.size(); at += piece)
          going_on = stream.add(std::string_view(file).substr(at, piece));
        const auto tags = going_on ? stream.finish() : std::nullopt;
        found.fetch_add(tags ? tags->count : 0, std::memory_order_relaxed);
      } else {
        const auto page = corocrawl::extract_references(file, "http://example.com/a/b.html", how);
        found.fetch_add(page.references.size(), std::memory_order_relaxed);
      }
    }
  };
  std::vector<std::jthread> workers;
  for (unsigned t = 1; t < threads; ++t)
    workers.emplace_back(work);
  work();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Times gumbo parsing every *.html file under the DIRs.", "parse_floor"};
  unsigned threads = std::max(1U, std::thread::hardware_concurrency());
  std::vector<std::string> dirs;
  std::string reading = "gumbo";
  std::size_t repeat = 1;
  app.add_option("--reading", reading,
                 "What to time: a bare gumbo parse, or a reading of extract_references")
      ->check(CLI::IsMember({"gumbo", "compact", "shrunk", "whole", "tags", "tags-in-pieces"}))
      ->capture_default_str();
  app.add_option("--repeat", repeat, "Read the files this many times over")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}))
      ->capture_default_str();
  app.add_option("--threads", threads, "Parsing threads")
      ->check(CLI::Range(1U, 1024U))
      ->capture_default_str();
  app.add_option("DIR", dirs, "Directories to read *.html files from")
      ->required()
      ->check(CLI::ExistingDirectory);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : exit_usage;
  }

  try {
    const auto files = read_html_files(dirs);
    if (files.empty()) {
      std::cerr << "parse_floor: no *.html files under the given directories\n";
      return exit_usage;
    }
    std::uint64_t bytes = 0;
    for (const auto& file : files)
      bytes += file.size();
    bytes *= repeat;

    const auto start = std::chrono::steady_clock::now();
    parse_all(files, threads, reading, repeat);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;

    const double seconds = elapsed.count();
    const double mb_per_s = seconds > 0 ? static_cast<double>(bytes) / 1e6 / seconds : 0.0;
    std::printf("{\"files\":%zu,\"bytes\":%" PRIu64
                ",\"threads\":%u,\"seconds\":%.3f,\"mb_per_s\":%.1f}\n",
                files.size(), bytes, threads, seconds, mb_per_s);
    std::fflush(stdout);
  } catch (const std::exception& e) {
    std::cerr << "parse_floor: " << e.what() << '\n';
    return exit_failure;
  }
  return 0;
}
