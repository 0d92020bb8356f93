#include "crawl/parse_pool.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "sys/free_memory.hpp"

namespace corocrawl {

namespace {

// Memory a pool thread sets aside and frees when it must post and memory is short. Taken by
// operator new itself: a new-expression whose memory is never used may be left out.
class spare_memory {
 public:
  spare_memory() : memory_(::operator new(kBytes, std::nothrow)) {}
  ~spare_memory() { release(); }
  spare_memory(const spare_memory&) = delete;
  spare_memory& operator=(const spare_memory&) = delete;
  /// Frees it; whether there was any to free.
  bool release() {
    if (memory_ == nullptr) return false;
    ::operator delete(std::exchange(memory_, nullptr));
    return true;
  }

 private:
  static constexpr std::size_t kBytes = 64 * 1024;
  void* memory_;
};

// A pool thread as one of a request_sender's writers (when there is a sender): awake while it
// runs light jobs and between them, away otherwise. Away when it goes.
class request_writing {
 public:
  explicit request_writing(request_sender* sender) : sender_(sender) {}
  ~request_writing() { away(); }
  request_writing(const request_writing&) = delete;
  request_writing& operator=(const request_writing&) = delete;

  bool awake() const { return awake_; }
  void wake() {
    if (sender_ == nullptr || awake_) return;
    sender_->awake();
    awake_ = true;
  }
  void away() {
    if (!awake_) return;
    awake_ = false;
    sender_->away();
  }
  void write_waiting() {
    if (awake_) sender_->write_waiting();
  }

 private:
  request_sender* sender_;
  bool awake_ = false;
};

}  // namespace

struct parse_pool::state {
  std::mutex mutex;
  std::condition_variable work;               // a job was queued, or the pool stops
  std::deque<std::unique_ptr<task>> waiting;  // light and normal jobs
  std::deque<std::unique_ptr<task>> waiting_heavy;
  bool heavy_running = false;
  unsigned sleeping = 0;  // threads waiting on `work`
  bool stopping = false;
  // Finished jobs not yet completed, the latest first (linked through next_finished); a
  // finish() is posted when the first one comes.
  std::unique_ptr<task> finished;
  bool finish_posted = false;
  std::vector<page_links> to_free;  // by a pool thread (free_on_pool)
};

parse_pool::parse_pool(unsigned threads, request_sender* writes)
    : state_(std::make_shared<state>()) {
  const unsigned wanted = std::max(1U, threads);
  threads_.reserve(wanted);
  for (unsigned i = 0; i < wanted; ++i) {
    try {
      threads_.emplace_back([shared = state_, writes] { serve(shared, writes); });
    } catch (const std::system_error& e) {
      if (threads_.empty()) {
        throw std::system_error(e.code(), "cannot start a thread to parse pages");
      }
      spdlog::warn(
          "the system allows only {} of the {} parse threads asked for ({}): going on "
          "with {}",
          threads_.size(), wanted, e.code().message(), threads_.size());
      break;
    }
  }
}

parse_pool::~parse_pool() {
  {
    const std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->work.notify_all();
  for (auto& thread : threads_)
    thread.join();
}

void parse_pool::submit(std::unique_ptr<task> job) {
  bool wake = false;
  {
    const std::lock_guard lock(state_->mutex);
    const bool heavy = job->weight == job_weight::heavy;
    (heavy ? state_->waiting_heavy : state_->waiting).push_back(std::move(job));
    wake = state_->sleeping > 0;
  }
  if (wake) state_->work.notify_one();
}

void parse_pool::free_on_pool(page_links page) {
  const std::lock_guard lock(state_->mutex);
  try {
    state_->to_free.push_back(std::move(page));
  } catch (const std::bad_alloc&) {  // then it is freed here, as any other page
  }
}

bool parse_pool::run_one_here() {
  std::unique_ptr<task> job;
  {
    const std::lock_guard lock(state_->mutex);
    // A finish() that memory lacked for (below) is posted again first.
    if (state_->finished && !state_->finish_posted) post_finish(state_);
    auto& waiting = state_->waiting;
    const auto light = std::ranges::find_if(
        waiting, [](const auto& queued) { return queued->weight == job_weight::light; });
    if (light == waiting.end()) return false;
    job = std::move(*light);
    waiting.erase(light);
  }
  job->run();
  const std::lock_guard lock(state_->mutex);
  job->next_finished = std::move(state_->finished);
  state_->finished = std::move(job);
  if (!state_->finish_posted) post_finish(state_);
  return true;
}

void parse_pool::post_finish(const std::shared_ptr<state>& shared) {
  boost::asio::post(shared->finished->home(), [shared] { finish(shared); });
  shared->finish_posted = true;
}

void parse_pool::serve(const std::shared_ptr<state>& shared, request_sender* writes) {
  state& s = *shared;
  request_writing writing(writes);
  // Freed should a finish() not find memory to be posted with, so that it then does (from
  // this thread's heap): an exception leaving this thread would be std::terminate, and a
  // finished job never handed back would leave the crawl waiting.
  spare_memory spare;
  // What free_on_pool() gave this thread, swapped with the queue's, whose memory each keeps.
  std::vector<page_links> freeing;
  std::unique_lock lock(s.mutex);
  while (!s.stopping) {
    std::unique_ptr<task> job;
    bool heavy = false;
    if (!s.waiting_heavy.empty() && !s.heavy_running) {
      job = std::move(s.waiting_heavy.front());
      s.waiting_heavy.pop_front();
      heavy = s.heavy_running = true;
    } else if (!s.waiting.empty()) {
      job = std::move(s.waiting.front());
      s.waiting.pop_front();
    } else if (writing.awake()) {
      // About to sleep: the requests given go first, and no more come (a job may have come
      // meanwhile, so the queues are looked at again).
      lock.unlock();
      writing.away();
      lock.lock();
      continue;
    } else {
      ++s.sleeping;
      s.work.wait(lock);
      --s.sleeping;
      continue;
    }
    job->on_pool = true;
    freeing.swap(s.to_free);
    lock.unlock();
    freeing.clear();
    // Requests wait at most a light job for this thread.
    if (job->weight == job_weight::light) {
      writing.wake();
    } else {
      writing.away();
    }
    job->run();
    writing.write_waiting();
    // A big page's tree, some ten times its size, was just freed, in this thread's heap.
    if (heavy) give_back_freed_memory();
    lock.lock();
    if (heavy) s.heavy_running = false;
    job->next_finished = std::move(s.finished);
    s.finished = std::move(job);
    while (!s.finish_posted && !s.stopping) {
      try {
        post_finish(shared);
      } catch (const std::bad_alloc&) {
        if (spare.release()) continue;
        // Memory is short for the whole process: another thread's failure frees some.
        lock.unlock();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        lock.lock();
      }
    }
  }
}

void parse_pool::finish(const std::shared_ptr<state>& shared) {
  std::unique_ptr<task> first;  // the finished jobs, in the order they finished
  {
    const std::lock_guard lock(shared->mutex);
    for (auto job = std::move(shared->finished); job;) {
      auto next = std::move(job->next_finished);
      job->next_finished = std::move(first);
      first = std::move(job);
      job = std::move(next);
    }
    shared->finish_posted = false;
  }
  // Each on its own executor: here, when it is this one (a crawl has one).
  while (first) {
    auto next = std::move(first->next_finished);
    const boost::asio::any_io_executor home = first->home();
    boost::asio::dispatch(home, [job = std::move(first)] { job->complete(); });
    first = std::move(next);
  }
}

}  // namespace corocrawl
