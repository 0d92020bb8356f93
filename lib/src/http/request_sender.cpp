#include "http/request_sender.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <thread>
#include <type_traits>
#include <utility>

namespace corocrawl {

boost::system::error_code write_whole(int socket, std::string_view bytes) {
  ssize_t sent = 0;
  do {
    sent = ::send(socket, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  } while (sent < 0 && errno == EINTR);
  if (sent == static_cast<ssize_t>(bytes.size())) return {};
  return sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK
             ? boost::system::error_code(errno, boost::system::system_category())
             : make_error_code(boost::system::errc::no_buffer_space);
}

template <typename Items>
auto request_sender::find_owner(Items& items, const void* owner) {
  if constexpr (std::is_same_v<typename Items::value_type, const void*>) {
    return std::ranges::find(items, owner);
  } else {
    return std::ranges::find(items, owner, &Items::value_type::owner);
  }
}

request_sender::~request_sender() {
  for (const request& given : waiting_)
    ::close(given.socket);
}

bool request_sender::offer(std::vector<request>& requests) {
  if (requests.empty() || !writer_awake()) return false;
  // Each request gets a duplicate of its socket in place of the connection's own descriptor.
  std::size_t copied = 0;
  for (; copied < requests.size(); ++copied) {
    const int copy = ::fcntl(requests[copied].socket, F_DUPFD_CLOEXEC, 0);
    if (copy < 0) break;
    requests[copied].socket = copy;
  }
  std::unique_lock lock(mutex_);
  if (copied < requests.size() || awake_.load(std::memory_order_relaxed) == 0) {
    lock.unlock();
    for (std::size_t i = 0; i < copied; ++i)
      ::close(requests[i].socket);
    return false;
  }
  waiting_.insert(waiting_.end(), std::make_move_iterator(requests.begin()),
                  std::make_move_iterator(requests.end()));
  lock.unlock();
  requests.clear();
  return true;
}

request_sender::outcome request_sender::settle(const void* owner) {
  std::unique_lock lock(mutex_);
  for (int looks = 1;; ++looks) {
    if (const auto done = find_owner(results_, owner); done != results_.end()) {
      const outcome what = done->what;
      results_.erase(done);
      return what;
    }
    if (const auto given = find_owner(waiting_, owner); given != waiting_.end()) {
      const int copy = given->socket;
      waiting_.erase(given);
      lock.unlock();
      ::close(copy);
      return {fate::not_written, {}};
    }
    if (const auto taken = find_owner(taken_, owner); taken != taken_.end()) {
      taken_.erase(taken);  // the writer skips it, and closes its duplicate
      return {fate::not_written, {}};
    }
    if (find_owner(writing_, owner) == writing_.end()) return {fate::not_written, {}};
    // Being written: the answer came while the write was still returning. It is done within
    // microseconds, sooner than sleeping and being woken would take.
    if (looks < kLooksBeforeSleeping) {
      lock.unlock();
      std::this_thread::yield();
      lock.lock();
      continue;
    }
    ++settling_;
    written_.wait(lock);
    --settling_;
  }
}

void request_sender::awake() {
  const std::lock_guard lock(mutex_);
  awake_.fetch_add(1, std::memory_order_relaxed);
}

void request_sender::away() {
  {
    const std::lock_guard lock(mutex_);
    awake_.fetch_sub(1, std::memory_order_relaxed);
  }
  // Whatever was given before this is written now; nothing is given after it (but to another
  // writer that is awake).
  write_waiting();
}

void request_sender::write_waiting() {
  std::vector<request> taken;
  {
    const std::lock_guard lock(mutex_);
    if (waiting_.empty()) return;
    taken.swap(waiting_);
    for (const request& given : taken)
      taken_.push_back(given.owner);
  }
  // Each request is written only if it was not settled meanwhile (an answer came before its
  // write began), and its outcome is told as soon as the write returns: the answer may come
  // before the rest are written, and the loop then settles it.
  for (const request& given : taken) {
    bool wanted = false;
    {
      const std::lock_guard lock(mutex_);
      if (const auto at = find_owner(taken_, given.owner); at != taken_.end()) {
        taken_.erase(at);
        writing_.push_back(given.owner);
        wanted = true;
      }
    }
    boost::system::error_code error;
    if (wanted) {
      error = write_whole(given.socket, given.bytes);
      if (error) ::shutdown(given.socket, SHUT_RDWR);  // the response's read ends now
    }
    ::close(given.socket);
    if (!wanted) continue;
    bool settling = false;
    {
      const std::lock_guard lock(mutex_);
      writing_.erase(find_owner(writing_, given.owner));
      results_.push_back({given.owner, {error ? fate::failed : fate::written, error}});
      settling = settling_ > 0;
    }
    if (settling) written_.notify_all();
  }
}

}  // namespace corocrawl
