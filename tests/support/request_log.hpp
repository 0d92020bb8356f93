#pragma once
// What the test servers (test_server, hostile_server) record of the requests they read, for
// tests to count, wait for and look into from their own thread while the server's thread adds
// to it.

#include <strings.h>

#include <algorithm>
#include <chrono>
#include <concepts>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace corocrawl::testing {

/// A request as a test server read it.
struct request {
  std::string method;
  std::string target;  ///< as sent, e.g. "/a?x=1"
  std::vector<std::pair<std::string, std::string>> headers;
  /// When the server finished reading the request.
  std::chrono::steady_clock::time_point received_at{};

  /// The value of a header (case-insensitive name), or nullopt.
  std::optional<std::string> header(std::string_view name) const {
    for (const auto& [key, value] : headers)
      if (key.size() == name.size() && strncasecmp(key.data(), name.data(), key.size()) == 0)
        return value;
    return std::nullopt;
  }

  /// The target without its query ("/a" for "/a?x=1"): what the servers route on and count.
  std::string_view path() const { return std::string_view(target).substr(0, target.find('?')); }
};

/// The requests a server read, in order of arrival. Thread-safe.
template <std::derived_from<request> Request>
class request_log {
 public:
  void add(Request r) {
    {
      std::lock_guard lock{mutex_};
      requests_.push_back(std::move(r));
    }
    arrived_.notify_all();
  }

  std::vector<Request> all() const {
    std::lock_guard lock{mutex_};
    return requests_;
  }

  /// Requests for `path` (query ignored) so far.
  std::size_t count_for(std::string_view path) const {
    std::lock_guard lock{mutex_};
    return count_locked(path);
  }

  /// Waits until at least `n` requests for `path` (query ignored) have been read; false when
  /// `timeout` passed first.
  bool wait_for(std::string_view path, std::size_t n, std::chrono::milliseconds timeout) const {
    std::unique_lock lock{mutex_};
    return arrived_.wait_for(lock, timeout, [&] { return count_locked(path) >= n; });
  }

 private:
  std::size_t count_locked(std::string_view path) const {
    return static_cast<std::size_t>(
        std::ranges::count(requests_, path, [](const request& r) { return r.path(); }));
  }

  mutable std::mutex mutex_;
  mutable std::condition_variable arrived_;  // notified by add()
  std::vector<Request> requests_;
};

}  // namespace corocrawl::testing
