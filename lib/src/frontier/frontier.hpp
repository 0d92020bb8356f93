#pragma once
// The URLs waiting to be fetched, queued per origin (scheme, host and port), and when an origin
// may be asked again: at most `max_per_host` requests at once, at most `rate_limit` requests a
// second, and none while it backs off after a 429 or 503. An item may also wait on its own (a
// retry after a network error). Plain bookkeeping: the caller says what time it is, so it is
// tested without clocks or sockets.

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "text/string_hash.hpp"

namespace corocrawl {

class frontier {
 public:
  using clock = std::chrono::steady_clock;
  using origin_id = std::uint32_t;

  struct item {
    std::uint32_t url = 0;  ///< the crawler's id of the URL
    int redirects_left = 0;
    int tries = 0;  ///< attempts already made
    origin_id origin = 0;
  };

  /// `rate_limit` is in requests per second; 0 means unlimited.
  frontier(int max_per_host, double rate_limit);

  /// The id of an origin such as "https://example.com:443", made on first use.
  origin_id origin(std::string_view key);

  /// Queues `it` behind the other items of its origin.
  void push(item it);

  /// Queues `it` behind the other items of its origin at `when`; until then it waits apart.
  void push_at(item it, clock::time_point when);

  /// Takes the oldest item of an origin that may be asked at `now`: of `preferred` when it may
  /// be (the origin a worker's idle connection is open to), else of the origins in turn. The
  /// request it stands for holds one of its origin's slots until release().
  std::optional<item> pop(clock::time_point now, std::optional<origin_id> preferred = {});

  /// The request of an item from pop() has ended: its origin's slot is free again.
  void release(origin_id origin);

  /// No request goes to `origin` before `until` (an earlier `until` changes nothing).
  void back_off(origin_id origin, clock::time_point until);

  /// When pop() could next succeed by time passing alone (a rate-limit interval or a back-off
  /// ending for an origin with queued items and a free slot, or an item waiting apart coming
  /// due); nullopt when no such time.
  std::optional<clock::time_point> next_ready() const;

  /// Items queued or waiting apart.
  std::size_t size() const { return queued_ + waiting_.size(); }
  bool empty() const { return size() == 0; }

 private:
  struct origin_state {
    std::deque<item> queue;
    int in_flight = 0;
    clock::time_point not_before{};  // rate limit and back-off
  };

  struct waiting_item {
    clock::time_point when;
    item it;
    friend bool operator>(const waiting_item& a, const waiting_item& b) { return a.when > b.when; }
  };

  void queue_due(clock::time_point now);  // moves the items waiting apart that are due
  bool may_ask(const origin_state& o, clock::time_point now) const;
  item take(origin_state& o, clock::time_point now);  // its oldest item, holding a slot

  int max_per_host_;
  clock::duration interval_{0};  // between two requests to one origin; 0: unlimited
  std::vector<origin_state> origins_;
  // Looked up by a view of a URL's text, without a copy.
  std::unordered_map<std::string, origin_id, string_hash, std::equal_to<>> ids_;
  std::size_t turn_ = 0;    // where the next round of pop() starts
  std::size_t queued_ = 0;  // in the origins' queues
  std::priority_queue<waiting_item, std::vector<waiting_item>, std::greater<>> waiting_;
};

}  // namespace corocrawl
