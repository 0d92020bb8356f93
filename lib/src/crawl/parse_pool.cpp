#include "crawl/parse_pool.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>

#include "sys/free_memory.hpp"

namespace corocrawl {

struct parse_pool::state {
  std::mutex mutex;
  std::condition_variable work;               // a job was queued, or the pool stops
  std::deque<std::unique_ptr<task>> waiting;  // light and normal jobs
  std::deque<std::unique_ptr<task>> waiting_heavy;
  bool heavy_running = false;
  unsigned sleeping = 0;  // threads waiting on `work`
  bool stopping = false;
  // Finished jobs not yet completed; a finish() is posted when the first one comes.
  std::vector<std::unique_ptr<task>> finished;
};

parse_pool::parse_pool(unsigned threads) : state_(std::make_shared<state>()) {
  const unsigned wanted = std::max(1U, threads);
  threads_.reserve(wanted);
  for (unsigned i = 0; i < wanted; ++i) {
    try {
      threads_.emplace_back([shared = state_] { serve(shared); });
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

bool parse_pool::run_one_here() {
  std::unique_ptr<task> job;
  {
    const std::lock_guard lock(state_->mutex);
    auto& waiting = state_->waiting;
    const auto light = std::ranges::find_if(
        waiting, [](const auto& queued) { return queued->weight == job_weight::light; });
    if (light == waiting.end()) return false;
    job = std::move(*light);
    waiting.erase(light);
  }
  job->run();
  const boost::asio::any_io_executor home = job->home();
  boost::asio::post(home, [job = std::move(job)] { job->complete(); });
  return true;
}

void parse_pool::serve(const std::shared_ptr<state>& shared) {
  state& s = *shared;
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
    } else {
      ++s.sleeping;
      s.work.wait(lock);
      --s.sleeping;
      continue;
    }
    lock.unlock();
    job->run();
    // A big page's tree, some ten times its size, was just freed, in this thread's heap.
    if (heavy) give_back_freed_memory();
    lock.lock();
    if (heavy) s.heavy_running = false;
    s.finished.push_back(std::move(job));
    if (s.finished.size() == 1) {
      boost::asio::post(s.finished.back()->home(), [shared] { finish(shared); });
    }
  }
}

void parse_pool::finish(const std::shared_ptr<state>& shared) {
  std::vector<std::unique_ptr<task>> finished;
  {
    const std::lock_guard lock(shared->mutex);
    finished.swap(shared->finished);
  }
  // Each on its own executor: here, when it is this one (a crawl has one).
  for (auto& job : finished) {
    const boost::asio::any_io_executor home = job->home();
    boost::asio::dispatch(home, [job = std::move(job)] { job->complete(); });
  }
}

}  // namespace corocrawl
