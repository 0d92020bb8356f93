#pragma once
// The Retry-After header of 429 and 503 responses (RFC 9110 10.2.3).

#include <chrono>
#include <optional>
#include <string_view>

namespace corocrawl {

/// Parses a Retry-After value: delay-seconds ("120"), or an HTTP-date in the preferred
/// IMF-fixdate form ("Sun, 06 Nov 1994 08:49:37 GMT") or the obsolete RFC 850 and asctime
/// forms, taken relative to `now`. A date in the past gives zero. Returns nullopt for a
/// malformed value. Huge delays are clamped to a day.
std::optional<std::chrono::seconds> parse_retry_after(std::string_view value,
                                                      std::chrono::system_clock::time_point now);

}  // namespace corocrawl
