#pragma once
// A file descriptor owned by one object and closed with it.

#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <utility>

namespace corocrawl {

class unique_fd {
 public:
  unique_fd() = default;
  explicit unique_fd(int fd) : fd_(fd) {}
  ~unique_fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  unique_fd(unique_fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  unique_fd& operator=(unique_fd&& other) noexcept {
    if (this != &other) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }

  int get() const { return fd_; }
  bool is_open() const { return fd_ >= 0; }
  explicit operator bool() const { return is_open(); }

  /// Closes now and says what close() said: some file systems (NFS) report write errors only
  /// here. On Linux the descriptor is gone even when close() fails, so it is never retried.
  std::error_code close() {
    const int fd = std::exchange(fd_, -1);
    if (fd < 0 || ::close(fd) == 0) return {};
    return {errno, std::generic_category()};
  }

 private:
  int fd_ = -1;
};

}  // namespace corocrawl
