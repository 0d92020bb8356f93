#include "trap_rules.hpp"

#include <boost/url/parse.hpp>

namespace corocrawl {
namespace {

// A segment as a reason shows it: long ones are cut.
std::string shown(std::string_view segment) {
  constexpr std::size_t kShown = 40;
  if (segment.size() <= kShown) return "\"" + std::string(segment) + "\"";
  return "\"" + std::string(segment.substr(0, kShown)) + "...\"";
}

}  // namespace

std::optional<std::string> trap_reason(std::string_view url) {
  const auto parsed = boost::urls::parse_uri_reference(url);
  if (!parsed) return std::nullopt;
  std::string_view path = parsed->encoded_path();
  if (path.starts_with('/')) path.remove_prefix(1);
  if (path.empty()) return std::nullopt;

  int segments = 0;
  int run = 0;  // how many times in a row `previous` has come
  std::string_view previous;
  while (true) {
    const auto slash = path.find('/');
    const std::string_view segment = path.substr(0, slash);
    ++segments;
    run = segments > 1 && segment == previous ? run + 1 : 1;
    if (run > max_repeated_segments && !segment.empty()) {
      return "trap: the path repeats the segment " + shown(segment) + " more than " +
             std::to_string(max_repeated_segments) + " times in a row";
    }
    previous = segment;
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  if (segments > max_path_segments) {
    return "trap: the path has " + std::to_string(segments) + " segments, more than " +
           std::to_string(max_path_segments);
  }
  return std::nullopt;
}

}  // namespace corocrawl
