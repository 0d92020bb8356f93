// Status codes and [[rules]]: the one parser of "200-299,403", and the checks of sitemaps, the
// base URL and rules that the command line, corocrawl.toml and make_plan share.

#include "corocrawl/status_rules.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/config_detail.hpp"
#include "config/value_parsers.hpp"
#include "text/ascii.hpp"
#include "url/http_url.hpp"
#include "url/root.hpp"
#include "url/scope.hpp"
#include "url/url.hpp"

namespace corocrawl {
namespace {

using namespace detail;  // the helpers config_detail.hpp shares

std::string code_message(std::string_view code) {
  return std::string(code) + " is not an HTTP status code (" +
         std::to_string(status_codes::min_code) + " to " + std::to_string(status_codes::max_code) +
         ")";
}

bool is_code(std::int64_t code) {
  return code >= status_codes::min_code && code <= status_codes::max_code;
}

/// Sorted by their low codes, and merged where they overlap or touch.
std::vector<status_codes::range> merged(std::vector<status_codes::range> ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const auto& a, const auto& b) { return a.low < b.low; });
  std::vector<status_codes::range> out;
  for (const status_codes::range& r : ranges) {
    if (!out.empty() && r.low <= out.back().high + 1) {
      out.back().high = std::max(out.back().high, r.high);
    } else {
      out.push_back(r);
    }
  }
  return out;
}

}  // namespace

status_codes::status_codes(std::initializer_list<range> ranges)
    : status_codes(std::vector<range>(ranges)) {}

status_codes::status_codes(std::vector<range> ranges) {
  for (const range& r : ranges) {
    for (const unsigned code : {r.low, r.high})
      if (!is_code(code)) fail("status codes: " + code_message(std::to_string(code)));
    if (r.low > r.high) {
      fail("status codes: the range " + std::to_string(r.low) + "-" + std::to_string(r.high) +
           " goes down");
    }
  }
  ranges_ = merged(std::move(ranges));
}

bool status_codes::contains(unsigned status) const {
  return std::any_of(ranges_.begin(), ranges_.end(),
                     [status](const range& r) { return r.low <= status && status <= r.high; });
}

std::string status_codes::to_string() const {
  std::string out;
  for (const range& r : ranges_) {
    if (!out.empty()) out += ',';
    out += std::to_string(r.low);
    if (r.high != r.low) out += "-" + std::to_string(r.high);
  }
  return out;
}

status_codes parse_status_codes(std::string_view name, std::string_view text) {
  if (ascii::trim(text).empty()) {
    fail(name_of(name) + "expected status codes such as \"200-299,403\", got " +
         detail::quoted(text));
  }
  // Where a message names one item of several, it names the whole text too.
  const bool several = text.find(',') != std::string_view::npos;
  const auto in_text = [&] { return several ? " in " + detail::quoted(text) : std::string{}; };
  const auto code_of = [&](std::string_view item, std::string_view digits) {
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), ascii::is_digit)) {
      fail(name_of(name) + "expected a status code or a range such as 200-299, got " +
           detail::quoted(item) + in_text());
    }
    unsigned code = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), code);
    if (ec != std::errc{} || ptr != digits.data() + digits.size() || !is_code(code))
      fail(name_of(name) + code_message(digits) + in_text());
    return code;
  };

  std::vector<status_codes::range> ranges;
  std::string_view rest = text;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = ascii::trim(rest.substr(0, comma));
    const auto dash = item.find('-');
    if (dash == std::string_view::npos) {
      const unsigned code = code_of(item, item);
      ranges.push_back({code, code});
    } else {
      const unsigned low = code_of(item, ascii::trim(item.substr(0, dash)));
      const unsigned high = code_of(item, ascii::trim(item.substr(dash + 1)));
      if (low > high) {
        fail(name_of(name) + "the range " + detail::quoted(item) + " goes down (write " +
             detail::quoted(std::to_string(high) + "-" + std::to_string(low)) + ")" + in_text());
      }
      ranges.push_back({low, high});
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return status_codes(std::move(ranges));
}

unsigned checked_status_code(std::string_view name, std::int64_t code) {
  if (!is_code(code)) fail(name_of(name) + code_message(std::to_string(code)));
  return static_cast<unsigned>(code);
}

std::string normalized_sitemap(std::string_view name, std::string_view text) {
  if (text == "robots") return std::string(text);
  const auto shown = [&] { return detail::quoted(shortened_for_message(without_userinfo(text))); };
  if (text.size() > max_url_length) {
    fail(name_of(name) + "a URL of " + std::to_string(text.size()) + " bytes, more than the " +
         std::to_string(max_url_length) + " allowed: " + shown());
  }
  const std::optional<std::string> scheme = scheme_of(text);
  const std::optional<std::string> normal =
      scheme && (*scheme == "http" || *scheme == "https") ? normalize_url(text) : std::nullopt;
  if (!normal || !http_url::of(*normal)) {
    fail(name_of(name) + "expected \"robots\" or an absolute http(s) URL, got " + shown());
  }
  if (without_userinfo(*normal) != *normal) {
    fail(name_of(name) + "a sitemap URL cannot hold a user name or password, got " + shown());
  }
  return *normal;
}

std::string parse_sitemap(std::string_view name, std::string_view text) {
  normalized_sitemap(name, text);
  return std::string(text);
}

std::string parse_base_url(std::string_view name, std::string_view text) {
  const auto shown = [&] { return detail::quoted(shortened_for_message(without_userinfo(text))); };
  const std::optional<std::string> scheme = scheme_of(text);
  const std::optional<std::string> normal =
      text.size() <= max_url_length && scheme && (*scheme == "http" || *scheme == "https")
          ? normalize_url(text)
          : std::nullopt;
  const auto url = normal ? http_url::of(*normal) : std::nullopt;
  if (!url) fail(name_of(name) + "expected an absolute http(s) URL, got " + shown());
  if (without_userinfo(*normal) != *normal || url->target().find('?') != std::string_view::npos ||
      normal->find('#') != std::string::npos) {
    fail(name_of(name) + "expected a site's address without user name, query or fragment, got " +
         shown());
  }
  return normal->ends_with('/') ? *normal : *normal + "/";
}

url_pattern checked_status_rule(std::string_view name, const status_rule& rule) {
  if (rule.match.empty()) {
    fail(name_of(name) + "expected match = \"REGEX\": the pattern of the URLs the rule is for");
  }
  url_pattern pattern(rule.match, std::string(name) + ".match");
  if (rule.skip && (rule.accept || rule.warn)) {
    fail(name_of(name) +
         "skip = true goes with neither accept nor warn: a skipped URL is not "
         "fetched");
  }
  if (!rule.skip && !rule.accept && !rule.warn) {
    fail(name_of(name) + "expected accept, warn or skip = true: the rule does nothing");
  }
  if (rule.accept && rule.accept->empty())
    fail(name_of(std::string(name) + ".accept") + "expected at least one status code");
  return pattern;
}

}  // namespace corocrawl
