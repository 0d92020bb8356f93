// Settings from corocrawl.toml, the parsers the CLI shares with it, and validation.

#include "corocrawl/config.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <boost/url/ipv4_address.hpp>
#include <boost/url/ipv6_address.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "ascii.hpp"
#include "corocrawl/errors.hpp"
#include "corocrawl/root.hpp"
#include "corocrawl/scope.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

/// The longest per-request time limit accepted: a day. Anything longer is a typo, and a
/// bound keeps the conversion to milliseconds (and later timer arithmetic) far from overflow.
constexpr double max_timeout_seconds = 24 * 60 * 60;

/// Error messages are one line whatever the user typed or a library said.
std::string one_line(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return text;
}

[[noreturn]] void fail(std::string message) {
  throw config_error(one_line(std::move(message)));
}

std::string quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

std::string name_of(std::string_view name) {
  return std::string(name) + ": ";
}

/// "a positive integer" for min 1, "a non-negative integer" for min 0.
std::string count_requirement(int min) {
  if (min == 1) return "a positive integer";
  if (min == 0) return "a non-negative integer";
  return "an integer >= " + std::to_string(min);
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), ascii::is_digit);
}

bool valid_host_name(std::string_view host) {
  return !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
    return ascii::is_alpha(c) || ascii::is_digit(c) || c == '-' || c == '.' || c == '_';
  });
}

/// Seconds to milliseconds, rounded up so that any positive value stays positive.
std::chrono::milliseconds seconds_to_ms(std::string_view name, double seconds,
                                        std::string_view shown) {
  if (!std::isfinite(seconds) || seconds <= 0) {
    fail(name_of(name) + "expected a positive number of seconds, got " + std::string(shown));
  }
  if (seconds > max_timeout_seconds) {
    fail(name_of(name) + "at most " + std::to_string(static_cast<int>(max_timeout_seconds)) +
         " seconds, got " + std::string(shown));
  }
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(seconds * 1000.0)));
}

// ---- corocrawl.toml ----------------------------------------------------------------------

constexpr std::array known_keys{"roots",   "max_tasks", "max_redirect", "max_tries",
                                "exclude", "strict",    "resolve",      "timeout",
                                "json",    "report",    "verbosity"};

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// " (did you mean "max_tasks"?)" for a key a typo or two away from a known one.
std::string suggestion_for(std::string_view key) {
  const std::string lowered = ascii::to_lower(key);
  const char* best = nullptr;
  std::size_t best_distance = 3;
  for (const char* known : known_keys) {
    const std::size_t d = edit_distance(lowered, known);
    if (d < best_distance) {
      best = known;
      best_distance = d;
    }
  }
  return best == nullptr ? std::string{} : " (did you mean " + quoted(best) + "?)";
}

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

/// Applies one parsed corocrawl.toml to settings; every error names the file, line and key.
class config_reader {
 public:
  config_reader(std::string display, fs::path dir, settings& into)
      : display_(std::move(display)), dir_(std::move(dir)), into_(into) {}

  void apply(const toml::table& table) {
    for (const auto& [key, node] : table)
      apply_key(key, node);
  }

 private:
  [[noreturn]] void fail_at(const toml::source_region& where, std::string_view what) const {
    std::string location = display_;
    if (where.begin.line != 0) location += ":" + std::to_string(where.begin.line);
    fail(location + ": " + std::string(what));
  }

  [[noreturn]] void wrong_type(const toml::node& node, std::string_view key,
                               std::string_view expected) const {
    fail_at(node.source(),
            name_of(key) + "expected " + std::string(expected) + ", got " + type_name(node.type()));
  }

  /// Runs a shared parser (whose messages name `key`) and adds the file and line to its error.
  template <typename Parse>
  auto located(const toml::node& node, Parse&& parse) const {
    try {
      return std::forward<Parse>(parse)();
    } catch (const config_error& e) {
      fail_at(node.source(), e.what());
    }
  }

  int count(const toml::node& node, std::string_view key, int min) const {
    const auto* value = node.as_integer();
    if (value == nullptr) wrong_type(node, key, "an integer");
    const std::int64_t n = value->get();
    if (n < min || n > std::numeric_limits<int>::max()) {
      fail_at(node.source(),
              name_of(key) + "expected " + count_requirement(min) + ", got " + std::to_string(n));
    }
    return static_cast<int>(n);
  }

  const std::string& string(const toml::node& node, std::string_view key) const {
    const auto* value = node.as_string();
    if (value == nullptr) wrong_type(node, key, "a string");
    return value->get();
  }

  /// Each element of an array of strings, with its node for error locations.
  template <typename Each>
  void strings(const toml::node& node, std::string_view key, Each&& each) const {
    const auto* array = node.as_array();
    if (array == nullptr) wrong_type(node, key, "an array of strings");
    for (const toml::node& element : *array)
      each(string(element, key), element);
  }

