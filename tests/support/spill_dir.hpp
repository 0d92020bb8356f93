#pragma once
// For tests of what spills to temporary files: TMPDIR set for a test and put back after it,
// and a count of the files this process has open in a directory (the spilled files have no
// name there, but their descriptors show where they are). Header-only, for unit_tests.

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

namespace corocrawl::testing {

/// Sets TMPDIR for the test, and puts back what it was.
class scoped_tmpdir {
 public:
  explicit scoped_tmpdir(const std::string& dir) {
    if (const char* old = std::getenv("TMPDIR")) old_ = old;
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  ~scoped_tmpdir() {
    if (old_) {
      ::setenv("TMPDIR", old_->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
  }
  scoped_tmpdir(const scoped_tmpdir&) = delete;
  scoped_tmpdir& operator=(const scoped_tmpdir&) = delete;

 private:
  std::optional<std::string> old_;
};

/// How many of this process's descriptors are open on files in `dir`.
inline int files_open_in(const std::filesystem::path& dir) {
  int open = 0;
  for (const auto& fd : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    const auto target = std::filesystem::read_symlink(fd.path(), error);
    if (!error && target.string().starts_with(dir.string() + "/")) ++open;
  }
  return open;
}

}  // namespace corocrawl::testing
