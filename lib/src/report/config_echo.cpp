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
#include "report/json_text.hpp"
#include "text/ascii.hpp"
#include "url/host.hpp"
#include "url/root.hpp"

namespace corocrawl {

namespace json = boost::json;

namespace {

json::object header_object(const std::vector<http_header>& headers, option_secret secret) {
  json::object out;
  for (const auto& h : headers) {
    const bool hidden = secret == option_secret::header_values && !shows_header_value(h.name);
    out[json_text(h.name)] = json_text(hidden ? redacted : std::string_view(h.value));
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
    out += bracketed(r.addresses[i]);
  }
  return out;
}

/// A [[rules]] table with the keys it gives.
json::object rule_object(const status_rule& rule) {
  json::object out;
  out["match"] = json_text(rule.match);
  if (rule.accept) out["accept"] = json_text(rule.accept->to_string());
  if (rule.warn) out["warn"] = json_text(rule.warn->to_string());
  if (rule.skip) out["skip"] = true;
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
          return json_text(shown_text(v, secret));
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          json::array items;
          for (const auto& item : v)
            items.emplace_back(json_text(shown_text(item, secret)));
          return items;
        } else if constexpr (std::is_same_v<T, std::vector<http_header>>) {
          return header_object(v, secret);
        } else if constexpr (std::is_same_v<T, status_codes>) {
          return json_text(v.to_string());
        } else if constexpr (std::is_same_v<T, std::vector<status_rule>>) {
          json::array rules;
          for (const status_rule& rule : v)
            rules.emplace_back(rule_object(rule));
          return rules;
        } else if constexpr (std::is_same_v<T, std::vector<resolve_override>>) {
          json::array items;
          for (const auto& r : v)
            items.emplace_back(json_text(resolve_text(r)));
          return items;
        } else {
          static_assert(std::is_same_v<T, std::map<std::string, std::vector<http_header>>>);
          json::object hosts;
          for (const auto& [host, headers] : v)
            hosts[json_text(host)] = header_object(headers, secret);
          return hosts;
        }
      },
      value);
}

}  // namespace

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
