// gen_site --pages N --out DIR [--min-bytes A --max-bytes B]
//
// Writes the synthetic benchmark site (synthetic_site.hpp) as files: DIR/index.html and
// DIR/s<d>/p<i>.html. Page files of an earlier, larger site in DIR are removed, so DIR holds
// exactly this site and running it twice gives the same tree. Prints one JSON line:
// {"pages":N,"urls":U,"broken":K,"bytes":B} — the distinct URLs and broken URLs a crawl from
// "/" sees, and the bytes written.
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <system_error>

#include "shape_options.hpp"
#include "synthetic_site.hpp"

namespace {

namespace fs = std::filesystem;
using corocrawl::bench::site_shape;

using corocrawl::bench::add_shape_options;
using corocrawl::bench::exit_failure;

// One open/write/close per page: no stream buffering to copy through, nothing flushed twice.
void write_file(const fs::path& path, std::string_view data) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    throw std::system_error(errno, std::generic_category(), "cannot open " + path.string());
  while (!data.empty()) {
    const auto written = ::write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      throw std::system_error(error, std::generic_category(), "cannot write " + path.string());
    }
    data.remove_prefix(static_cast<std::size_t>(written));
  }
  if (::close(fd) != 0)
    throw std::system_error(errno, std::generic_category(), "cannot write " + path.string());
}

bool is_decimal(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// Removes page files ("s<d>/p<i>.html") that are not pages of this site, and shard
// directories left empty by that. Nothing else in `out` is touched.
void remove_stale_pages(const fs::path& out, std::uint64_t pages) {
  for (const auto& dir : fs::directory_iterator(out)) {
    const std::string dir_name = dir.path().filename().string();
    if (!dir.is_directory() || !dir_name.starts_with('s') || !is_decimal(dir_name.substr(1)))
      continue;
    bool empty = true;
    for (const auto& file : fs::directory_iterator(dir.path())) {
      const std::string name = file.path().filename().string();
      const bool page_like = name.starts_with('p') && name.ends_with(".html") &&
                             is_decimal(std::string_view(name).substr(1, name.size() - 6));
      if (page_like && file.is_regular_file() &&
          !corocrawl::bench::page_index("/" + dir_name + "/" + name, pages)) {
        fs::remove(file.path());
      } else {
        empty = false;
      }
    }
    if (empty) fs::remove(dir.path());
  }
}

std::uint64_t write_site(const site_shape& shape, const fs::path& out) {
  fs::create_directories(out);
  remove_stale_pages(out, shape.pages);
  std::string page;
  fs::path last_dir;
  std::uint64_t bytes = 0;
  for (std::uint64_t index = 0; index < shape.pages; ++index) {
    const fs::path file = out / corocrawl::bench::page_file(index);
    if (file.parent_path() != last_dir) {
      fs::create_directories(file.parent_path());
      last_dir = file.parent_path();
    }
    page.clear();
    corocrawl::bench::append_synthetic_page(page, index, shape);
    write_file(file, page);
    bytes += page.size();
  }
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Writes the synthetic benchmark site as HTML files.", "gen_site"};
  site_shape shape;
  std::string out;
  add_shape_options(app, shape);
  app.add_option("--out", out, "Directory to write the site to")->required();
  if (const auto status = corocrawl::bench::parse_or_exit(app, argc, argv, shape, "gen_site"))
    return *status;
  try {
    const auto bytes = write_site(shape, out);
    const auto expectation = corocrawl::bench::expected(shape);
    if (bytes != expectation.bytes) {
      std::cerr << "gen_site: wrote " << bytes << " bytes but the site model says "
                << expectation.bytes << '\n';
      return exit_failure;
    }
    std::cout << "{\"pages\":" << shape.pages << ",\"urls\":" << expectation.urls
              << ",\"broken\":" << expectation.broken << ",\"bytes\":" << bytes << "}" << std::endl;
  } catch (const std::exception& e) {
    std::cerr << "gen_site: " << e.what() << '\n';
    return exit_failure;
  }
  return 0;
}
