// Fuzzes config reading (corocrawl/config.hpp): a corocrawl.toml applied to settings and then
// validated either succeeds or throws config_error with a one-line message; nothing else
// (another exception, a crash, a hang). The value parsers the command line uses get the
// input's first line too, with the bounds app/cli.cpp gives them, and what they accept must be
// in range.
//
// Input: the contents of a corocrawl.toml, written to a file in a scratch directory (so that
// relative paths in it resolve against a real directory, as they do for users).

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>  // mkdtemp (POSIX puts it in <stdlib.h>)
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

#include "check.hpp"
#include "config/value_parsers.hpp"
#include "corocrawl/config.hpp"
#include "corocrawl/errors.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr corocrawl::fuzz::checker check{"config"};

// A scratch directory for the config file, removed at exit.
class scratch_dir {
 public:
  scratch_dir() {
    const fs::path shm = "/dev/shm";
    std::error_code ec;
    std::string pattern = ((fs::is_directory(shm, ec) ? shm : fs::temp_directory_path()) /
                           "corocrawl-config-fuzz-XXXXXX")
                              .string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    path_ = pattern;
  }
  ~scratch_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;

  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Runs `parse`; a config_error must be one non-empty line. True when it did not throw.
template <class Parse>
bool parses(std::string_view text, Parse parse) {
  try {
    parse();
    return true;
  } catch (const corocrawl::config_error& e) {
    const std::string_view message = e.what();
    check(!message.empty(), "empty config_error", text);
    check(message.find('\n') == std::string_view::npos, "config_error of several lines", message);
    return false;
  }
}

// What `parse` returns, or nothing when it throws config_error (checked as parses() does).
template <class Parse>
auto parsed(std::string_view text, Parse parse) -> std::optional<std::invoke_result_t<Parse>> {
  std::optional<std::invoke_result_t<Parse>> value;
  parses(text, [&] { value = parse(); });
  return value;
}

// The counts: every range the command line and corocrawl.toml use. Each parse reads the same
// decimal integer, so a bounded parse accepts exactly the texts whose unbounded value is in its
// range, and gives that value.
void check_counts(std::string_view text) {
  using namespace corocrawl;
  parses(text, [&] { check(parse_count("n", text, 0) >= 0, "count below min", text); });
  parses(text, [&] { check(parse_count("n", text, 1) >= 1, "count below min", text); });
  // Counts are decimal digits, never negative: this holds every value any range may give.
  const std::optional<int> any = parsed(text, [&] { return parse_count("n", text, 0); });
  for (const count_range range : {count_range{}, max_tasks_range, threads_range, max_per_host_range,
                                  max_redirect_range, max_tries_range, max_depth_range}) {
    const std::optional<int> count = parsed(text, [&] { return parse_count("n", text, range); });
    check(!count || (*count >= range.min && *count <= range.max), "count out of range", text);
    check(count == (any && *any >= range.min && *any <= range.max ? any : std::nullopt),
          "a range changes what a count reads", text);
  }
  // --max-urls: at least 1, and up to 2^64 - 1 rather than int's maximum.
  const std::optional<std::uint64_t> large =
      parsed(text, [&] { return parse_large_count("n", text); });
  check(!large || *large >= 1, "large count below 1", text);
  const bool fits_int = large && *large <= static_cast<std::uint64_t>(count_range{}.max);
  check(fits_int == (any && *any >= 1), "large count and count accept different texts", text);
  check(!fits_int || static_cast<std::uint64_t>(*any) == *large,
        "large count and count read different values", text);
}

// Sizes: --max-body is bounded by max_body_limit; the bound refuses larger sizes and changes
// nothing else.
void check_byte_sizes(std::string_view text) {
  using namespace corocrawl;
  const std::optional<std::uint64_t> any = parsed(text, [&] { return parse_byte_size("b", text); });
  check(!any || *any >= 1, "size below 1", text);
  const std::optional<std::uint64_t> body =
      parsed(text, [&] { return parse_byte_size("b", text, max_body_limit); });
  check(!body || (*body >= 1 && *body <= max_body_limit), "size out of 1..max_body_limit", text);
  check(body == (any && *any <= max_body_limit ? any : std::nullopt),
        "a limit changes what a size reads", text);
}

void check_value_parsers(std::string_view text) {
  using namespace corocrawl;
  check_counts(text);
  check_byte_sizes(text);
  for (const seconds_range range : {timeout_range, max_time_range, retry_wait_range}) {
    parses(text, [&] {
      const auto ms = parse_seconds("s", text, range);
      check(ms > 0ms || (range.allow_zero && ms == 0ms), "seconds out of range", text);
      check(ms.count() <= std::llround(range.max_seconds * 1000), "seconds above max", text);
    });
  }
  parses(text, [&] {
    const double rate = parse_rate("r", text);
    check(std::isfinite(rate) && rate >= min_rate_limit, "rate out of range", text);
  });
  parses(text, [&] {
    const http_header header = parse_header("h", text);
    check(checked_header("h", header.name, header.value) == header, "header not stable", text);
  });
  parses(text, [&] { check(parse_user("u", text) == text, "user changed", text); });
  parses(text, [&] {
    const std::string agent = parse_user_agent("a", text);
    check(parse_user_agent("a", agent) == agent, "user agent not stable", text);
  });
  parses(text, [&] { check(parse_proxy_url("p", text) == text, "proxy changed", text); });
  parses(text, [&] {
    const resolve_override r = parse_resolve("r", text);
    check(!r.addresses.empty(), "resolve without an address", text);
  });
  parses(text, [&] {
    const status_codes codes = parse_status_codes("c", text);
    check(!codes.empty(), "no status codes", text);
    check(parse_status_codes("c", codes.to_string()) == codes, "status codes not stable", text);
  });
  parses(text, [&] {
    const std::string sitemap = normalized_sitemap("s", text);
    check(normalized_sitemap("s", sitemap) == sitemap, "sitemap not stable", text);
  });
  constexpr std::string_view choices[] = {"quiet", "info", "debug", "trace"};
  parses(text, [&] { check(choices[parse_choice("c", text, choices)] == text, "choice", text); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const scratch_dir dir;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  check_value_parsers(input.substr(0, input.find('\n')));

  const fs::path file = dir.path() / "corocrawl.toml";
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(input.data(), static_cast<std::streamsize>(input.size()));
  corocrawl::crawl_options options;
  if (parses(input, [&] { corocrawl::apply_config_file(file, options); })) {
    parses(input, [&] { corocrawl::validate(options); });
  }
  return 0;
}