  void apply_key(const toml::key& key_node, const toml::node& node) {
    const std::string_view key = key_node.str();
    crawl_options& crawl = into_.crawl;
    if (key == "max_tasks") {
      crawl.max_tasks = count(node, key, 1);
    } else if (key == "max_redirect") {
      crawl.max_redirect = count(node, key, 0);  // 0: follow no redirect at all
    } else if (key == "max_tries") {
      crawl.max_tries = count(node, key, 1);
    } else if (key == "strict") {
      const auto* value = node.as_boolean();
      if (value == nullptr) wrong_type(node, key, "a boolean");
      crawl.strict = value->get();
    } else if (key == "timeout") {
      if (const auto* i = node.as_integer()) {
        crawl.timeout = located(node, [&] {
          return seconds_to_ms(key, static_cast<double>(i->get()), std::to_string(i->get()));
        });
      } else if (const auto* f = node.as_floating_point()) {
        std::ostringstream shown;
        shown << f->get();
        crawl.timeout = located(node, [&] { return seconds_to_ms(key, f->get(), shown.str()); });
      } else {
        wrong_type(node, key, "a number of seconds");
      }
    } else if (key == "json") {
      const std::string& path = string(node, key);
      if (path.empty()) fail_at(node.source(), "json: expected a file name or \"-\", got \"\"");
      into_.json_path = path == "-" ? path : (dir_ / path).lexically_normal().string();
    } else if (key == "report") {
      const std::string& text = string(node, key);
      into_.report = located(node, [&] { return parse_report_mode(key, text); });
    } else if (key == "verbosity") {
      const std::string& text = string(node, key);
      into_.verbosity = located(node, [&] { return parse_verbosity(key, text); });
    } else if (key == "roots") {
      std::vector<std::string> roots;
      strings(node, key, [&](const std::string& text, const toml::node& element) {
        roots.push_back(located(element, [&] { return root_text(text); }));
      });
      crawl.roots = std::move(roots);
    } else if (key == "exclude") {
      std::vector<std::string> patterns;
      strings(node, key, [&](const std::string& pattern, const toml::node& element) {
        located(element, [&] { compile_patterns(std::span(&pattern, 1), key); });
        patterns.push_back(pattern);
      });
      crawl.exclude = std::move(patterns);
    } else if (key == "resolve") {
      std::vector<resolve_override> overrides;
      strings(node, key, [&](const std::string& text, const toml::node& element) {
        overrides.push_back(located(element, [&] { return parse_resolve(key, text); }));
      });
      crawl.resolve = std::move(overrides);
    } else {
      fail_at(key_node.source(), "unknown key " + quoted(key) + suggestion_for(key));
    }
  }

  /// A root as stored in settings: directories (relative ones taken from the file's
  /// directory) become absolute paths and URLs their normalised form, so the root means the
  /// same whatever the working directory of whoever reads the settings later.
  std::string root_text(std::string_view text) const {
    try {
      const root r = classify_root(text, dir_);
      if (const auto* dir = std::get_if<directory_root>(&r)) return dir->path.string();
      return std::get<url_root>(r).url;
    } catch (const config_error& e) {
      fail(name_of("roots") + e.what());
    }
  }

  std::string display_;
  fs::path dir_;
  settings& into_;
};

std::string read_file(const fs::path& file, const std::string& display) {
  std::error_code ec;
  const auto status = fs::status(file, ec);
  if (status.type() == fs::file_type::not_found) fail(display + ": no such config file");
  if (!fs::exists(status)) fail(display + ": cannot read config file: " + ec.message());
  if (fs::is_directory(status)) fail(display + ": is a directory, not a config file");
  std::ifstream in(file, std::ios::binary);
  std::ostringstream content;
  if (in) content << in.rdbuf();
  if (!in || in.bad()) fail(display + ": cannot read config file");
  return std::move(content).str();
}

}  // namespace

void apply_config_file(const std::filesystem::path& file, settings& into) {
  const std::string display = file.string();
  const std::string content = read_file(file, display);
  toml::table table;
  try {
    table = toml::parse(content, display);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    fail(display + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) +
         ": TOML syntax error: " + std::string(e.description()));
  }
  const fs::path dir = fs::absolute(file).parent_path();
  // Work on a copy so that a bad key leaves `into` untouched.
  settings result = into;
  config_reader(display, dir, result).apply(table);
  into = std::move(result);
}

