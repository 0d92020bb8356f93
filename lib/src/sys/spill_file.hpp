#pragma once
// A temporary file with no name, for what a large crawl would otherwise hold in memory only to
// read back at its end. Its pages are the kernel's to keep or write out (the page cache), not
// the process's; it is gone when closed, or when the process ends however it ends.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

#include "sys/unique_fd.hpp"

namespace corocrawl {

/// Logs, as a warning, that `what` cannot be spilled for `error` and stays in memory.
void warn_cannot_spill(std::string_view what, const std::error_code& error);

class spill_file {
 public:
  /// Where files are made: $TMPDIR, or /tmp when it is unset or empty.
  static std::string directory();
  /// A new file in directory(); nullopt, with `error` set, when none can be made there.
  static std::optional<spill_file> create(std::error_code& error);

  /// Writes `bytes` after what was written before, all of them, or says why not (a part may
  /// then be written: the caller no longer counts on what follows).
  std::error_code append(std::span<const std::byte> bytes) const {
    return write_all(fd_.get(), bytes);
  }
  /// Reads `into.size()` bytes from `offset`: all of them, or an error (a short file is one).
  std::error_code read_at(std::uint64_t offset, std::span<std::byte> into) const;

 private:
  explicit spill_file(unique_fd fd) : fd_(std::move(fd)) {}
  unique_fd fd_;
};

}  // namespace corocrawl
