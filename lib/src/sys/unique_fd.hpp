#pragma once
// File descriptors: one owned by an object and closed with it, the error of the last system
// call, writing all of a buffer, and reading a descriptor to its end.

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <span>
#include <string>
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

/// errno as an error_code, for the system call that just failed.
inline std::error_code last_error() {
  return {errno, std::generic_category()};
}

/// Writes all of `bytes` to `fd`, at its offset: a short write goes on with the rest, EINTR is
/// retried. Returns the error of the write that failed (one that writes nothing, ENOSPC).
inline std::error_code write_all(int fd, std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const ::ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) return last_error();
    if (wrote == 0) return std::make_error_code(std::errc::no_space_on_device);
    bytes = bytes.subspan(static_cast<std::size_t>(wrote));
  }
  return {};
}

/// Appends what `fd` gives to `out` until its end, or until `out` holds more than `limit`
/// bytes (then at most limit + 1: one byte more proves the input longer, without reading the
/// rest of /dev/zero, say). Returns the error of a failed read; EINTR is retried.
inline std::error_code read_up_to(int fd, std::size_t limit, std::string& out) {
  std::array<char, 64 * 1024> chunk;
  while (out.size() <= limit) {
    const std::size_t room = limit - out.size();  // so that limit may be SIZE_MAX
    const std::size_t wanted = room < chunk.size() ? room + 1 : chunk.size();
    const ::ssize_t got = ::read(fd, chunk.data(), wanted);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return last_error();
    if (got == 0) break;
    out.append(chunk.data(), static_cast<std::size_t>(got));
  }
  return {};
}

}  // namespace corocrawl
