#include "url/trap_rules.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/parse_path.hpp>
#include <boost/url/segments_encoded_view.hpp>

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
  return path_trap_reason(parsed->encoded_path());
}

std::optional<std::string> path_trap_reason(std::string_view path) {
  const auto parsed = boost::urls::parse_path(path);
  if (!parsed) return std::nullopt;
  const auto segments = *parsed;
  int run = 0;  // how many times in a row the segment has come
  std::string_view previous;
  for (auto it = segments.begin(); it != segments.end(); ++it) {
    const std::string_view segment = *it;
    run = it != segments.begin() && segment == previous ? run + 1 : 1;
    if (run > max_repeated_segments && !segment.empty()) {
      return "trap: the path repeats the segment " + shown(segment) + " more than " +
             std::to_string(max_repeated_segments) + " times in a row";
    }
    previous = segment;
  }
  if (segments.size() > static_cast<std::size_t>(max_path_segments)) {
    return "trap: the path has " + std::to_string(segments.size()) + " segments, more than " +
           std::to_string(max_path_segments);
  }
  return std::nullopt;
}

}  // namespace corocrawl
