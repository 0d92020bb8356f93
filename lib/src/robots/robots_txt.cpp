// robots.txt per RFC 9309, reading the file the way Google's open-source parser does where
// the RFC leaves room (google/robotstxt): the product token of a user-agent line is its
// leading [A-Za-z_-] run, "* anything" is the global agent, and any line other than a
// user-agent line ends a run of them.
//
// Matching does not use Google's set-of-positions matcher (O(pattern x target)): a pattern
// has only '*' and a final '$', so it is a literal head, then literal runs each found at its
// leftmost place after the previous one, and that greedy choice is never worse than another.
// Each run is searched with Knuth-Morris-Pratt, whose tables parse computes, so one match
// reads the target once: linear whatever the pattern.

#include "robots/robots_txt.hpp"

#include <algorithm>
#include <unordered_set>
#include <utility>

#include "text/ascii.hpp"

namespace corocrawl {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

bool is_unreserved(char c) {
  return ascii::is_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

bool is_reserved(char c) {
  return std::string_view(":/?#[]@!$&'()*+,;=").find(c) != std::string_view::npos;
}

int hex_value(char c) {
  if (ascii::is_digit(c)) return c - '0';
  return ascii::to_lower(c) - 'a' + 10;
}

void append_escaped(std::string& out, unsigned char byte) {
  constexpr char hex[] = "0123456789ABCDEF";
  out += '%';
  out += hex[byte >> 4];
  out += hex[byte & 0xF];
}

// What `text` is compared as. Octets neither unreserved nor reserved (controls, space,
// non-ASCII, '"', '<', a '%' not starting an escape...) are percent-encoded; %xx escapes get
// upper-case hex, and those of unreserved characters are decoded. In a pattern '*' stays a
// wildcard and a final '$' an anchor, and any other '$' is a literal, "%24"; in a target,
// where neither is special, '*' and '$' are always written "%2A" and "%24", so that a
// pattern's "%2A" matches them.
std::string normalised(std::string_view text, bool is_pattern) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size() && ascii::is_hex(text[i + 1]) &&
        ascii::is_hex(text[i + 2])) {
      const auto byte =
          static_cast<unsigned char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      if (is_unreserved(static_cast<char>(byte))) {
        out += static_cast<char>(byte);
      } else {
        append_escaped(out, byte);
      }
      i += 2;
    } else if (c == '*') {
      if (is_pattern) {
        out += '*';
      } else {
        append_escaped(out, '*');
      }
    } else if (c == '$') {
      if (is_pattern && i + 1 == text.size()) {
        out += '$';
      } else {
        append_escaped(out, '$');
      }
    } else if (is_unreserved(c) || is_reserved(c)) {
      out += c;
    } else {
      append_escaped(out, static_cast<unsigned char>(c));
    }
  }
  return out;
}

// The product token a user-agent value (or the crawler's own name) stands for: its leading
// run of letters, '-' and '_'.
std::string_view product_token(std::string_view value) {
  std::size_t n = 0;
  while (n < value.size() && (ascii::is_alpha(value[n]) || value[n] == '-' || value[n] == '_')) {
    ++n;
  }
  return value.substr(0, n);
}

// "*", or "*" then whitespace and anything (as Google reads "* # all" after the comment
// went, or "* bots").
bool is_global_agent(std::string_view value) {
  return value.starts_with('*') && (value.size() == 1 || ascii::is_c_space(value[1]));
}

std::string_view trimmed(std::string_view s) {
  return ascii::trim_if(s, ascii::is_c_space);
}

// `text` cut to max_robots_txt_size, without a line the cut splits.
std::string_view within_size_limit(std::string_view text) {
  if (text.size() <= max_robots_txt_size) return text;
  const char next = text[max_robots_txt_size];
  text = text.substr(0, max_robots_txt_size);
  if (next == '\n' || next == '\r') return text;
  const std::size_t last_end = text.find_last_of("\r\n");
  return last_end == std::string_view::npos ? std::string_view() : text.substr(0, last_end + 1);
}

// Reads `text` one line at a time; a line ends with LF, CRLF or CR.
class line_reader {
 public:
  explicit line_reader(std::string_view text) : rest_(text) {}

  bool next(std::string_view& line) {
    if (done_) return false;
    const std::size_t end = rest_.find_first_of("\r\n");
    if (end == std::string_view::npos) {
      line = rest_;
      done_ = true;
      return true;
    }
    line = rest_.substr(0, end);
    const bool crlf = rest_[end] == '\r' && end + 1 < rest_.size() && rest_[end + 1] == '\n';
    rest_.remove_prefix(end + (crlf ? 2 : 1));
    return true;
  }

 private:
  std::string_view rest_;
  bool done_ = false;
};

// The Knuth-Morris-Pratt failure values of each literal run of `pattern` (the parts between
// '*'s), one per octet of the pattern; 0 at the '*'s.
std::vector<std::uint32_t> borders_of(std::string_view pattern) {
  std::vector<std::uint32_t> borders(pattern.size(), 0);
  std::size_t start = 0;  // of the current run
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '*') {
      start = i + 1;
      continue;
    }
    if (i == start) continue;
    std::uint32_t k = borders[i - 1];
    while (k > 0 && pattern[i] != pattern[start + k])
      k = borders[start + k - 1];
    if (pattern[i] == pattern[start + k]) ++k;
    borders[i] = k;
  }
  return borders;
}

