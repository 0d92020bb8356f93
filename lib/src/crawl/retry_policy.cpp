#include "crawl/retry_policy.hpp"

#include <algorithm>

#include "http/retry_after.hpp"

namespace corocrawl {

retry_policy::retry_policy(int max_tries, std::chrono::milliseconds max_retry_wait,
                           std::uint32_t seed)
    : max_tries_(max_tries), max_retry_wait_(max_retry_wait), jitter_(seed) {}

std::optional<retry_plan> retry_policy::after(int tries, const failed_try& failure,
                                              std::chrono::system_clock::time_point now) {
  if (tries >= max_tries_) return std::nullopt;
  if (failure.network) {
    if (!failure.retryable) return std::nullopt;
    return retry_plan{network_delay(tries), false};
  }
  if ((failure.status != 429 && failure.status != 503) || max_retry_wait_.count() == 0)
    return std::nullopt;
  std::chrono::milliseconds wait;
  if (const auto asked = parse_retry_after(failure.retry_after, now)) {
    wait = *asked;
  } else if (failure.status == 429) {
    wait = std::chrono::seconds(1) * (1 << std::clamp(tries - 1, 0, 16));
  } else {
    return std::nullopt;  // a 503 without Retry-After is an error like any other
  }
  return retry_plan{std::min(wait, max_retry_wait_), true};
}

std::chrono::milliseconds retry_policy::network_delay(int tries) {
  const auto nominal = std::min(network_base * (1 << std::clamp(tries - 1, 0, 16)), network_cap);
  std::uniform_int_distribution<std::chrono::milliseconds::rep> share(nominal.count() / 2,
                                                                      nominal.count());
  return std::chrono::milliseconds(share(jitter_));
}

}  // namespace corocrawl
