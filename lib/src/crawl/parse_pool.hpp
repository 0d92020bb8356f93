#pragma once
// The threads that parse pages, so that the event loop's thread keeps the sockets busy. The
// event loop's thread may take a waiting light job itself when it has nothing else to do
// (run_one_here): a parse thread fewer then keeps the same cores busy, with fewer threads
// taking turns on them. Only a light job: while it runs the loop's timers wait, and a
// request's time limit must not run out on a page being parsed.
//
// Jobs wait in one queue and finished jobs in another. A thread that finishes a job takes the
// next one without sleeping, and the event loop's thread empties the finished queue in one go:
// one wake-up for a batch of pages rather than one each way per page (a co_spawn onto an
// asio::thread_pool costs a futex wake-up to start a page and a post to give it back). A heavy
// job (a big page, whose tree is large) never runs beside another, and the memory its tree
// freed is given back to the system when it ends.
//
// The threads are started here: asio::thread_pool(n) hangs in its constructor when the system
// refuses the n-th thread (its first threads wait for work that never comes, and the failed
// constructor joins them). Here a refused thread only makes the pool smaller.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/prefer.hpp>
#include <cstdint>
#include <exception>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "html/links.hpp"
#include "http/request_sender.hpp"

namespace corocrawl {

/// How a job may run: a light one on a pool thread or on the event loop's (run_one_here); a
/// normal one on a pool thread; a heavy one on a pool thread, never beside another heavy one.
enum class job_weight : std::uint8_t { light, normal, heavy };

class parse_pool {
 public:
  /// Starts `threads` threads (at least one), or as many as the system allows, with a
  /// warning when it allows fewer. Throws std::system_error when it allows none.
  /// With `writes`, the threads write the requests it is given while they run light jobs
  /// and between them (see request_sender); it must outlive the pool.
  explicit parse_pool(unsigned threads, request_sender* writes = nullptr);
  /// Stops the pool and joins its threads: a job under way finishes first; jobs not begun are
  /// dropped, and their handlers with them.
  ~parse_pool();
  parse_pool(const parse_pool&) = delete;
  parse_pool& operator=(const parse_pool&) = delete;

  std::size_t size() const { return threads_.size(); }

  /// Frees `page`, which a pool thread's job built, on a pool thread: its memory came from
  /// that thread's malloc arena, and freeing it here would take the arena's lock while the
  /// thread allocates. It goes when a pool thread next takes a job, or with the pool.
  void free_on_pool(page_links page);

  /// Runs the first waiting light job on the calling thread, which must be the jobs' home;
  /// its handler is posted there. Returns whether there was one. Should memory be short for
  /// the post, throws std::bad_alloc and keeps the job, whose post the next call makes.
  bool run_one_here();

  /// Runs `job` (a callable returning page_links) as its `weight` allows, and completes with
  /// its result, or the exception it threw, on the handler's executor, and whether a pool
  /// thread ran it (see free_on_pool). Not cancellable: a job ends when it returns.
  template <class Job, class CompletionToken>
  auto async_run(Job job, job_weight weight, CompletionToken&& token) {
    return boost::asio::async_initiate<CompletionToken, void(std::exception_ptr, page_links, bool)>(
        [this, weight](auto handler, Job queued) {
          using handler_type = decltype(handler);
          auto queued_task =
              std::make_unique<task_of<Job, handler_type>>(std::move(queued), std::move(handler));
          queued_task->weight = weight;
          submit(std::move(queued_task));
        },
        token, std::move(job));
  }

 private:
  // A job and what to do with its result.
  class task {
   public:
    virtual ~task() = default;
    virtual void run() = 0;       // on a pool thread
    virtual void complete() = 0;  // on home()'s thread: calls the handler
    // The handler's executor, holding work there until complete().
    virtual const boost::asio::any_io_executor& home() const = 0;
    job_weight weight = job_weight::normal;
    bool on_pool = false;  // a pool thread ran it (not run_one_here)
    // The next finished job: finishing one allocates nothing on the pool's threads.
    std::unique_ptr<task> next_finished;
  };

  template <class Job, class Handler>
  class task_of final : public task {
   public:
    task_of(Job job, Handler handler)
        : job_(std::move(job)),
          handler_(std::move(handler)),
          home_(boost::asio::prefer(boost::asio::get_associated_executor(handler_),
                                    boost::asio::execution::outstanding_work.tracked)) {}
    void run() override {
      try {
        result_ = job_();
      } catch (...) {
        error_ = std::current_exception();
      }
    }
    void complete() override { std::move(handler_)(error_, std::move(result_), on_pool); }
    const boost::asio::any_io_executor& home() const override { return home_; }

   private:
    Job job_;
    Handler handler_;
    boost::asio::any_io_executor home_;
    page_links result_;
    std::exception_ptr error_;
  };

  struct state;
  void submit(std::unique_ptr<task> job);
  static void serve(const std::shared_ptr<state>& shared, request_sender* writes);
  static void finish(const std::shared_ptr<state>& shared);  // on home()'s thread
  // Posts a finish() for the finished jobs, under the state's lock; throws std::bad_alloc
  // (nothing posted, the jobs kept) when memory is short.
  static void post_finish(const std::shared_ptr<state>& shared);

  // Shared with the threads and with the finish() calls posted to the event loop, which may
  // run after the pool is gone.
  std::shared_ptr<state> state_;
  std::vector<std::thread> threads_;
};

}  // namespace corocrawl
