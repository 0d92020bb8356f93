#pragma once
// A directory whose files are opened by relative paths that cannot lead out of it, whatever is
// swapped for a symlink meanwhile: the check and the open are one system call, so there is no
// moment between them for a swap to slip into.

#include <filesystem>
#include <string_view>
#include <system_error>

#include "sys/unique_fd.hpp"

namespace corocrawl {

class confined_directory {
 public:
  /// How paths are resolved. `beneath`: openat2(2) with RESOLVE_BENEATH (Linux 5.6), which
  /// follows symlinks as long as they stay inside. `no_symlinks`: one openat(O_NOFOLLOW) per
  /// component, which refuses every symlink; used when the kernel has no openat2 (ENOSYS, or
  /// EPERM from a seccomp filter that does not know it), and selectable for tests.
  enum class method { beneath, no_symlinks };

  /// Opens `path` (O_PATH). Throws std::system_error when it is not a directory that can be
  /// opened.
  explicit confined_directory(const std::filesystem::path& path, method how = method::beneath);

  /// The directory, canonical.
  const std::filesystem::path& path() const { return path_; }

  /// Opens `relative` ("docs/a.html"; "" or "." is the directory itself) with `flags` (O_RDONLY
  /// and the like; O_CLOEXEC is added). Empty and "." segments are ignored; ".." is refused.
  /// A symlink is followed only to somewhere inside; one leading out (or through /proc's magic
  /// links) fails with EXDEV or ELOOP. Sets `ec` and returns a closed descriptor on failure.
  unique_fd open(std::string_view relative, int flags, std::error_code& ec) const;

 private:
  unique_fd open_once(std::string_view relative, int flags, std::error_code& ec) const;

  std::filesystem::path path_;
  unique_fd fd_;
  method method_;
};

}  // namespace corocrawl
