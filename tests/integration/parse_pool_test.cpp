// The parse threads: a waiting job taken by the event loop's thread (run_one_here), and the
// pool when the system refuses threads (a container's thread limit, ulimit -v): fewer threads,
// or a clear error, never a hang. Each of the latter runs in a child process (a death test),
// whose address space is limited so that only a few threads' stacks fit.
#include "crawl/parse_pool.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace corocrawl {
namespace {

// The address space this process maps now, in bytes.
rlim_t mapped_now() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmSize:")) return std::stoull(line.substr(7)) * 1024;
  }
  return 0;
}

// Lets this process map only `more` bytes more than it does now.
void allow_only(rlim_t more) {
  const rlimit limit{mapped_now() + more, RLIM_INFINITY};
  if (setrlimit(RLIMIT_AS, &limit) != 0) std::_Exit(2);
}

// Whether the pool runs a job and gives its result back on the caller's event loop.
bool runs_a_job(parse_pool& pool) {
  boost::asio::io_context context;
  std::thread::id ran_on;
  std::optional<std::string> got;
  pool.async_run(
      [&ran_on] {
        ran_on = std::this_thread::get_id();
        page_links page;
        page.base = "parsed";
        return page;
      },
      job_weight::normal,
      boost::asio::bind_executor(context, [&](std::exception_ptr error, page_links page, bool) {
        if (!error) got = page.base;
      }));
  context.run();
  return got == "parsed" && ran_on != std::this_thread::get_id();
}

// A job that gives `name` back as its page's base, noting the thread it ran on.
auto named_job(std::string name, std::thread::id& ran_on) {
  return [name = std::move(name), &ran_on] {
    ran_on = std::this_thread::get_id();
    page_links page;
    page.base = name;
    return page;
  };
}

TEST(ParsePool, TheEventLoopsThreadRunsAWaitingLightJobOnly) {
  parse_pool pool(1);
  boost::asio::io_context context;
  std::vector<std::string> done;
  std::vector<bool> pooled;  // each job's on_pool, as it completes
  // The handler, on the event loop, that notes each job's base as it completes.
  const auto note = [&] {
    return boost::asio::bind_executor(context,
                                      [&](std::exception_ptr error, page_links page, bool on_pool) {
                                        done.push_back(error ? "error" : page.base);
                                        pooled.push_back(on_pool);
                                      });
  };
  // The pool's one thread is kept busy until `release` is set, so that what is queued after
  // waits for it.
  std::promise<void> release;
  std::promise<void> started;
  std::thread::id busy_on;
  pool.async_run(
      [&, opened = release.get_future().share()] {
        busy_on = std::this_thread::get_id();
        started.set_value();
        opened.wait();
        page_links page;
        page.base = "busy";
        return page;
      },
      job_weight::normal, note());
  started.get_future().wait();

  EXPECT_FALSE(pool.run_one_here());  // nothing waits

  std::thread::id heavy_on;
  std::thread::id normal_on;
  std::thread::id light_on;
  pool.async_run(named_job("heavy", heavy_on), job_weight::heavy, note());
  pool.async_run(named_job("normal", normal_on), job_weight::normal, note());
  pool.async_run(named_job("light", light_on), job_weight::light, note());
  EXPECT_TRUE(pool.run_one_here());  // "light", behind the two it must leave
  EXPECT_EQ(light_on, std::this_thread::get_id());
  EXPECT_FALSE(pool.run_one_here());  // only "heavy" and "normal" wait
  EXPECT_TRUE(done.empty());          // a handler runs on the event loop, not inside the call

  release.set_value();
  context.run();
  EXPECT_EQ(done, (std::vector<std::string>{"light", "busy", "heavy", "normal"}));
  EXPECT_EQ(pooled, (std::vector<bool>{false, true, true, true}));
  EXPECT_EQ(heavy_on, busy_on);
  EXPECT_EQ(normal_on, busy_on);
}

// A memory resource that notes the thread each deallocation comes on.
class thread_noting_resource : public std::pmr::memory_resource {
 public:
  std::thread::id freed_on;

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    return std::pmr::new_delete_resource()->allocate(bytes, alignment);
  }
  void do_deallocate(void* memory, std::size_t bytes, std::size_t alignment) override {
    freed_on = std::this_thread::get_id();
    std::pmr::new_delete_resource()->deallocate(memory, bytes, alignment);
  }
  bool do_is_equal(const memory_resource& other) const noexcept override { return this == &other; }
};

TEST(ParsePool, APageGivenBackIsFreedOnThePoolThreadThatTakesTheNextJob) {
  parse_pool pool(1);
  boost::asio::io_context context;
  thread_noting_resource upstream;
  page_links page;
  page.link_text = std::make_unique<std::pmr::monotonic_buffer_resource>(&upstream);
  EXPECT_NE(page.link_text->allocate(100), nullptr);
  pool.free_on_pool(std::move(page));
  EXPECT_EQ(upstream.freed_on, std::thread::id{});  // no job has come since

  std::thread::id ran_on;
  bool on_pool = false;
  pool.async_run(named_job("next", ran_on), job_weight::normal,
                 boost::asio::bind_executor(context, [&](std::exception_ptr, page_links,
                                                         bool pooled) { on_pool = pooled; }));
  context.run();
  EXPECT_TRUE(on_pool);
  EXPECT_NE(ran_on, std::this_thread::get_id());
  EXPECT_EQ(upstream.freed_on, ran_on);
}

class ParsePoolDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(ParsePoolDeathTest, RefusedThreadsMakeThePoolSmallerAndItStillWorks) {
  EXPECT_EXIT(
      {
        allow_only(96 << 20);  // a few threads' stacks, not 1,000
        parse_pool pool(1000);
        if (pool.size() == 0 || pool.size() >= 1000) std::_Exit(3);
        std::_Exit(runs_a_job(pool) ? 0 : 4);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(ParsePoolDeathTest, NoThreadAtAllIsAClearError) {
#if defined(__SANITIZE_THREAD__)
  // ThreadSanitizer's runtime maps memory of its own for a new thread's dynamic TLS: under so
  // tight a limit it aborts the process ("failed to allocate ... DTLS") before pthread_create
  // can fail. The dev and ASan runs test this.
  GTEST_SKIP() << "ThreadSanitizer cannot start a thread under this address space limit";
#endif
  EXPECT_EXIT(
      {
        allow_only(64 << 10);  // not even one thread's stack
        try {
          parse_pool pool(4);
        } catch (const std::system_error& e) {
          std::fprintf(stderr, "%s\n", e.what());
          std::_Exit(0);
        }
        std::_Exit(5);
      },
      ::testing::ExitedWithCode(0), "cannot start a thread to parse pages");
}

}  // namespace
}  // namespace corocrawl
