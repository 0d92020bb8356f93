#include "progress_line.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <string_view>

namespace corocrawl::cli {
namespace {

// "\r" back to the line's start, then "erase to the end of the line".
constexpr std::string_view erase_line = "\r\x1b[K";

// The terminal's width; 80 when it cannot be read.
unsigned columns_of(int fd) {
  winsize size{};
  if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const auto written = ::write(fd, text.data(), text.size());
    if (written <= 0) return;  // a progress line is not worth failing over
    text.remove_prefix(static_cast<std::size_t>(written));
  }
}

}  // namespace

std::string progress_text(const crawl_progress& progress, unsigned columns) {
  const double seconds = progress.elapsed.count();
  const double per_second = seconds > 0 ? static_cast<double>(progress.requests) / seconds : 0.0;
  char text[160];
  std::snprintf(text, sizeof text, "%llu checked, %llu queued, %llu broken, %.0f req/s, %.1f s",
                static_cast<unsigned long long>(progress.checked),
                static_cast<unsigned long long>(progress.queued),
                static_cast<unsigned long long>(progress.broken), per_second, seconds);
  std::string line = text;
  // A line as wide as the terminal wraps, and "\r" would then redraw only its last row.
  const std::size_t fits = columns > 1 ? columns - 1 : 1;
  if (line.size() > fits) line.resize(fits);
  return line;
}

progress_line::progress_line(int fd) : fd_(fd) {}

progress_line::~progress_line() {
  if (shown_) write_all(fd_, erase_line);
}

void progress_line::show(const crawl_progress& progress) {
  write_all(fd_, std::string(erase_line) + progress_text(progress, columns_of(fd_)));
  shown_ = true;
}

}  // namespace corocrawl::cli
