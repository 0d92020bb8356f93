#pragma once
// Writing a report or summary so that a failed write is never silent and a crash never leaves
// a half-written file in place of the previous one.

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <system_error>

namespace corocrawl {

/// A write that failed: target() names the file (as given) or "stdout"/"stderr", code() holds
/// the system's reason (code().message() is strerror's text).
class output_error : public std::system_error {
 public:
  output_error(std::string target, std::error_code reason);
  const std::string& target() const { return target_; }

 private:
  std::string target_;
};

/// Checks, before a long crawl, that output_file(path) will be able to write `path`: for a
/// regular file (or a new one) that a temporary file can be made next to it and that an
/// existing file is writable; for anything else (a device, a FIFO) that it is writable.
/// Leaves nothing behind. Throws output_error.
void check_output_path(const std::filesystem::path& path);

/// One report or summary being written. A regular file (or a path that does not exist yet) is
/// written to a fresh temporary file in the same directory and renamed over the target by
/// commit(), so the previous file stays whole until the new one is complete; a symlink to a
/// regular file has its target replaced, the link kept. The new file gets the old one's
/// permissions, or those of a normal create (0666 less the umask). Anything else (a device
/// such as /dev/full or /dev/stdout, a FIFO) is opened and written directly. Destroyed without
/// commit(), the temporary file is removed and the target left as it was.
class output_file {
 public:
  /// Throws output_error when the file cannot be created.
  explicit output_file(const std::filesystem::path& path);
  /// Writes to `fd` (not closed) through a buffer; `name` ("stdout") names it in errors.
  output_file(int fd, std::string name);
  ~output_file();
  output_file(output_file&&) noexcept;
  output_file& operator=(output_file&&) noexcept;

  /// Where to write. A failed write sets badbit; the error is reported by commit().
  std::ostream& stream();

  /// Flushes everything written and, for a temporary file, syncs it to disk and renames it
  /// over the target. Throws output_error naming the first failure (a write, fsync, close or
  /// rename) with its errno.
  void commit();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace corocrawl
