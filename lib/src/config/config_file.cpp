// The corocrawl.toml reader: applies a config file's keys to settings, checking each value
// with the parsers the command line uses and naming the file, line and key in every error.

#include <fcntl.h>
#include <sys/stat.h>
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <boost/url/ipv6_address.hpp>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "config/config_detail.hpp"
#include "corocrawl/config.hpp"
#include "corocrawl/errors.hpp"
#include "corocrawl/root.hpp"
#include "corocrawl/scope.hpp"
#include "sys/unique_fd.hpp"
#include "text/ascii.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

using namespace detail;  // the helpers config_detail.hpp shares

/// The top-level keys of corocrawl.toml, for suggestions after a typo.
constexpr std::array known_keys{"roots",        "max_tasks",      "threads",
                                "max_redirect", "max_tries",      "exclude",
                                "strict",       "resolve",        "timeout",
                                "max_time",     "max_urls",       "max_depth",
                                "trap_rules",   "max_body",       "max_per_host",
                                "rate_limit",   "max_retry_wait", "fail_on_rate_limit",
                                "insecure",     "ca_file",        "user_agent",
                                "headers",      "hosts",          "user",
                                "proxy",        "no_proxy",       "json",
                                "report",       "verbosity"};

/// The keys of a [hosts."NAME"] table.
constexpr std::array known_host_keys{"headers"};

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
std::string suggestion_for(std::string_view key, std::span<const char* const> candidates) {
  const std::string lowered = ascii::to_lower(key);
  const char* best = nullptr;
  std::size_t best_distance = 3;
  for (const char* known : candidates) {
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

  int count(const toml::node& node, std::string_view key, count_range range) const {
    const std::int64_t n = integer(node, key);
    located(node, [&] { check_count(key, n, range); });
    return static_cast<int>(n);
  }

  std::int64_t integer(const toml::node& node, std::string_view key) const {
    const auto* value = node.as_integer();
    if (value == nullptr) wrong_type(node, key, "an integer");
    return value->get();
  }

  bool boolean(const toml::node& node, std::string_view key) const {
    const auto* value = node.as_boolean();
    if (value == nullptr) wrong_type(node, key, "a boolean");
    return value->get();
  }

  const std::string& string(const toml::node& node, std::string_view key) const {
    const auto* value = node.as_string();
    if (value == nullptr) wrong_type(node, key, "a string");
    return value->get();
  }

  const toml::table& table(const toml::node& node, std::string_view key) const {
    const auto* value = node.as_table();
    if (value == nullptr) wrong_type(node, key, "a table");
    return *value;
  }

  /// An integer or a float, and how to show it in a message.
  std::pair<double, std::string> number(const toml::node& node, std::string_view key,
                                        std::string_view expected) const {
    if (const auto* i = node.as_integer()) {
      return {static_cast<double>(i->get()), std::to_string(i->get())};
    }
    if (const auto* f = node.as_floating_point()) return {f->get(), shown_number(f->get())};
    wrong_type(node, key, expected);
  }

  std::chrono::milliseconds seconds(const toml::node& node, std::string_view key,
                                    seconds_range range) const {
    const auto [value, shown] = number(node, key, "a number of seconds");
    // Structured bindings are captured by name: clang 14 cannot capture them implicitly.
    return located(node, [&, value = value, &shown = shown] {
      return seconds_to_ms(key, value, shown, range);
    });
  }

  /// Each element of an array of strings, with its node for error locations.
  template <typename Each>
  void strings(const toml::node& node, std::string_view key, Each&& each) const {
    const auto* array = node.as_array();
    if (array == nullptr) wrong_type(node, key, "an array of strings");
    for (const toml::node& element : *array)
      each(string(element, key), element);
  }

  /// A table of header names to string values, such as [headers], in the file's order (toml++
  /// keeps a table's keys sorted). `path` names the table in messages.
  std::vector<http_header> headers(const toml::node& node, const std::string& path) const {
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
  std::map<std::string, std::vector<http_header>> hosts(const toml::node& node) const {
    std::map<std::string, std::vector<http_header>> result;
    for (const auto& [host_key, entry] : table(node, "hosts")) {
      const std::string path = "hosts." + quoted(host_key.str());
      const std::string host = host_name(host_key, path);
      if (result.contains(host)) {
        fail_at(host_key.source(),
                name_of("hosts") + "host " + quoted(std::string_view(host)) + " given twice");
      }
      std::vector<http_header>& headers_of_host = result[host];
      for (const auto& [key, value] : table(entry, path)) {
        if (key.str() == "headers") {
          headers_of_host = headers(value, path + ".headers");
        } else {
          fail_at(key.source(), "unknown key " + path + "." + std::string(key.str()) +
                                    suggestion_for(key.str(), known_host_keys));
        }
      }
    }
    return result;
  }

  /// A [hosts."NAME"] name as host_headers stores it: lower-case, IPv6 without brackets.
  std::string host_name(const toml::key& key, std::string_view path) const {
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

  void apply_key(const toml::key& key_node, const toml::node& node) {
    const std::string_view key = key_node.str();
    crawl_options& crawl = into_.crawl;
    // Strings checked by a shared parser, which names the key.
    const auto parsed = [&](auto parse) {
      const std::string& text = string(node, key);
      return located(node, [&] { return parse(key, text); });
    };
    if (key == "max_tasks") {
      crawl.max_tasks = count(node, key, max_tasks_range);
    } else if (key == "threads") {
      // At least 1: leaving the key out means one per core.
      crawl.threads = count(node, key, threads_range);
    } else if (key == "max_redirect") {
      crawl.max_redirect = count(node, key, max_redirect_range);  // 0: follow no redirect
    } else if (key == "max_tries") {
      crawl.max_tries = count(node, key, max_tries_range);
    } else if (key == "max_urls") {
      // Any positive count: TOML's integers end at 2^63 - 1, far above any crawl.
      const std::int64_t n = integer(node, key);
      if (n < 1) {
        fail_at(node.source(),
                name_of(key) + "expected " + count_requirement(1) + ", got " + std::to_string(n));
      }
      crawl.max_urls = static_cast<std::uint64_t>(n);
    } else if (key == "max_depth") {
      crawl.max_depth = count(node, key, max_depth_range);  // 0: the roots only
    } else if (key == "trap_rules") {
      crawl.trap_rules = boolean(node, key);
    } else if (key == "strict") {
      crawl.strict = boolean(node, key);
    } else if (key == "timeout") {
      crawl.timeout = seconds(node, key, timeout_range);
    } else if (key == "max_time") {
      crawl.max_time = seconds(node, key, max_time_range);
    } else if (key == "max_body") {
      // A number of bytes, or a string with a unit such as "10MiB".
      if (const auto* n = node.as_integer()) {
        if (n->get() < 1) {
          fail_at(node.source(),
                  name_of(key) + "expected a size in bytes >= 1, got " + std::to_string(n->get()));
        }
        crawl.max_body = static_cast<std::uint64_t>(n->get());
        located(node, [&] { check_max_body(key, crawl.max_body); });
      } else if (node.is_string()) {
        crawl.max_body = parsed([](std::string_view name, std::string_view text) {
          return parse_byte_size(name, text, max_body_limit);
        });
      } else {
        wrong_type(node, key, "a number of bytes or a string such as \"10MiB\"");
      }
    } else if (key == "max_per_host") {
      crawl.max_per_host = count(node, key, max_per_host_range);
    } else if (key == "rate_limit") {
      const auto [value, shown] = number(node, key, "a number of requests per second");
      crawl.rate_limit = located(
          node, [&, value = value, &shown = shown] { return checked_rate(key, value, shown); });
    } else if (key == "max_retry_wait") {
      crawl.max_retry_wait = seconds(node, key, retry_wait_range);
    } else if (key == "fail_on_rate_limit") {
      crawl.fail_on_rate_limit = boolean(node, key);
    } else if (key == "insecure") {
      crawl.insecure = boolean(node, key);
    } else if (key == "ca_file") {
      crawl.ca_file = parsed([&](std::string_view name, std::string_view text) {
        return parse_ca_file(name, text, dir_);
      });
    } else if (key == "user_agent") {
      crawl.user_agent = parsed(parse_user_agent);
    } else if (key == "headers") {
      crawl.headers = headers(node, "headers");
    } else if (key == "hosts") {
      crawl.host_headers = hosts(node);
    } else if (key == "user") {
      crawl.user = parsed(parse_user);
    } else if (key == "proxy") {
      // One proxy for both schemes; "" means none, whatever the environment says.
      crawl.proxy.http_proxy = crawl.proxy.https_proxy = parsed(parse_proxy_url);
    } else if (key == "no_proxy") {
      crawl.proxy.no_proxy = ascii::trim(string(node, key));
    } else if (key == "json") {
      const std::string& path = string(node, key);
      if (path.empty()) fail_at(node.source(), "json: expected a file name or \"-\", got \"\"");
      into_.json_path = path == "-" ? path : (dir_ / path).lexically_normal().string();
    } else if (key == "report") {
      into_.report = parsed(parse_report_mode);
    } else if (key == "verbosity") {
      into_.verbosity = parsed(parse_verbosity);
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
      fail_at(key_node.source(), "unknown key " + quoted(key) + suggestion_for(key, known_keys));
    }
  }

  /// A root as stored in settings: directories (relative ones taken from the file's
  /// directory) become absolute paths and URLs their normalised form, so the root means the
  /// same whatever the working directory of whoever reads the settings later.
  std::string root_text(std::string_view text) const {
    try {
      const root r = classify_root(text, dir_);
      if (const auto* dir = std::get_if<directory_root>(&r)) return dir->path.string();
      return std::get<url_root>(r).setting;
    } catch (const config_error& e) {
      fail(name_of("roots") + e.what());
    }
  }

  std::string display_;
  fs::path dir_;
  settings& into_;
};

[[noreturn]] void fail_reading(const std::string& display, int error) {
  fail(display + ": cannot read config file: " + std::system_category().message(error));
}

/// The file's content, at most max_config_file_size bytes. Opening never waits (O_NONBLOCK:
/// a FIFO without a writer would block open); reads then block as for any reader, so that a
/// pipe is read until its writer closes it.
std::string read_file(const fs::path& file, const std::string& display) {
  const unique_fd fd(::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd) {
    if (errno == ENOENT) fail(display + ": no such config file");
    fail_reading(display, errno);
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) fail_reading(display, errno);
  if (S_ISDIR(info.st_mode)) fail(display + ": is a directory, not a config file");
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) {
    fail_reading(display, errno);
  }

  std::string content;
  if (const auto ec = read_up_to(fd.get(), max_config_file_size, content))
    fail_reading(display, ec.value());
  if (content.size() > max_config_file_size) {
    fail(display + ": more than " + std::to_string(max_config_file_size) +
         " bytes (1 MiB), too large for a config file");
  }
  // A FIFO no process has opened for writing reads as empty at once: an error, not a silent
  // empty config (its writer may simply not have started yet).
  if (content.empty() && S_ISFIFO(info.st_mode)) {
    fail(display + ": nothing to read: the FIFO has no writer (or its writer wrote nothing)");
  }
  return content;
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

}  // namespace corocrawl
