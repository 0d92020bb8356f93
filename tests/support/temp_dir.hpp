#pragma once
// A fresh temporary directory per test, so tests never see each other's files. Header-only:
// unit_tests use it without linking the Asio-heavy corocrawl_test_support library.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace corocrawl::testing {

/// A fresh, empty directory for the running test, removed with its contents at the end.
class temp_dir {
 public:
  /// Creates <temp>/corocrawl-<suite>-<test>-<pid>-<random>; throws when it cannot.
  temp_dir() : path_(create()) {}
  ~temp_dir() {
    std::error_code ignored;  // a destructor must not throw; a leftover is harmless
    std::filesystem::remove_all(path_, ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  /// The directory, canonical (no symlinks), so tests can compare it with resolved paths.
  const std::filesystem::path& path() const { return path_; }

  /// Writes `content` to `name` (relative to path()), creating parent directories; returns the
  /// full path. Throws when the file cannot be written.
  std::filesystem::path write(const std::filesystem::path& name, std::string_view content) const {
    const std::filesystem::path file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) throw std::runtime_error("temp_dir: cannot write " + file.string());
    return file;
  }

  /// The contents of `name` (relative), or "" when it cannot be read.
  std::string read(const std::filesystem::path& name) const {
    std::ifstream in(path_ / name, std::ios::binary);
    if (!in) return {};
    // operator<< turns a read error (say, `name` is a directory) into failbit, not a throw.
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  /// `text` reduced to characters that are safe in one file name component, and kept short.
  static std::string file_name_part(std::string_view text) {
    constexpr std::size_t max_length = 60;
    std::string part;
    for (const char c : text.substr(0, max_length)) {
      const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
      part += safe ? c : '_';  // parameterised tests have '/' in their names
    }
    return part;
  }

  static std::filesystem::path create() {
    namespace fs = std::filesystem;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string prefix = "corocrawl-" +
                               (info != nullptr ? file_name_part(info->test_suite_name()) + "-" +
                                                      file_name_part(info->name())
                                                : std::string("no-test")) +
                               "-" + std::to_string(::getpid()) + "-";
    // A random suffix, and a retry when the name is taken (say, left over by a crashed run
    // whose pid has been reused), make the directory fresh without any shared counter.
    constexpr int attempts = 100;
    for (int i = 0; i < attempts; ++i) {
      const fs::path candidate =
          fs::temp_directory_path() / (prefix + std::to_string(std::random_device{}()));
      if (!fs::exists(candidate) && fs::create_directory(candidate)) {
        return fs::canonical(candidate);
      }
    }
    throw std::runtime_error("temp_dir: no free name for " + prefix + "* in " +
                             fs::temp_directory_path().string());
  }

  std::filesystem::path path_;
};

}  // namespace corocrawl::testing
