// The TOML reader of each option kind: checks a value's type, then its range with the parsers
// the command line uses, and names the file, line and key in every error.

#include "config/toml_values.hpp"

#include <algorithm>
#include <boost/url/ipv6_address.hpp>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "config/config_detail.hpp"
#include "config/key_suggestion.hpp"
#include "config/option_paths.hpp"
#include "corocrawl/errors.hpp"
#include "text/ascii.hpp"
#include "url/url_pattern.hpp"

namespace corocrawl {
namespace {

using namespace detail;  // the helpers config_detail.hpp shares

/// The keys of a [hosts."NAME"] table.
constexpr std::string_view known_host_keys[] = {"headers"};

/// The keys of a [[rules]] table.
constexpr std::string_view known_rule_keys[] = {"match", "accept", "warn", "skip"};

std::string type_name(toml::node_type type) {
  switch (type) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

}  // namespace

void toml_values::fail_at(const toml::source_region& where, std::string_view what) const {
  std::string location = display_;
  if (where.begin.line != 0) location += ":" + std::to_string(where.begin.line);
  fail(location + ": " + std::string(what));
}

void toml_values::wrong_type(const toml::node& node, std::string_view key,
                             std::string_view expected) const {
  fail_at(node.source(),
          name_of(key) + "expected " + std::string(expected) + ", got " + type_name(node.type()));
}

/// Runs a shared parser (whose messages name the key) and adds the file and line to its error.
template <typename Parse>
auto toml_values::located(const toml::node& node, Parse&& parse) const {
  try {
    return std::forward<Parse>(parse)();
  } catch (const config_error& e) {
    fail_at(node.source(), e.what());
  }
}

int toml_values::count(const toml::node& node, std::string_view key, count_range range) const {
  const std::int64_t n = integer(node, key);
  located(node, [&] { check_count(key, n, range); });
  return static_cast<int>(n);
}

std::int64_t toml_values::integer(const toml::node& node, std::string_view key) const {
  const auto* value = node.as_integer();
  if (value == nullptr) wrong_type(node, key, "an integer");
  return value->get();
}

bool toml_values::boolean(const toml::node& node, std::string_view key) const {
  const auto* value = node.as_boolean();
  if (value == nullptr) wrong_type(node, key, "a boolean");
  return value->get();
}

const std::string& toml_values::string(const toml::node& node, std::string_view key) const {
  const auto* value = node.as_string();
  if (value == nullptr) wrong_type(node, key, "a string");
  return value->get();
}

const toml::table& toml_values::table(const toml::node& node, std::string_view key) const {
  const auto* value = node.as_table();
  if (value == nullptr) wrong_type(node, key, "a table");
  return *value;
}

/// An integer or a float, and how to show it in a message.
std::pair<double, std::string> toml_values::number(const toml::node& node, std::string_view key,
                                                   std::string_view expected) const {
  if (const auto* i = node.as_integer()) {
    return {static_cast<double>(i->get()), std::to_string(i->get())};
  }
  if (const auto* f = node.as_floating_point()) return {f->get(), shown_number(f->get())};
  wrong_type(node, key, expected);
}

/// The elements of an array of strings, each checked to be a string.
std::vector<const toml::node*> toml_values::strings(const toml::node& node,
                                                    std::string_view key) const {
  const auto* array = node.as_array();
  if (array == nullptr) wrong_type(node, key, "an array of strings");
  std::vector<const toml::node*> elements;
  for (const toml::node& element : *array) {
    string(element, key);
    elements.push_back(&element);
  }
  return elements;
}

/// A number of bytes, or a string with a unit such as "10MiB".
std::uint64_t toml_values::byte_size(const toml::node& node, std::string_view key,
                                     const option_spec& spec) const {
  if (const auto* n = node.as_integer()) {
    if (n->get() < 1) {
      fail_at(node.source(),
              name_of(key) + "expected a size in bytes >= 1, got " + std::to_string(n->get()));
    }
    const auto bytes = static_cast<std::uint64_t>(n->get());
    located(node, [&] { check_byte_size(key, bytes, spec.max_bytes); });
    return bytes;
  }
  if (node.is_string()) {
    return located(node, [&] { return parse_byte_size(key, string(node, key), spec.max_bytes); });
  }
  wrong_type(node, key, "a number of bytes or a string such as \"10MiB\"");
}

option_value toml_values::read(const option_spec& spec, std::string_view key,
                               const toml::node& node) const {
  switch (spec.kind) {
    case option_kind::count:
      return count(node, key, spec.counts);
    case option_kind::large_count: {
      // Any positive count: TOML's integers end at 2^63 - 1, far above any crawl.
      const std::int64_t n = integer(node, key);
      if (n < 1) {
        fail_at(node.source(),
                name_of(key) + "expected " + count_requirement(1) + ", got " + std::to_string(n));
      }
      return static_cast<std::uint64_t>(n);
    }
    case option_kind::seconds: {
      const auto [value, shown] = number(node, key, "a number of seconds");
      // Structured bindings are captured by name: clang 14 cannot capture them implicitly.
      return located(node, [&, value = value, &shown = shown] {
        return seconds_to_ms(key, value, shown, spec.seconds);
      });
    }
    case option_kind::duration: {
      if (node.is_string())
        return located(node, [&] { return parse_duration(key, string(node, key), spec.seconds); });
      const auto [value, shown] =
          number(node, key, "a number of seconds or a string such as \"12h\"");
      return located(node, [&, value = value, &shown = shown] {
        return seconds_to_ms(key, value, shown, spec.seconds);
      });
    }
    case option_kind::byte_size:
      return byte_size(node, key, spec);
    case option_kind::rate: {
      const auto [value, shown] = number(node, key, "a number of requests per second");
      return located(
          node, [&, value = value, &shown = shown] { return checked_rate(key, value, shown); });
    }
    case option_kind::flag:
      return boolean(node, key);
    case option_kind::text: {
      const std::string& text = string(node, key);
      if (!spec.check) return text;
      return located(node, [&] { return spec.check(key, text); });
    }
    case option_kind::choice:
      return located(node, [&] { return parse_choice(key, string(node, key), spec.choices); });
    case option_kind::input_file:
      return located(node, [&] { return parse_ca_file(key, string(node, key), dir_); });
    case option_kind::output_file:
      return located(node, [&] {
        return output_path(key, string(node, key), {.dir = dir_, .from_file = true});
      });
    case option_kind::state_file:
      return located(node, [&] {
        return state_path(key, string(node, key), {.dir = dir_, .from_file = true});
      });
    case option_kind::roots: {
      std::vector<std::string> roots;
      for (const toml::node* element : strings(node, key)) {
        roots.push_back(located(*element, [&] {
          try {
            return root_setting(string(*element, key), dir_);
          } catch (const config_error& e) {
            fail(name_of(key) + e.what());
          }
        }));
      }
      return roots;
    }
    case option_kind::patterns: {
      std::vector<std::string> patterns;
      for (const toml::node* element : strings(node, key)) {
        const std::string& pattern = string(*element, key);
        located(*element, [&] { compile_patterns(std::span(&pattern, 1), key); });
        patterns.push_back(pattern);
      }
      return patterns;
    }
    case option_kind::resolves: {
      std::vector<resolve_override> overrides;
      for (const toml::node* element : strings(node, key)) {
        overrides.push_back(
            located(*element, [&] { return parse_resolve(key, string(*element, key)); }));
      }
      return overrides;
    }
    case option_kind::headers:
      return headers(node, std::string(key));
    case option_kind::host_headers:
      return hosts(node, key);
    case option_kind::texts: {
      std::vector<std::string> texts;
      for (const toml::node* element : strings(node, key)) {
        const std::string& text = string(*element, key);
        texts.push_back(spec.check ? located(*element, [&] { return spec.check(key, text); })
                                   : text);
      }
      return texts;
    }
    case option_kind::outputs: {
      std::vector<std::string> outputs;
      for (const toml::node* element : strings(node, key)) {
        outputs.push_back(located(*element, [&] {
          return output_setting(key, string(*element, key), spec.choices,
                                {.dir = dir_, .from_file = true});
        }));
      }
      return outputs;
    }
    case option_kind::status_codes:
      return codes(node, key);
    case option_kind::status_rules:
      return rules(node, key);
    case option_kind::counted_flag:
      break;
  }
  fail_at(node.source(), name_of(key) + "is not read from a config file");
}

/// A table of header names to string values, such as [headers], in the file's order (toml++
/// keeps a table's keys sorted). `path` names the table in messages.
std::vector<http_header> toml_values::headers(const toml::node& node,
                                              const std::string& path) const {
  const toml::table& entries = table(node, path);
  std::vector<std::pair<const toml::key*, const toml::node*>> in_file_order;
  for (const auto& [key, value] : entries)
    in_file_order.emplace_back(&key, &value);
  std::stable_sort(in_file_order.begin(), in_file_order.end(), [](const auto& a, const auto& b) {
    const auto& x = a.first->source().begin;
    const auto& y = b.first->source().begin;
    return std::pair(x.line, x.column) < std::pair(y.line, y.column);
  });

  std::vector<http_header> result;
  for (const auto& [key, value] : in_file_order) {
    const std::string& text = string(*value, path + "." + quoted(key->str()));
    http_header header =
        located(*value, [&, key = key] { return checked_header(path, key->str(), text); });
    for (const http_header& earlier : result) {
      if (ascii::iequals(earlier.name, header.name)) {
        fail_at(key->source(), name_of(path) + "header " + quoted(std::string_view(header.name)) +
                                   " given twice (as " + quoted(std::string_view(earlier.name)) +
                                   ")");
      }
    }
    result.push_back(std::move(header));
  }
  return result;
}

/// [hosts."docs.example.com"] tables: per-host headers.
std::map<std::string, std::vector<http_header>> toml_values::hosts(const toml::node& node,
                                                                   std::string_view key) const {
  std::map<std::string, std::vector<http_header>> result;
  for (const auto& [host_key, entry] : table(node, key)) {
    const std::string path = std::string(key) + "." + quoted(host_key.str());
    const std::string host = host_name(host_key, path);
    if (result.contains(host)) {
      fail_at(host_key.source(),
              name_of(key) + "host " + quoted(std::string_view(host)) + " given twice");
    }
    std::vector<http_header>& headers_of_host = result[host];
    for (const auto& [entry_key, value] : table(entry, path)) {
      if (entry_key.str() == "headers") {
        headers_of_host = headers(value, path + ".headers");
      } else {
        fail_at(entry_key.source(), "unknown key " + path + "." + std::string(entry_key.str()) +
                                        suggestion_for(entry_key.str(), known_host_keys));
      }
    }
  }
  return result;
}

/// A [hosts."NAME"] name as host_headers stores it: lower-case, IPv6 without brackets.
std::string toml_values::host_name(const toml::key& key, std::string_view path) const {
  std::string_view host = key.str();
  if (host.size() > 2 && host.starts_with('[') && host.ends_with(']')) {
    host = host.substr(1, host.size() - 2);
  }
  if (!valid_host_name(host) && !boost::urls::parse_ipv6_address(host)) {
    fail_at(key.source(),
            name_of(path) + "expected a host name or IP address, got " + quoted(key.str()));
  }
  return ascii::to_lower(host);
}

/// Status codes: a string such as "200-299,403", or an array of codes and such strings (empty:
/// none).
status_codes toml_values::codes(const toml::node& node, std::string_view key) const {
  if (node.is_string())
    return located(node, [&] { return parse_status_codes(key, string(node, key)); });
  const auto* array = node.as_array();
  if (array == nullptr) {
    wrong_type(node, key, "status codes: a string such as \"200-299,403\" or an array");
  }
  std::vector<status_codes::range> ranges;
  for (const toml::node& element : *array) {
    if (const auto* code = element.as_integer()) {
      const unsigned status =
          located(element, [&] { return checked_status_code(key, code->get()); });
      ranges.push_back({status, status});
    } else if (element.is_string()) {
      const status_codes codes =
          located(element, [&] { return parse_status_codes(key, string(element, key)); });
      ranges.insert(ranges.end(), codes.ranges().begin(), codes.ranges().end());
    } else {
      wrong_type(element, key, "a status code or a string such as \"200-299\"");
    }
  }
  return status_codes(std::move(ranges));
}

/// [[rules]] tables, named in messages rules[1], rules[2], ... in the file's order.
std::vector<status_rule> toml_values::rules(const toml::node& node, std::string_view key) const {
  const auto* array = node.as_array();
  if (array == nullptr) wrong_type(node, key, "an array of tables ([[" + std::string(key) + "]])");
  std::vector<status_rule> result;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const toml::node& element = *array->get(i);
    const std::string name = std::string(key) + "[" + std::to_string(i + 1) + "]";
    status_rule rule;
    for (const auto& [rule_key, value] : table(element, name)) {
      const std::string path = name + "." + std::string(rule_key.str());
      if (rule_key.str() == "match") {
        rule.match = string(value, path);
      } else if (rule_key.str() == "accept") {
        rule.accept = codes(value, path);
      } else if (rule_key.str() == "warn") {
        rule.warn = codes(value, path);
      } else if (rule_key.str() == "skip") {
        rule.skip = boolean(value, path);
      } else {
        fail_at(rule_key.source(),
                "unknown key " + path + suggestion_for(rule_key.str(), known_rule_keys));
      }
    }
    located(element, [&] { checked_status_rule(name, rule); });
    result.push_back(std::move(rule));
  }
  return result;
}

}  // namespace corocrawl
