#include "process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <stdexcept>
#include <system_error>

namespace corocrawl::testing {

namespace {

[[noreturn]] void throw_errno(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace

child_process::child_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                             terminal tty) {
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw_errno("pipe");
  if (pipe2(err, O_CLOEXEC) != 0) throw_errno("pipe");
  int terminal_fd = -1;  // the pseudo-terminal's child side
  if (tty != terminal::none) {
    int parent_side = -1;
    winsize size{.ws_row = 24, .ws_col = 100, .ws_xpixel = 0, .ws_ypixel = 0};
    if (openpty(&parent_side, &terminal_fd, nullptr, nullptr, &size) != 0) throw_errno("openpty");
    termios raw{};
    tcgetattr(terminal_fd, &raw);
    cfmakeraw(&raw);  // bytes as written: no "\n" to "\r\n"
    tcsetattr(terminal_fd, TCSANOW, &raw);
    fcntl(parent_side, F_SETFD, FD_CLOEXEC);
    fcntl(terminal_fd, F_SETFD, FD_CLOEXEC);
    // The terminal is read in place of the pipe of the stream it stands for.
    int* replaced = tty == terminal::err ? err : out;
    close(replaced[0]);
    close(replaced[1]);
    replaced[0] = parent_side;
    replaced[1] = fcntl(terminal_fd, F_DUPFD_CLOEXEC, 0);
    if (tty == terminal::both) {
      close(err[0]);
      close(err[1]);
      err[0] = -1;
      err[1] = fcntl(terminal_fd, F_DUPFD_CLOEXEC, 0);
    }
  }
  std::vector<char*> args;
  for (const auto& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);

  pid_ = fork();
  if (pid_ < 0) throw_errno("fork");
  if (pid_ == 0) {  // the child: only async-signal-safe calls from here on
    if (terminal_fd >= 0) {
      setsid();
      ioctl(terminal_fd, TIOCSCTTY, 0);
    }
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    execv(args[0], args.data());
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  if (terminal_fd >= 0) close(terminal_fd);
  out_fd_ = out[0];
  err_fd_ = err[0];
}

child_process::~child_process() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) close(out_fd_);
  if (err_fd_ >= 0) close(err_fd_);
}

void child_process::send_signal(int signal) const {
  if (pid_ > 0) kill(pid_, signal);
}

process_result child_process::wait(std::chrono::milliseconds timeout) {
  process_result result;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = (out_fd_ >= 0) + (err_fd_ >= 0);
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      kill(pid_, SIGKILL);
      break;
    }
    if (poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) throw_errno("poll");
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char chunk[65536];
      const auto n = read(fds[i].fd, chunk, sizeof chunk);
      if (n > 0) {
        sinks[i]->append(chunk, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.exit_code = 128 + WTERMSIG(status);
  return result;
}

process_result run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                           std::chrono::milliseconds timeout) {
  child_process child{argv, cwd};
  return child.wait(timeout);
}

process_result run_on_terminal(const std::vector<std::string>& argv, terminal tty,
                               const std::filesystem::path& cwd,
                               std::chrono::milliseconds timeout) {
  child_process child{argv, cwd, tty};
  return child.wait(timeout);
}

process_result run_in_shell(const std::string& script, const std::vector<std::string>& argv,
                            const std::filesystem::path& cwd, std::chrono::milliseconds timeout) {
  std::vector<std::string> shell = {"/bin/bash", "-c", script, "bash"};  // "bash" is $0
  shell.insert(shell.end(), argv.begin(), argv.end());
  return run_process(shell, cwd, timeout);
}

}  // namespace corocrawl::testing
