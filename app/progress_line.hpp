#pragma once
// The status line a long crawl shows on a terminal: redrawn in place on stderr, erased at the
// end, so it never mixes with the report.

#include <string>

#include "corocrawl/crawl.hpp"

namespace corocrawl::cli {

/// "1,204 checked, 311 queued, 2 broken, 340 req/s, 12.5 s", cut to `columns` (at least 1).
std::string progress_text(const crawl_progress& progress, unsigned columns);

/// Draws progress lines on the terminal behind `fd`; erases the last one when destroyed.
class progress_line {
 public:
  explicit progress_line(int fd);
  ~progress_line();
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;

  /// Replaces the line shown by `progress`'s.
  void show(const crawl_progress& progress);

 private:
  int fd_;
  bool shown_ = false;
};

}  // namespace corocrawl::cli
