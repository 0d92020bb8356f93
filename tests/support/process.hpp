#pragma once
// Running the corocrawl binary as a child process, as users and CI do.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace corocrawl::testing {

struct process_result {
  int exit_code = -1;  ///< the exit status, or 128 + signal when killed by one
  bool timed_out = false;
  std::string out;  ///< everything written to stdout
  std::string err;  ///< everything written to stderr
};

/// Which of a child's output streams is a terminal (a pseudo-terminal, raw, 100 columns),
/// as when a person runs it; the others are pipes.
enum class terminal { none, out, err, both };

/// A child process whose stdout and stderr are captured.
class child_process {
 public:
  /// Starts `argv[0]` (a path) with `argv` in `cwd` (empty: the current directory). What the
  /// child writes to the terminal is captured as its stdout (or, with terminal::err, stderr).
  explicit child_process(const std::vector<std::string>& argv,
                         const std::filesystem::path& cwd = {}, terminal tty = terminal::none);
  ~child_process();  // kills the child if still running
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  void send_signal(int signal) const;
  /// The child's process id, to read its /proc entries while it runs.
  pid_t pid() const { return pid_; }
  /// Reads all output and waits for the exit; kills the child with SIGKILL after `timeout`.
  process_result wait(std::chrono::milliseconds timeout);

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
};

/// Runs `argv` to completion.
process_result run_process(const std::vector<std::string>& argv,
                           const std::filesystem::path& cwd = {},
                           std::chrono::milliseconds timeout = std::chrono::seconds(60));

/// Runs `argv` to completion with `tty` (see terminal) a pseudo-terminal.
process_result run_on_terminal(const std::vector<std::string>& argv, terminal tty,
                               const std::filesystem::path& cwd = {},
                               std::chrono::milliseconds timeout = std::chrono::seconds(60));

/// Runs `script` with bash (as "bash -c SCRIPT bash ARGV...") to completion: the script gets
/// `argv` as "$@", each argument whole whatever it holds (spaces, quotes), so it can run a
/// command as users do, e.g. `ulimit -n 64; exec "$@"` or `exec "$@" > /dev/full`.
process_result run_in_shell(const std::string& script, const std::vector<std::string>& argv,
                            const std::filesystem::path& cwd = {},
                            std::chrono::milliseconds timeout = std::chrono::seconds(60));

}  // namespace corocrawl::testing
