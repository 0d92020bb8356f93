#include "frontier/frontier.hpp"

#include <algorithm>

namespace corocrawl {

frontier::frontier(int max_per_host, double rate_limit) : max_per_host_(max_per_host) {
  if (rate_limit > 0)
    interval_ = std::chrono::duration_cast<clock::duration>(
        std::chrono::duration<double>(1.0 / rate_limit));
}

frontier::origin_id frontier::origin(std::string_view key) {
  if (const auto known = ids_.find(key); known != ids_.end()) return known->second;
  const auto id = static_cast<origin_id>(origins_.size());
  ids_.emplace(std::string(key), id);
  origins_.emplace_back();
  return id;
}

void frontier::push(item it) {
  origins_.at(it.origin).queue.push_back(it);
  ++queued_;
}

void frontier::push_at(item it, clock::time_point when) {
  waiting_.push({when, it});
}

void frontier::queue_due(clock::time_point now) {
  while (!waiting_.empty() && waiting_.top().when <= now) {
    push(waiting_.top().it);
    waiting_.pop();
  }
}

std::optional<frontier::item> frontier::pop(clock::time_point now,
                                            std::optional<origin_id> preferred) {
  queue_due(now);
  if (preferred && *preferred < origins_.size() && may_ask(origins_[*preferred], now))
    return take(origins_[*preferred], now);
  for (std::size_t i = 0; i < origins_.size(); ++i) {
    const std::size_t index = (turn_ + i) % origins_.size();
    if (!may_ask(origins_[index], now)) continue;
    turn_ = index + 1;
    return take(origins_[index], now);
  }
  return std::nullopt;
}

bool frontier::may_ask(const origin_state& o, clock::time_point now) const {
  return !o.queue.empty() && o.in_flight < max_per_host_ && now >= o.not_before;
}

frontier::item frontier::take(origin_state& o, clock::time_point now) {
  const item next = o.queue.front();
  o.queue.pop_front();
  --queued_;
  ++o.in_flight;
  if (interval_.count() > 0) o.not_before = now + interval_;
  return next;
}

void frontier::release(origin_id origin) {
  --origins_.at(origin).in_flight;
}

void frontier::back_off(origin_id origin, clock::time_point until) {
  auto& o = origins_.at(origin);
  o.not_before = std::max(o.not_before, until);
}

std::optional<frontier::clock::time_point> frontier::next_ready() const {
  std::optional<clock::time_point> earliest;
  if (!waiting_.empty()) earliest = waiting_.top().when;
  for (const auto& o : origins_) {
    if (o.queue.empty() || o.in_flight >= max_per_host_) continue;
    if (!earliest || o.not_before < *earliest) earliest = o.not_before;
  }
  return earliest;
}

}  // namespace corocrawl
