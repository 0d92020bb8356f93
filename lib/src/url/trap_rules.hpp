#pragma once
// Crawler traps: URL spaces without end that a site's links can lead into (a calendar's "next
// month", a relative link that nests a path in itself: /a/a/a/...). Heritrix's pathological-path
// rules catch them by the shape of the path alone.

#include <optional>
#include <string>
#include <string_view>

namespace corocrawl {

/// Segments one path may repeat in a row, and have in all, before it counts as a trap.
inline constexpr int max_repeated_segments = 3;
inline constexpr int max_path_segments = 64;

/// Why `url` (an absolute URL) looks like a crawler trap, in words; nullopt when it does not:
/// its path repeats one segment more than max_repeated_segments times in a row, or has more
/// than max_path_segments segments.
std::optional<std::string> trap_reason(std::string_view url);

/// trap_reason for the path of a URL ("/a/b/"), when the caller has it already.
std::optional<std::string> path_trap_reason(std::string_view path);

}  // namespace corocrawl