// Where `run` (whose failure values are `borders`) first occurs in `text` at or after `from`;
// npos if nowhere.
std::size_t find_run(std::string_view text, std::size_t from, std::string_view run,
                     const std::uint32_t* borders) {
  if (run.empty()) return from;
  std::size_t k = 0;  // octets of `run` matched so far
  for (std::size_t j = from; j < text.size(); ++j) {
    while (k > 0 && text[j] != run[k])
      k = borders[k - 1];
    if (text[j] == run[k]) ++k;
    if (k == run.size()) return j + 1 - k;
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<robots_rules::rule> robots_rules::make_rule(bool allow, std::string_view value) {
  rule r;
  r.pattern = normalised(value, true);
  if (r.pattern.size() > max_robots_pattern_length) return std::nullopt;
  r.allow = allow;
  r.written = std::string(value);
  if (r.pattern.find('*') != std::string::npos) r.borders = borders_of(r.pattern);
  return r;
}

robots_rules robots_rules::parse(std::string_view text, std::string_view agent) {
  text = within_size_limit(text);
  if (text.starts_with(kBom)) text.remove_prefix(kBom.size());
  const std::string_view token = product_token(agent);

  robots_rules result;
  std::vector<rule> specific_rules;  // of the groups naming `token`
  std::vector<rule> global_rules;    // of the "*" groups
  bool seen_specific = false;        // a group names `token`, if with no rules
  bool in_agent_lines = false;       // the last line read was a user-agent line
  // The current group names `token`, or is for "*": neither before the first user-agent line.
  bool group_specific = false;
  bool group_global = false;
  std::unordered_set<std::string> sitemaps_seen;

  line_reader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    line = line.substr(0, line.find('#'));
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = trimmed(line.substr(0, colon));
    const std::string_view value = trimmed(line.substr(colon + 1));
    if (key.empty()) continue;

    if (ascii::iequals(key, "user-agent")) {
      if (!in_agent_lines) group_specific = group_global = false;  // a new group starts
      in_agent_lines = true;
      if (is_global_agent(value)) {
        group_global = true;
      } else if (!token.empty() && ascii::iequals(product_token(value), token)) {
        group_specific = seen_specific = true;
      }
      continue;
    }
    in_agent_lines = false;

    if (ascii::iequals(key, "sitemap")) {
      if (!value.empty() && sitemaps_seen.emplace(value).second) {
        result.sitemaps_.emplace_back(value);
      }
      continue;
    }
    const bool allow = ascii::iequals(key, "allow");
    if (!allow && !ascii::iequals(key, "disallow")) continue;  // crawl-delay, host, ...
    if (!(group_specific || group_global)) continue;
    if (value.empty() || !(value.starts_with('/') || value.starts_with('*'))) continue;
    auto r = make_rule(allow, value);
    if (!r) continue;
    if (group_global) global_rules.push_back(*r);
    if (group_specific) specific_rules.push_back(std::move(*r));
  }

  result.rules_ = seen_specific ? std::move(specific_rules) : std::move(global_rules);
  // The first rule that matches now decides.
  std::stable_sort(result.rules_.begin(), result.rules_.end(), [](const rule& a, const rule& b) {
    if (a.pattern.size() != b.pattern.size()) return a.pattern.size() > b.pattern.size();
    return a.allow && !b.allow;
  });
  return result;
}

bool robots_rules::matches(const rule& r, std::string_view target) {
  std::string_view pattern = r.pattern;
  const bool anchored = pattern.ends_with('$');
  if (anchored) pattern.remove_suffix(1);
  std::size_t star = pattern.find('*');
  if (star == std::string_view::npos)
    return anchored ? target == pattern : target.starts_with(pattern);
  if (!target.starts_with(pattern.substr(0, star))) return false;

  std::size_t at = star;  // in `target`: what the pattern up to `star` has matched ends here
  while (true) {
    const std::size_t run_start = star + 1;
    const std::size_t next_star = pattern.find('*', run_start);
    const std::size_t run_end = next_star == std::string_view::npos ? pattern.size() : next_star;
    const std::string_view run = pattern.substr(run_start, run_end - run_start);
    if (next_star == std::string_view::npos && anchored) {
      // The last run must end the target, after what came before.
      return target.size() - at >= run.size() && target.ends_with(run);
    }
    const std::size_t found = find_run(target, at, run, r.borders.data() + run_start);
    if (found == std::string_view::npos) return false;
    if (next_star == std::string_view::npos) return true;
    at = found + run.size();
    star = next_star;
  }
}

const robots_rules::rule* robots_rules::deciding(std::string_view target) const {
  if (rules_.empty()) return nullptr;
  target = target.substr(0, target.find('#'));
  std::string normal_target = target.starts_with('/') ? std::string() : std::string("/");
  normal_target += normalised(target, false);
  if (normal_target == "/robots.txt") return nullptr;
  for (const rule& r : rules_) {
    if (matches(r, normal_target)) return &r;
  }
  return nullptr;
}

bool robots_rules::allows(std::string_view target) const {
  const rule* r = deciding(target);
  return r == nullptr || r->allow;
}

std::optional<std::string> robots_rules::deciding_rule(std::string_view target) const {
  const rule* r = deciding(target);
  if (r == nullptr) return std::nullopt;
  return (r->allow ? "Allow: " : "Disallow: ") + r->written;
}

}  // namespace corocrawl