int parse_count(std::string_view name, std::string_view text, int min) {
  int value = 0;
  const auto* end = text.data() + text.size();
  // Digits only: from_chars alone would accept "-3" and the digit check also rejects "+8",
  // " 8" and "8x" (from_chars stops at the first non-digit; `ptr != end` catches that too).
  if (!all_digits(text)) {
    fail(name_of(name) + "expected " + count_requirement(min) + ", got " + quoted(text));
  }
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range) {
    fail(name_of(name) + quoted(text) + " is too large (at most " +
         std::to_string(std::numeric_limits<int>::max()) + ")");
  }
  if (ec != std::errc{} || ptr != end || value < min) {
    fail(name_of(name) + "expected " + count_requirement(min) + ", got " + quoted(text));
  }
  return value;
}

resolve_override parse_resolve(std::string_view name, std::string_view text) {
  const auto malformed = [&] {
    fail(name_of(name) + "expected HOST:PORT:ADDR, got " + quoted(text));
  };
  const auto first = text.find(':');
  if (first == std::string_view::npos) malformed();
  const auto second = text.find(':', first + 1);
  if (second == std::string_view::npos) malformed();
  const std::string_view host = text.substr(0, first);
  const std::string_view port = text.substr(first + 1, second - first - 1);
  std::string_view address = text.substr(second + 1);
  if (host.empty() || port.empty() || address.empty()) malformed();

  if (!valid_host_name(host)) {
    fail(name_of(name) + "bad host name " + quoted(host) + " in " + quoted(text));
  }
  int port_number = 0;
  const auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), port_number);
  if (!all_digits(port) || ec != std::errc{} || ptr != port.data() + port.size() ||
      port_number < 1 || port_number > 65535) {
    fail(name_of(name) + "port must be 1..65535, got " + quoted(port) + " in " + quoted(text));
  }

  // ADDR: IPv4, or IPv6 in brackets as in a URL (the brackets may also be left out: the
  // first two colons already ended HOST and PORT).
  bool valid = false;
  if (address.starts_with('[')) {
    if (address.size() > 2 && address.ends_with(']')) {
      address = address.substr(1, address.size() - 2);
      valid = bool(boost::urls::parse_ipv6_address(address));
    }
  } else if (address.find(':') != std::string_view::npos) {
    valid = bool(boost::urls::parse_ipv6_address(address));
  } else {
    valid = bool(boost::urls::parse_ipv4_address(address));
  }
  if (!valid) {
    fail(name_of(name) + "ADDR must be an IPv4 or [IPv6] address, got " +
         quoted(text.substr(second + 1)) + " in " + quoted(text));
  }
  return resolve_override{ascii::to_lower(host), static_cast<std::uint16_t>(port_number),
                          std::string(address)};
}

std::chrono::milliseconds parse_seconds(std::string_view name, std::string_view text) {
  const auto not_seconds = [&] {
    fail(name_of(name) + "expected a positive number of seconds, got " + quoted(text));
  };
  // from_chars takes no '+' or whitespace but does take "-1", "inf" and "nan": the checks in
  // seconds_to_ms reject those.
  if (text.empty() || !(ascii::is_digit(text[0]) || text[0] == '.')) not_seconds();
  double seconds = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, seconds);
  if (ec != std::errc{} || ptr != end) not_seconds();
  return seconds_to_ms(name, seconds, quoted(text));
}

report_mode parse_report_mode(std::string_view name, std::string_view text) {
  if (text == "text") return report_mode::text;
  if (text == "none") return report_mode::none;
  fail(name_of(name) + "expected \"text\" or \"none\", got " + quoted(text));
}

enum verbosity parse_verbosity(std::string_view name, std::string_view text) {
  if (text == "quiet") return verbosity::quiet;
  if (text == "info") return verbosity::info;
  if (text == "debug") return verbosity::debug;
  if (text == "trace") return verbosity::trace;
  fail(name_of(name) + "expected \"quiet\", \"info\", \"debug\" or \"trace\", got " + quoted(text));
}

void validate(const crawl_options& c) {
  if (c.roots.empty()) {
    fail("no root to crawl: give a URL or a directory, or roots = [...] in corocrawl.toml");
  }
  for (const std::string& r : c.roots)
    classify_root(r);
  compile_patterns(c.exclude, "exclude");
  if (c.max_tasks < 1)
    fail("max_tasks: expected a positive integer, got " + std::to_string(c.max_tasks));
  if (c.max_tries < 1)
    fail("max_tries: expected a positive integer, got " + std::to_string(c.max_tries));
  if (c.max_redirect < 0) {
    fail("max_redirect: expected a non-negative integer, got " + std::to_string(c.max_redirect));
  }
  if (c.timeout.count() <= 0) {
    fail("timeout: expected a positive number of seconds, got " +
         std::to_string(c.timeout.count()) + " ms");
  }
}

void validate(const settings& s) {
  validate(s.crawl);
  if (s.json_path && s.json_path->empty()) fail("json: expected a file name or \"-\", got \"\"");
}

}  // namespace corocrawl
