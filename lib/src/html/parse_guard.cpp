#include "html/parse_guard.hpp"

#include <setjmp.h>
#include <signal.h>
#include <unistd.h>

#include <mutex>

namespace corocrawl {
namespace {

// Debian builds gumbo with its assert()s, and hostile markup can still reach one that
// limit_markup() does not know of. An assert must not end the crawl: while gumbo parses,
// SIGABRT raised on that thread jumps back out of the parse, which then finds no links. An
// abandoned parse (parse_watch) jumps back the same way. gumbo's memory is the arena's, so
// nothing leaks but an assertion's message. SIGABRT's action is the program's as well: every
// other SIGABRT goes to the action the guard replaced (the contract is run_crawl's, in
// corocrawl/crawl.hpp).
thread_local sigjmp_buf* current_parse = nullptr;

// The action the guard replaced. on_abort reads it on whichever thread SIGABRT arrives, so it is
// written only by install_abort_guard, under install_mutex, and before the guard is installed:
// never while the guard is SIGABRT's action. Not covered: a program that changes SIGABRT's
// action on another thread while a crawl starts (its action may be lost), and an on_abort still
// forwarding on another thread when the program replaces the guard and a crawl then reinstalls
// it (it may read a torn action).
struct sigaction action_before_guard;
std::mutex install_mutex;

extern "C" void on_abort(int signal_number, siginfo_t* info, void* context);

bool is_guard(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) != 0 && action.sa_sigaction == &on_abort;
}

// Whether this thread raised the signal itself, as abort() does (with tgkill; pthread_kill from
// another thread looks the same): kill() from this or another process may land on any thread,
// a parsing one too, and is not an assert.
bool raised_by_this_thread(const siginfo_t* info) {
  return info != nullptr && info->si_code == SI_TKILL && info->si_pid == getpid();
}

// Does with a SIGABRT what the action before the guard would have done, as the kernel would:
// a handler runs with that action's mask added to the thread's (SA_NODEFER and SA_RESETHAND
// are not followed: SIGABRT stays blocked, and the handler stays the one to call). While it
// runs, no parse is under way on this thread, so an abort() it calls is not taken for an assert;
// if it jumps away, the parse it interrupted, if any, is abandoned with the stack it was on.
void forward_abort(int signal_number, siginfo_t* info, void* context) {
  const struct sigaction before = action_before_guard;
  // sa_handler and sa_sigaction share their storage: SIG_IGN and SIG_DFL are told by it alone.
  if (before.sa_handler == SIG_IGN) return;
  if (before.sa_handler == SIG_DFL) {
    // Blocked while this handler runs, the signal raised again ends the process as soon as
    // it returns, where the first one would have.
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(SIGABRT, &default_action, nullptr);
    raise(signal_number);
    return;
  }
  sigset_t thread_mask;
  pthread_sigmask(SIG_BLOCK, &before.sa_mask, &thread_mask);
  sigjmp_buf* const parse = current_parse;
  current_parse = nullptr;
  if ((before.sa_flags & SA_SIGINFO) != 0) {
    before.sa_sigaction(signal_number, info, context);
  } else {
    before.sa_handler(signal_number);
  }
  current_parse = parse;
  pthread_sigmask(SIG_SETMASK, &thread_mask, nullptr);
}

extern "C" void on_abort(int signal_number, siginfo_t* info, void* context) {
  if (current_parse != nullptr && raised_by_this_thread(info))
    siglongjmp(*current_parse, static_cast<int>(parse_outcome::gave_up));
  forward_abort(signal_number, info, context);
}

}  // namespace

void abandon_parse(parse_outcome outcome) noexcept {
  siglongjmp(*current_parse, static_cast<int>(outcome));
}

// Never inlined: after a jump back to the sigsetjmp, the local objects of the function that
// called it and changed since have indeterminate values (C17 7.13.2.1). The arena, which
// gumbo changes, lives in the caller, and this function changes nothing but current_parse.
[[gnu::noinline]] guarded_parse parse_guarded(const GumboOptions& options,
                                              std::string_view markup) {
  install_abort_guard_once();
  sigjmp_buf jump;
  // Not saving the signal mask spares a system call per parse; a jump from the handler
  // leaves SIGABRT blocked (as in any handler), so it is unblocked here.
  if (const int jumped = sigsetjmp(jump, 0); jumped != 0) {
    current_parse = nullptr;
    sigset_t abort_signal;
    sigemptyset(&abort_signal);
    sigaddset(&abort_signal, SIGABRT);
    pthread_sigmask(SIG_UNBLOCK, &abort_signal, nullptr);
    return {nullptr, static_cast<parse_outcome>(jumped)};
  }
  current_parse = &jump;
  const GumboOutput* output = gumbo_parse_with_options(&options, markup.data(), markup.size());
  current_parse = nullptr;
  return {output, parse_outcome::complete};
}

// For callers of extract_links outside a crawl; a crawl installs the guard as it starts.
void install_abort_guard_once() {
  static std::once_flag installed;
  std::call_once(installed, install_abort_guard);
}

void install_abort_guard() {
  const std::lock_guard lock(install_mutex);
  struct sigaction current {};
  sigaction(SIGABRT, nullptr, &current);
  if (is_guard(current)) return;
  action_before_guard = current;
  struct sigaction guard {};
  guard.sa_sigaction = &on_abort;
  // SA_RESTART as signal() sets it: a SIGABRT passed on to a handler that returns does not
  // make the calls it interrupted fail with EINTR.
  guard.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&guard.sa_mask);
  sigaction(SIGABRT, &guard, nullptr);
}

}  // namespace corocrawl
