#pragma once
// Runs a shell command for a test and gives back its exit status and output, for the tests
// that check generated scripts and documents with the programs that read them (bash, zsh,
// fish, groff). Header-only, like temp_dir.hpp.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace corocrawl::testing {

struct command_result {
  int status = -1;     ///< the exit status; -1 when the command could not run or was killed
  std::string output;  ///< stdout and stderr together
};

/// Runs `command` with /bin/sh, stderr joined to stdout.
inline command_result run_command(const std::string& command) {
  command_result result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;)
    result.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  if (status != -1 && WIFEXITED(status)) result.status = WEXITSTATUS(status);
  return result;
}

/// Whether `program` is on $PATH.
inline bool have_program(const std::string& program) {
  return run_command("command -v '" + program + "'").status == 0;
}

/// `text` in single quotes for /bin/sh.
inline std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace corocrawl::testing
