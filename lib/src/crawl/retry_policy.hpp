#pragma once
// When a failed try of a URL is tried again, and after how long. Network failures back off
// on their own (doubling, with jitter, capped), so that a server that refuses or resets is not
// asked again at once; 429 and 503 wait as long as their Retry-After asks (429 without one
// backs off 1, 2, 4... seconds), never longer than max_retry_wait, and hold back the whole
// origin. Plain arithmetic: tested without clocks or sockets.

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string_view>

namespace corocrawl {

/// What a failed try gave.
struct failed_try {
  bool network = false;    ///< no response came: the network failed
  bool retryable = false;  ///< (network) a failure worth another try: refused, reset, timeout...
  unsigned status = 0;     ///< (else) the response's status
  std::string_view retry_after;  ///< (else) its Retry-After header
};

/// When to try again.
struct retry_plan {
  std::chrono::milliseconds delay{0};
  bool whole_origin = false;  ///< no request goes to the URL's origin meanwhile (429, 503)
};

class retry_policy {
 public:
  /// Network retries wait about network_base, then twice that, and so on up to network_cap:
  /// each a random time between half the nominal delay and all of it.
  static constexpr std::chrono::milliseconds network_base{250};
  static constexpr std::chrono::milliseconds network_cap{8'000};

  retry_policy(int max_tries, std::chrono::milliseconds max_retry_wait, std::uint32_t seed);

  /// The plan for a URL whose try number `tries` (from 1) failed as `failure`; nullopt when
  /// that try is final.
  std::optional<retry_plan> after(int tries, const failed_try& failure,
                                  std::chrono::system_clock::time_point now);

 private:
  std::chrono::milliseconds network_delay(int tries);

  int max_tries_;
  std::chrono::milliseconds max_retry_wait_;
  std::minstd_rand jitter_;
};

}  // namespace corocrawl
