// The assert guard and a program's own SIGABRT action (the contract is run_crawl's, in
// corocrawl/crawl.hpp). Signal actions are process-wide, so each test runs in a child process:
// "threadsafe" death tests start the binary afresh, where no parse has installed the guard yet.

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>

#include "html/links.hpp"

namespace corocrawl {
namespace {

constexpr const char* kPage = "http://example.com/";

// gumbo 0.10.1 asserts on this page whatever the reading (see links_test.cpp,
// AnAssertInGumboEndsOnlyThatParse), and prints "Assertion ... failed" to stderr.
constexpr const char* kAssertingPage =
    "<a href=x><table><td><col><svg></td><foreignObject><![CDATA[ ]]>-";

bool survives_an_assert() {
  return extract_links_taking(kAssertingPage, kPage).outcome == parse_outcome::gave_up;
}

// A first parse installs the guard.
void parse_a_page() {
  if (extract_links("<a href=y>", kPage).size() != 1) _exit(3);
}

void set_action(void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, nullptr);
}

void set_siginfo_action(void (*handler)(int, siginfo_t*, void*)) {
  struct sigaction action {};
  action.sa_sigaction = handler;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, nullptr);
}

// A program's handler that ends the process with `exit_code`, set by the test to say how far
// it went.
volatile std::sig_atomic_t exit_code = 0;
extern "C" void exit_with_code(int) {
  _exit(exit_code);
}

// A program's handler that counts the SIGABRTs it gets with their siginfo_t and context, and
// returns.
volatile std::sig_atomic_t counted = 0;
extern "C" void count(int signal_number, siginfo_t* info, void* context) {
  if (signal_number == SIGABRT && info != nullptr && info->si_signo == SIGABRT &&
      context != nullptr)
    counted = counted + 1;
}

class AbortGuardDeathTest : public testing::Test {
 protected:
  void SetUp() override {
    style_ = GTEST_FLAG_GET(death_test_style);
    GTEST_FLAG_SET(death_test_style, "threadsafe");
  }
  void TearDown() override { GTEST_FLAG_SET(death_test_style, style_); }

 private:
  std::string style_;
};

TEST_F(AbortGuardDeathTest, AHandlerInstalledBeforeTheFirstParseKeepsWorking) {
  EXPECT_EXIT(
      {
        exit_code = 43;  // gumbo's assert reached the program's handler
        set_action(&exit_with_code);
        if (!survives_an_assert()) _exit(1);
        exit_code = 42;
        std::abort();
      },
      testing::ExitedWithCode(42), "Assertion");
}

TEST_F(AbortGuardDeathTest, AHandlerInstalledDuringACrawlGetsGumbosAsserts) {
  EXPECT_EXIT(
      {
        parse_a_page();
        exit_code = 42;
        set_action(&exit_with_code);
        survives_an_assert();
        _exit(1);
      },
      testing::ExitedWithCode(42), "Assertion");
}

TEST_F(AbortGuardDeathTest, TheNextCrawlPutsTheGuardBeforeAHandlerInstalledSinceAParse) {
  EXPECT_EXIT(
      {
        parse_a_page();
        exit_code = 44;  // install_abort_guard did not install the guard
        set_action(&exit_with_code);
        install_abort_guard();  // as a crawl starts
        exit_code = 43;         // gumbo's assert reached the program's handler
        if (!survives_an_assert()) _exit(1);
        exit_code = 42;
        raise(SIGABRT);
        _exit(2);
      },
      testing::ExitedWithCode(42), "Assertion");
}

TEST_F(AbortGuardDeathTest, AbortsOutsideAParseReachAHandlerThatReturnsOneByOne) {
  EXPECT_EXIT(
      {
        set_siginfo_action(&count);
        parse_a_page();
        install_abort_guard();  // in place already: the handler stays the action before it
        for (int i = 0; i < 3; ++i)
          raise(SIGABRT);
        if (counted != 3) _exit(10 + counted);
        if (!survives_an_assert()) _exit(1);
        if (counted != 3) _exit(20 + counted);
        raise(SIGABRT);
        _exit(counted == 4 ? 0 : 30 + counted);
      },
      testing::ExitedWithCode(0), "Assertion");
}

TEST_F(AbortGuardDeathTest, WithTheDefaultActionAnAbortOutsideAParseEndsTheProcess) {
  EXPECT_EXIT(
      {
        set_action(SIG_DFL);
        if (!survives_an_assert()) _exit(1);
        std::abort();
      },
      testing::KilledBySignal(SIGABRT), "Assertion");
}

TEST_F(AbortGuardDeathTest, AnIgnoredAbortOutsideAParseIsIgnored) {
  EXPECT_EXIT(
      {
        set_action(SIG_IGN);
        parse_a_page();
        raise(SIGABRT);
        if (!survives_an_assert()) _exit(1);
        raise(SIGABRT);
        _exit(0);
      },
      testing::ExitedWithCode(0), "Assertion");
}

// A SIGABRT sent with kill() lands on any thread that does not block it, a parsing one too:
// it is not an assert, and goes to the program's handler. (Should the guard take it for one,
// the test fails unless it landed between two parses.)
TEST_F(AbortGuardDeathTest, ASignalSentDuringAParseIsNotTakenForAnAssert) {
  EXPECT_EXIT(
      {
        exit_code = 42;
        set_action(&exit_with_code);
        sigset_t abort_signal;
        sigemptyset(&abort_signal);
        sigaddset(&abort_signal, SIGABRT);
        pthread_sigmask(SIG_BLOCK, &abort_signal, nullptr);  // only the parser takes it
        std::atomic<bool> parsing = false;
        std::thread parser([&] {
          pthread_sigmask(SIG_UNBLOCK, &abort_signal, nullptr);
          // Text is where gumbo spends its time, and nothing else does.
          const std::string page = "<p>" + std::string(1 << 20, 'y');
          parsing = true;
          for (;;)
            extract_links(page, kPage, markup_reading::whole);
        });
        while (!parsing)
          std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        kill(getpid(), SIGABRT);
        std::this_thread::sleep_for(std::chrono::seconds(5));
        _exit(1);
      },
      testing::ExitedWithCode(42), "");
}

}  // namespace
}  // namespace corocrawl
