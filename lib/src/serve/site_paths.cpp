// Local folder mode's request targets as paths under the site's root: URL-path logic only
// (escapes, dot segments); the server leaves the file system's say to confined_directory.
#include <algorithm>
#include <boost/url/pct_string_view.hpp>
#include <string>
#include <vector>

#include "serve/static_site_server.hpp"

namespace corocrawl {

namespace fs = std::filesystem;

namespace {

// Decodes every %XX escape; nullopt for a '%' not followed by two hex digits.
std::optional<std::string> percent_decode(std::string_view text) {
  const auto escaped = boost::urls::make_pct_string_view(text);
  if (!escaped) return std::nullopt;
  return escaped->decode();
}

// True when `inner` is `outer` or lies below it; both must be canonical.
bool is_within(const fs::path& inner, const fs::path& outer) {
  return std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end()).first == outer.end();
}

std::string_view path_part(std::string_view target) {
  return target.substr(0, target.find_first_of("?#"));
}

}  // namespace

std::optional<std::string> target_to_relative_path(std::string_view target) {
  if (target.empty() || target.front() != '/') return std::nullopt;
  const auto decoded = percent_decode(path_part(target));
  if (!decoded || decoded->find('\0') != std::string::npos) return std::nullopt;

  // Resolve "." and ".." on the URL path itself, before the file system sees it.
  std::vector<std::string_view> segments;
  std::string_view rest = *decoded;
  while (!rest.empty()) {
    const auto slash = rest.find('/');
    const auto segment = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") {
      if (segments.empty()) return std::nullopt;
      segments.pop_back();
      continue;
    }
    segments.push_back(segment);
  }
  std::string relative;
  for (const auto segment : segments) {
    if (!relative.empty()) relative += '/';
    relative += segment;
  }
  return relative;
}

std::optional<fs::path> map_target_to_path(const fs::path& root, std::string_view target) {
  const auto relative = target_to_relative_path(target);
  if (!relative) return std::nullopt;
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(root, ec);
  if (ec) return std::nullopt;
  const fs::path result = relative->empty() ? base : base / *relative;

  // Symlinks may still lead elsewhere: where the path really is must be under the root.
  const fs::path real = fs::weakly_canonical(result, ec);
  if (ec || !is_within(real, base)) return std::nullopt;
  return result;
}

}  // namespace corocrawl
