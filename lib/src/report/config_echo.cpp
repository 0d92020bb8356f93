#include "report/config_echo.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

#include "corocrawl/option_table.hpp"
#include "corocrawl/utf8.hpp"
#include "text/ascii.hpp"

namespace corocrawl {

namespace json = boost::json;

namespace {

// Every string comes from the command line or a config file: written as valid UTF-8.
json::string text(std::string_view value) {
  return json::string(to_valid_utf8(value));
}

json::object header_object(const std::vector<http_header>& headers, option_secret secret) {
  json::object out;
  for (const auto& h : headers) {
    const bool hidden = secret == option_secret::header_values && !shows_header_value(h.name);
    out[text(h.name)] = text(hidden ? redacted : std::string_view(h.value));
  }
  return out;
}

std::string shown_text(std::string_view value, option_secret secret) {
  switch (secret) {
    case option_secret::whole:
      return std::string(redacted);
    case option_secret::url_userinfo:
      return without_userinfo(value);
    default:
      return std::string(value);
  }
}

// Seconds and rates as people write them: 30, not 3E1.
json::value number(double value) {
  if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 1e15)
    return static_cast<std::int64_t>(value);
  return value;
}

std::string resolve_text(const resolve_override& r) {
  std::string out = r.host + ':' + std::to_string(r.port) + ':';
  for (std::size_t i = 0; i < r.addresses.size(); ++i) {
    if (i > 0) out += ',';
    const bool v6 = r.addresses[i].find(':') != std::string::npos;
    out += v6 ? '[' + r.addresses[i] + ']' : r.addresses[i];
  }
  return out;
}

json::value option_json(const option_value& value, option_secret secret) {
  return std::visit(
      [secret](const auto& v) -> json::value {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return nullptr;
        } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, int> ||
                             std::is_same_v<T, std::uint64_t>) {
          return v;
        } else if constexpr (std::is_same_v<T, double>) {
          return number(v);
        } else if constexpr (std::is_same_v<T, std::chrono::milliseconds>) {
          return number(static_cast<double>(v.count()) / 1000.0);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return text(shown_text(v, secret));
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          json::array items;
          for (const auto& item : v)
            items.emplace_back(text(shown_text(item, secret)));
          return items;
        } else if constexpr (std::is_same_v<T, std::vector<http_header>>) {
          return header_object(v, secret);
        } else if constexpr (std::is_same_v<T, std::vector<resolve_override>>) {
          json::array items;
          for (const auto& r : v)
            items.emplace_back(text(resolve_text(r)));
          return items;
        } else {
          static_assert(std::is_same_v<T, std::map<std::string, std::vector<http_header>>>);
          json::object hosts;
          for (const auto& [host, headers] : v)
            hosts[text(host)] = header_object(headers, secret);
          return hosts;
        }
      },
      value);
}

}  // namespace

std::string without_userinfo(std::string_view url) {
  const auto scheme_end = url.find("://");
  const std::size_t authority = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  const auto authority_end = std::min(url.find_first_of("/?#", authority), url.size());
  const auto at = url.substr(0, authority_end).rfind('@');
  if (at == std::string_view::npos || at < authority) return std::string(url);
  return std::string(url.substr(0, authority)) + std::string(redacted) +
         std::string(url.substr(at));
}

bool shows_header_value(std::string_view name) {
  static constexpr std::array<std::string_view, 9> no_secret = {
      "accept", "accept-charset", "accept-encoding", "accept-language", "cache-control",
      "dnt",    "pragma",         "referer",         "user-agent"};
  return std::any_of(no_secret.begin(), no_secret.end(),
                     [name](std::string_view known) { return ascii::iequals(name, known); });
}

json::object config_echo(const crawl_options& options) {
  json::object config;
  for (const option<crawl_options>& o : crawl_option_table())
    config[o.spec.key] = option_json(o.read(options), o.spec.secret);
  return config;
}

}  // namespace corocrawl
