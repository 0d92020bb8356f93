// The crawl's workers: started, counted as they go, and cancelled when the crawl is halted
// (stop(), max_time, or a failure of the environment).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <exception>
#include <new>
#include <string>

#include "crawl/crawler.hpp"

namespace corocrawl {

namespace asio = boost::asio;

namespace {

// What went wrong, in words; never throws.
std::string what(const std::exception_ptr& error) noexcept {
  try {
    try {
      std::rethrow_exception(error);
    } catch (const std::bad_alloc&) {
      return "out of memory";
    } catch (const std::exception& e) {
      return e.what();
    } catch (...) {
      return "unknown error";
    }
  } catch (...) {  // the message could not be copied; "out of memory" needs no allocation
    return "out of memory";
  }
}

}  // namespace

// A worker's end is counted by a presence in its frame, not by a completion: when an
// operation cannot start inside a coroutine (memory ran out as Asio allocated it), Asio 1.81
// destroys the coroutine without resuming it, and no completion ever comes. halt() cancels
// the workers still present through signals the crawler owns (a parallel group's were freed
// with the group as its other members ended, before a cancellation posted into them ran).
void crawler::start_worker(asio::awaitable<void> task) {
  worker& self = workers_.emplace_back();
  asio::co_spawn(*executor_, as_worker(self, std::move(task)),
                 asio::bind_cancellation_slot(self.stop.slot(), asio::detached));
}

asio::awaitable<void> crawler::as_worker(worker& self, asio::awaitable<void> task) {
  const worker_presence present(*this, self);
  try {
    co_await std::move(task);
  } catch (...) {
    fail(std::current_exception());
  }
}

crawler::worker_presence::~worker_presence() {
  self_.present = false;
  if (!owner_.any_worker_present()) owner_.workers_ended_->cancel();
}

bool crawler::any_worker_present() const {
  return std::ranges::any_of(workers_, &worker::present);
}

asio::awaitable<void> crawler::workers_ended() {
  if (!any_worker_present()) co_return;  // all returned as they started
  co_await workers_ended_->async_wait(asio::as_tuple(asio::use_awaitable));
}

asio::awaitable<void> crawler::stop_at(time_point deadline) {
  const bool came = co_await clock_.wait_until(deadline);
  if (!came) co_return;  // the crawl ended first
  spdlog::warn("the crawl reached its time limit (--max-time): stopping");
  timed_out_ = true;
  halt();
}

void crawler::stop() {
  if (stopping_) return;
  interrupted_ = true;
  halt();
}

void crawler::fail(std::exception_ptr error) {
  if (stopping_) return;  // a worker cancelled as the crawl ends
  // The environment failed, most often its memory: the reserve is given back now, so that
  // stopping (Asio allocates as it cancels the workers) and the result find memory. An
  // allocation failing inside Asio's cancellation of the workers is std::terminate.
  reserve_.release();
  failure_ = what(error);
  // The result says why, once: the program's one line, a library user's `failure`.
  spdlog::debug("the crawl cannot go on: {}: stopping", *failure_);
  halt();
}

void crawler::halt() {
  // The cancellation is posted: a worker that Asio destroys posts its destruction as the
  // exception leaves it, before anything hears of the failure, so that destruction runs
  // first and marks it gone, and no cancellation goes into what its failed start left. Should
  // the post find no memory, nothing is halted yet, and fail() halts with the reserve given
  // back.
  if (executor_) {
    asio::post(*executor_, [this] {
      for (worker& w : workers_)
        if (w.present) w.stop.emit(asio::cancellation_type::terminal);
    });
  }
  stopping_ = true;
  parse_stop_.request_stop();  // parses under way end within milliseconds
  frontier_.close();
}

}  // namespace corocrawl
