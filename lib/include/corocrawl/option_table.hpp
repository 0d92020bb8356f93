#pragma once
// One descriptor per option: its flag, corocrawl.toml key, kind of value, range, --help text
// and documentation line. The table of descriptors drives the command line's definitions,
// the config file reader, --help, the JSON summary's config echo and docs/options.md. A
// program adds its own descriptors (output, logging) to the library's table with lift().
//
// Reading is two steps: a kind's one text parser (parse_option_words) or one TOML reader
// (read_config_file) turns what was given into an option_value, checked as far as the value
// alone can be; the descriptor's `store` puts it into the settings. make_plan (plan.hpp)
// then checks the settings as a whole once.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "corocrawl/config.hpp"
#include "corocrawl/options.hpp"

namespace corocrawl {

/// How an option's value is written: each kind has one text parser and one TOML reader.
enum class option_kind {
  count,         ///< an int within `counts`; TOML integer
  large_count,   ///< a 64-bit count >= 1; TOML integer
  seconds,       ///< seconds within `seconds`, as milliseconds; TOML integer or float
  duration,      ///< seconds, or a number with a unit s, m, h or d ("12h"), within `seconds`,
                 ///< as milliseconds; TOML integer or float (seconds) or string
  byte_size,     ///< bytes, optionally with a unit, 1 to `max_bytes`; TOML integer or string
  rate,          ///< requests per second; TOML integer or float
  text,          ///< a string, checked by `check` when set; TOML string
  flag,          ///< no value on the command line (gives `flag_gives`); TOML boolean
  counted_flag,  ///< command line only: how many times it was given, as an int
  choice,        ///< one of `choices`, as its index (an int); TOML string
  input_file,    ///< a readable file, made absolute; TOML string (from the file's directory)
  output_file,   ///< a file to write or "-" for stdout; TOML string
  state_file,    ///< a file read when it exists and rewritten, kept between runs (not "-");
                 ///< TOML string (from the file's directory)
  roots,         ///< repeatable: URLs, bare hosts or directories; TOML array of strings
  patterns,      ///< repeatable: regular expressions; TOML array of strings
  resolves,      ///< repeatable: HOST:PORT:ADDR[,ADDR...]; TOML array of strings
  headers,       ///< repeatable "Name: value"; TOML table of "Name" = "value"
  host_headers,  ///< TOML only: [hosts."HOST".headers] tables
  texts,         ///< repeatable: strings, each checked by `check`; TOML array of strings
  outputs,       ///< repeatable: FORMAT[:FILE], FORMAT one of `choices`, FILE as output_file,
                 ///< kept as "FORMAT:FILE" ("FORMAT:-" for stdout); TOML array of strings
  status_codes,  ///< codes and ranges, "200-299,403"; TOML string, or array of integers and
                 ///< such strings
  status_rules,  ///< TOML only: [[rules]] tables
};

/// Whether the command line takes the option once per value, the values adding up.
constexpr bool repeatable(option_kind kind) {
  return kind == option_kind::roots || kind == option_kind::patterns ||
         kind == option_kind::resolves || kind == option_kind::headers ||
         kind == option_kind::texts || kind == option_kind::outputs;
}

/// What of an option's value the JSON summary's config echo hides (report/config_echo.cpp).
enum class option_secret {
  none,
  whole,          ///< the whole value ("***")
  url_userinfo,   ///< URLs: their userinfo ("https://***@host/")
  header_values,  ///< headers: every value but those of headers known to carry no secret
};

/// A value as read, before it is stored; which alternative each kind gives is listed with
/// option_kind (monostate: an optional setting that is unset, as read() reports it).
using option_value =
    std::variant<std::monostate, bool, int, std::uint64_t, double, std::chrono::milliseconds,
                 std::string, std::vector<std::string>, std::vector<http_header>,
                 std::vector<resolve_override>, std::map<std::string, std::vector<http_header>>,
                 status_codes, std::vector<status_rule>>;

/// Everything about an option but where its value goes.
struct option_spec {
  std::string_view flag;  ///< CLI11 names ("--max-tasks", "-v,--verbose"), or a positional
                          ///< name without dashes ("ROOT"); empty: corocrawl.toml only
  std::string_view key;   ///< corocrawl.toml key; empty: command line only
  option_kind kind = option_kind::text;
  std::string_view group;         ///< --help section
  std::string_view value_name;    ///< "N", "SECONDS"; empty for flags
  std::string help;               ///< --help text: lines of at most 52 columns, with the default
  std::string_view default_text;  ///< docs/options.md: the default
  std::string_view meaning;       ///< docs/options.md: one line on what it does
  std::string_view file_note;     ///< after the key in --help's config file paragraph
  count_range counts{};
  seconds_range seconds{};
  std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max();
  bool flag_gives = true;  ///< the value a flag stores
  /// option_kind::text and texts: checks a text and returns what is kept; the name is the flag
  /// or key.
  std::string (*check)(std::string_view name, std::string_view text) = nullptr;
  std::span<const std::string_view> choices{};  ///< option_kind::choice
  option_secret secret = option_secret::none;   ///< hidden in the JSON summary's "config"
};

/// A descriptor: the spec, and how its value is stored into and read from `Settings`.
template <typename Settings>
struct option {
  option_spec spec;
  std::function<void(Settings&, option_value&&)> store;
  std::function<option_value(const Settings&)> read;
};

/// The library's options, in --help order.
std::span<const option<crawl_options>> crawl_option_table();

/// `table`'s descriptors for settings that hold crawl_options in `member`.
template <typename Outer>
std::vector<option<Outer>> lift(std::span<const option<crawl_options>> table,
                                crawl_options Outer::*member) {
  std::vector<option<Outer>> lifted;
  for (const option<crawl_options>& o : table) {
    lifted.push_back(
        {o.spec,
         [store = o.store, member](Outer& s, option_value&& v) { store(s.*member, std::move(v)); },
         [read = o.read, member](const Outer& s) { return read(s.*member); }});
  }
  return lifted;
}

/// How relative paths in a value are taken.
struct path_base {
  std::filesystem::path dir;  ///< the working directory, or the config file's directory
  /// A config file's paths are made absolute; the command line's stay relative when `dir`
  /// is the process's working directory anyway (shorter messages).
  bool from_file = false;
};

/// Parses the words given for an option on the command line (`name` names it in errors): the
/// last word for a single value, every word for a repeatable kind. Not for flags. Throws
/// config_error, worded as config.hpp's parsers word it.
option_value parse_option_words(const option_spec& spec, std::string_view name,
                                std::span<const std::string> words, const path_base& base);

/// `given` combined with what the settings hold: headers replace those of the same name
/// (case-insensitive) and keep the others; any other value replaces `earlier`.
option_value combine(const option_spec& spec, option_value earlier, option_value given);

/// A value a config file gives, for `specs[option]`.
struct given_value {
  std::size_t option = 0;
  option_value value;
};

/// Reads a corocrawl.toml: every key must be one of `specs`' keys. Relative paths in it are
/// taken from the file's directory. Throws config_error as apply_config_file (config.hpp).
std::vector<given_value> read_config_file(const std::filesystem::path& file,
                                          std::span<const option_spec* const> specs);

/// Reads a corocrawl.toml with `table`'s keys and stores every value it gives into `into`;
/// on error `into` is untouched.
template <typename Settings>
void apply_config_file(const std::filesystem::path& file, std::span<const option<Settings>> table,
                       Settings& into) {
  std::vector<const option_spec*> specs;
  for (const option<Settings>& o : table)
    specs.push_back(&o.spec);
  for (given_value& given : read_config_file(file, specs))
    table[given.option].store(into, std::move(given.value));
}

/// How corocrawl.toml writes the option's key, in Markdown as docs/options.md's config key
/// column has it: "`exclude = [...]`", "`strict = false`", "`[headers]` table"; "—" when the
/// file does not have the option.
std::string config_key_markdown(const option_spec& spec);

/// The options table of docs/options.md: option, config key, default and meaning.
std::string options_markdown(std::span<const option_spec* const> specs);

/// The keys --help's config file paragraph lists, in table order (the positional first),
/// each with its file_note; kinds with tables of their own (headers, hosts, rules) are left out.
std::string config_key_list(std::span<const option_spec* const> specs);

}  // namespace corocrawl
