// Fuzzes robots.txt parsing and matching (robots/robots_txt.hpp) and checks their contracts,
// not only that they do not crash.
//
// Input: a robots.txt. It is parsed as given, with the crawler's name in other case, with
// CRLF line ends and with a byte order mark (when it has none), which must all decide every target
// alike; the targets are fixed ones and the values of the input's lines. Its bytes are also mapped
// onto a small alphabet to make two patterns and a target, and the verdict compared with Google's
// matcher (a set of positions, O(pattern x target)) run on them directly.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "robots/robots_txt.hpp"
#include "text/ascii.hpp"

namespace {

using corocrawl::robots_rules;

constexpr corocrawl::fuzz::checker check{"robots"};

constexpr std::string_view kAgent = "corocrawl";

// Targets to ask every parse about, besides the input's own values.
constexpr std::string_view kTargets[] = {
    "/", "", "/robots.txt", "/index.html", "/a/b?x=1", "/caf%C3%A9", "/private/", "/x.gif",
};

// The input's values: what follows the first ':' of each line, trimmed, at most 16 of them.
std::vector<std::string> targets_of(std::string_view input) {
  std::vector<std::string> targets(std::begin(kTargets), std::end(kTargets));
  std::size_t start = 0;
  while (start < input.size() && targets.size() < 16 + std::size(kTargets)) {
    std::size_t end = input.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = input.size();
    const std::string_view line = input.substr(start, end - start);
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos) {
      const auto value = corocrawl::ascii::trim(line.substr(colon + 1));
      targets.emplace_back(value.substr(0, value.find('#')));
    }
    start = end + 1;
  }
  return targets;
}

// `target` with its letters and digits percent-encoded (in lower-case hex): the same target.
std::string with_escaped_alnums(std::string_view target) {
  constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (const char c : target) {
    if (corocrawl::ascii::is_alnum(c)) {
      out += '%';
      out += hex[static_cast<unsigned char>(c) >> 4];
      out += hex[c & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

// What one parse says about each target.
struct verdicts {
  std::vector<bool> allowed;
  std::vector<std::string> rules;  // deciding_rule, "" for none
  std::vector<std::string> sitemaps;

  bool operator==(const verdicts&) const = default;
};

verdicts verdicts_of(const robots_rules& rules, const std::vector<std::string>& targets,
                     std::string_view input) {
  verdicts v;
  for (const std::string& target : targets) {
    const bool allowed = rules.allows(target);
    const auto rule = rules.deciding_rule(target);
    check(allowed == (!rule || rule->starts_with("Allow: ")), "allows disagrees with deciding_rule",
          input);
    check(!rule || rule->starts_with("Allow: /") || rule->starts_with("Allow: *") ||
              rule->starts_with("Disallow: /") || rule->starts_with("Disallow: *"),
          "a deciding rule neither Allow nor Disallow of a path pattern", input);
    // (Not with a '%' already there: "%%34%31" is not "%41".)
    if (target.find('%') == std::string::npos) {
      check(rules.allows(with_escaped_alnums(target)) == allowed,
            "escaping letters and digits changes the verdict", input);
    }
    v.allowed.push_back(allowed);
    v.rules.push_back(rule.value_or(""));
  }
  check(rules.allows("/robots.txt"), "/robots.txt disallowed", input);
  check(!rules.deciding_rule("/robots.txt"), "a rule decides /robots.txt", input);

  v.sitemaps = rules.sitemaps();
  std::set<std::string_view> seen;
  for (const std::string& sitemap : v.sitemaps) {
    check(!sitemap.empty(), "an empty sitemap", input);
    check(seen.insert(sitemap).second, "a sitemap listed twice", input);
    check(corocrawl::ascii::trim(sitemap) == sitemap, "a sitemap not trimmed", input);
    check(sitemap.find_first_of("\r\n#") == std::string::npos,
          "a sitemap with a line end or a comment", input);
  }
  return v;
}

void check_parse(std::string_view input) {
  const auto targets = targets_of(input);
  const auto expected = verdicts_of(robots_rules::parse(input, kAgent), targets, input);
  check(verdicts_of(robots_rules::parse(input, "CoroCrawl/1.0"), targets, input) == expected,
        "the crawler's name in other case, or with a version, changes a verdict", input);
  // Only one byte order mark is skipped.
  if (!input.starts_with("\xEF\xBB\xBF") && input.size() + 3 <= corocrawl::max_robots_txt_size) {
    check(verdicts_of(robots_rules::parse("\xEF\xBB\xBF" + std::string(input), kAgent), targets,
                      input) == expected,
          "a byte order mark changes a verdict", input);
  }
  if (input.find('\r') == std::string_view::npos &&
      2 * input.size() < corocrawl::max_robots_txt_size) {
    std::string crlf;
    for (const char c : input)
      crlf += c == '\n' ? std::string_view("\r\n") : std::string_view(&c, 1);
    check(verdicts_of(robots_rules::parse(crlf, kAgent), targets, input) == expected,
          "CRLF line ends change a verdict", input);
  }
  // No robots.txt allows everything.
  const robots_rules none;
  for (const std::string& target : targets)
    check(none.allows(target) && !none.deciding_rule(target), "no rules disallow", target);
}

// ---- Differential check of the matcher -----------------------------------------------------

// Google's robots.txt matcher (RobotsMatchStrategy::Matches): the positions of `path` that the
// pattern read so far can end at.
bool reference_matches(std::string_view path, std::string_view pattern) {
  std::vector<std::size_t> ends{0};
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '$' && i + 1 == pattern.size()) return ends.back() == path.size();
    std::vector<std::size_t> next;
    if (c == '*') {
      for (std::size_t end = ends.front(); end <= path.size(); ++end)
        next.push_back(end);
    } else {
      for (const std::size_t end : ends) {
        if (end < path.size() && path[end] == c) next.push_back(end + 1);
      }
    }
    if (next.empty()) return false;
    ends = std::move(next);
  }
  return true;
}

// Bytes as a string of `alphabet`, after a '/', at most `limit` of them.
std::string spelled(std::string_view bytes, std::string_view alphabet, std::size_t limit) {
  std::string out = "/";
  for (std::size_t i = 0; i < bytes.size() && i < limit; ++i)
    out += alphabet[static_cast<unsigned char>(bytes[i]) % alphabet.size()];
  return out;
}

// An Allow pattern, a Disallow pattern and a target over "ab/*" ('$' ending a pattern whose
// source's last byte is odd); the longest matching pattern must decide, Allow a tie.
void check_matcher(std::string_view input) {
  const std::size_t third = input.size() / 3;
  auto pattern = [](std::string_view bytes) {
    std::string p = spelled(bytes, "ab/*", 24);
    if (!bytes.empty() && (static_cast<unsigned char>(bytes.back()) & 1)) p += '$';
    return p;
  };
  const std::string allow = pattern(input.substr(0, third));
  const std::string disallow = pattern(input.substr(third, third));
  const std::string target = spelled(input.substr(2 * third), "ab/", 48);

  const auto rules = robots_rules::parse(
      "User-agent: *\nAllow: " + allow + "\nDisallow: " + disallow + "\n", kAgent);
  const int allow_length = reference_matches(target, allow) ? static_cast<int>(allow.size()) : -1;
  const int disallow_length =
      reference_matches(target, disallow) ? static_cast<int>(disallow.size()) : -1;
  const bool expected = disallow_length <= allow_length;
  const std::string what = allow + "\n" + disallow + "\n" + target;
  check(rules.allows(target) == expected, "the verdict differs from Google's matcher", what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  check_parse(input);
  check_matcher(input);
  return 0;
}
