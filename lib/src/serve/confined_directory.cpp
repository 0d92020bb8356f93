#include "serve/confined_directory.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <optional>
#include <string>
#include <vector>

namespace corocrawl {

namespace fs = std::filesystem;

namespace {

// Set once openat2 turned out to be missing, so later opens go straight to the fallback.
std::atomic<bool> kernel_lacks_openat2{false};

// The segments of `relative` that name something (no empty or "." ones); nullopt when one is
// "..", which could only lead up.
std::optional<std::vector<std::string>> segments_of(std::string_view relative) {
  std::vector<std::string> segments;
  while (!relative.empty()) {
    const auto slash = relative.find('/');
    const auto segment = relative.substr(0, slash);
    relative = slash == std::string_view::npos ? std::string_view{} : relative.substr(slash + 1);
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") return std::nullopt;
    segments.emplace_back(segment);
  }
  return segments;
}

std::string joined(const std::vector<std::string>& segments) {
  if (segments.empty()) return ".";
  std::string path;
  for (const auto& segment : segments) {
    if (!path.empty()) path += '/';
    path += segment;
  }
  return path;
}

// openat2(2) has no glibc wrapper in Debian 12's glibc 2.36.
int openat2_beneath(int dir, const std::string& relative, int flags) {
  open_how how{};
  how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  constexpr int attempts = 8;
  for (int attempt = 1;; ++attempt) {
    const long fd = ::syscall(SYS_openat2, dir, relative.c_str(), &how, sizeof how);
    // EAGAIN: a rename raced the kernel's walk of a ".." in a symlink; it asks for a retry.
    if (fd >= 0 || (errno != EAGAIN && errno != EINTR) || attempt == attempts)
      return static_cast<int>(fd);
  }
}

// One openat per segment, each with O_NOFOLLOW, from `dir` down: a symlink anywhere fails
// (ELOOP, or ENOTDIR for a directory's place), so nothing but `dir`'s own tree is reached.
unique_fd openat_without_symlinks(int dir, const std::vector<std::string>& segments, int flags) {
  if (segments.empty()) return unique_fd{::openat(dir, ".", flags | O_CLOEXEC)};
  unique_fd current;
  int at = dir;
  for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
    unique_fd next{
        ::openat(at, segments[i].c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)};
    if (!next) return next;
    current = std::move(next);
    at = current.get();
  }
  return unique_fd{::openat(at, segments.back().c_str(), flags | O_NOFOLLOW | O_CLOEXEC)};
}

bool refused_a_symlink(const std::error_code& ec) {
  return ec == std::errc::cross_device_link || ec == std::errc::too_many_symbolic_link_levels ||
         ec == std::errc::not_a_directory;
}

}  // namespace

confined_directory::confined_directory(const fs::path& path, method how)
    : path_(fs::canonical(path)), method_(how) {
  fd_ = unique_fd{::open(path_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)};
  if (!fd_) throw std::system_error(last_error(), "cannot open " + path_.string());
}

unique_fd confined_directory::open(std::string_view relative, int flags,
                                   std::error_code& ec) const {
  const auto segments = segments_of(relative);
  if (!segments) {
    ec = std::make_error_code(std::errc::cross_device_link);
    return {};
  }
  auto fd = open_once(joined(*segments), flags, ec);
  if (fd || !refused_a_symlink(ec)) return fd;

  // RESOLVE_BENEATH refuses an absolute symlink even when it points inside, and the fallback
  // refuses every symlink. Where the path leads now is opened again under the same rule: a
  // symlink swapped in meanwhile still cannot lead out, the retry just fails.
  std::error_code resolve_ec;
  const auto real = fs::canonical(path_ / joined(*segments), resolve_ec);
  if (resolve_ec) return fd;
  const auto inside = real.lexically_relative(path_);
  if (inside.empty() || *inside.begin() == "..") return fd;  // leads out: keep the refusal
  std::error_code retry_ec;
  auto retry = open_once(inside.string(), flags, retry_ec);
  if (retry) ec.clear();
  return retry;
}

unique_fd confined_directory::open_once(std::string_view relative, int flags,
                                        std::error_code& ec) const {
  if (method_ == method::beneath && !kernel_lacks_openat2.load(std::memory_order_relaxed)) {
    const int fd = openat2_beneath(fd_.get(), std::string(relative), flags);
    if (fd >= 0) {
      ec.clear();
      return unique_fd{fd};
    }
    if (errno == ENOSYS) kernel_lacks_openat2.store(true, std::memory_order_relaxed);
    if (errno != ENOSYS && errno != EPERM) {
      ec = last_error();
      return {};
    }
  }
  auto fd = openat_without_symlinks(fd_.get(), *segments_of(relative), flags);
  ec = fd ? std::error_code{} : last_error();
  return fd;
}

}  // namespace corocrawl
