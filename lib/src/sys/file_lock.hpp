#pragma once
// An exclusive advisory lock on a file (flock(2)), held by an object and released with it: it
// serialises the processes that read, merge and replace one shared file. The lock file itself
// is never removed, since removing it would let two processes lock two different files.

#include <fcntl.h>
#include <sys/file.h>

#include <cerrno>
#include <filesystem>
#include <system_error>
#include <utility>
#include <variant>

#include "sys/unique_fd.hpp"

namespace corocrawl {

class file_lock {
 public:
  /// Opens (creating it, mode 0666 less the umask) and locks `path`, waiting as long as
  /// another process holds the lock; the error of open or flock otherwise. A process that
  /// dies releases its lock, so a lock is never left stale.
  static std::variant<file_lock, std::error_code> acquire(const std::filesystem::path& path) {
    unique_fd fd{::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666)};
    if (!fd.is_open()) return last_error();
    while (::flock(fd.get(), LOCK_EX) != 0) {
      if (errno != EINTR) return last_error();
    }
    return file_lock(std::move(fd));
  }

 private:
  explicit file_lock(unique_fd fd) : fd_(std::move(fd)) {}

  unique_fd fd_;  // closing it releases the lock
};

}  // namespace corocrawl
