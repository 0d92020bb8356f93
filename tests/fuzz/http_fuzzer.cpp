// Fuzzes what the crawler makes of a response's headers and body: Content-Encoding decoding
// with its size limit (decompress.hpp), Retry-After (retry_after.hpp) and Content-Type
// (corocrawl/content_type.hpp), checking their contracts.
//
// Input: four lines, then the body:
//   Content-Encoding value \n Content-Type value \n Retry-After value \n limit \n body...
// limit: the decoded-size limit in decimal (at most kMaxLimit; 1024 when missing or invalid).

#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.hpp"
#include "compression.hpp"
#include "http/content_type.hpp"
#include "http/decompress.hpp"
#include "http/retry_after.hpp"
#include "text/ascii.hpp"

namespace {

using namespace std::chrono_literals;
using corocrawl::decode_status;
namespace ascii = corocrawl::ascii;

constexpr std::uint64_t kMaxLimit = 1024 * 1024;
// Wednesday 2025-07-16 12:00:00 UTC: far from the end of a year, so the century a two-digit
// year is put in does not change a second later.
const std::chrono::system_clock::time_point kNow =
    std::chrono::sys_days{std::chrono::year{2025} / 7 / 16} + 12h;

constexpr corocrawl::fuzz::checker check{"http"};

// The next line of `input`, removed from it.
std::string_view next_line(std::string_view& input) {
  const std::size_t newline = input.find('\n');
  const std::string_view line = input.substr(0, newline);
  input.remove_prefix(newline == std::string_view::npos ? input.size() : newline + 1);
  return line;
}

std::uint64_t limit_of(std::string_view text) {
  std::uint64_t limit = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), limit);
  if (ec != std::errc{} || end != text.data() + text.size() || limit > kMaxLimit) return 1024;
  return limit;
}

// The same body decoded with a limit and with a larger one agree, up to the limit.
void check_decoding(std::string_view encoding, std::string_view body, std::uint64_t limit) {
  const auto big = corocrawl::decode_content(encoding, std::string(body), kMaxLimit);
  const auto small = corocrawl::decode_content(encoding, std::string(body), limit);
  for (const auto* d : {&big, &small}) {
    check(d->status == decode_status::ok || !d->problem.empty(), "failure without a problem",
          encoding);
  }
  check(big.status != decode_status::ok || big.body.size() <= kMaxLimit, "over the big limit",
        encoding);
  check(small.status != decode_status::ok || small.body.size() <= limit, "over the limit",
        encoding);
  check((big.status == decode_status::unsupported) == (small.status == decode_status::unsupported),
        "unsupported with one limit only", encoding);
  switch (big.status) {
    case decode_status::ok:
      if (big.body.size() <= limit) {
        check(small.status == decode_status::ok && small.body == big.body,
              "decodes differently under a limit it fits", encoding);
      } else {
        check(small.status == decode_status::too_large, "not too large for a smaller limit",
              encoding);
      }
      break;
    case decode_status::corrupt:
      // A small limit can be exceeded before the corruption is reached.
      check(small.status == decode_status::corrupt || small.status == decode_status::too_large,
            "corrupt only under the big limit", encoding);
      break;
    case decode_status::too_large:
      check(small.status == decode_status::too_large, "too large only under the big limit",
            encoding);
      break;
    case decode_status::unsupported:
      break;
  }
}

// What zlib encodes decodes to the same bytes, within the limit: in each framing a server may
// send (gzip; zlib-wrapped, which is what "deflate" means; raw deflate, wrongly sent as it).
void check_round_trip(std::string_view body, std::uint64_t limit) {
  struct framing {
    std::string_view encoding;
    std::string (*compress)(std::string_view);
  };
  for (const framing f : {framing{"gzip", corocrawl::testing::gzip},
                          framing{"deflate", corocrawl::testing::zlib_deflate},
                          framing{"deflate", corocrawl::testing::raw_deflate}}) {
    const auto d = corocrawl::decode_content(f.encoding, f.compress(body), limit);
    if (body.size() <= limit) {
      check(d.status == decode_status::ok && d.body == body, "round trip failed", f.encoding);
    } else {
      check(d.status == decode_status::too_large, "round trip not too large", f.encoding);
    }
  }
}

void check_content_type(std::string_view header) {
  (void)corocrawl::content_type_for_path(header);
  const auto type = corocrawl::parse_content_type(header);
  if (!type) return;
  check(ascii::to_lower(type->type) == type->type, "type not lower-case", header);
  check(type->type.find(';') == std::string::npos, "type with a parameter", header);
  // Trimmed of HTTP's optional whitespace (space and tab), as header values are.
  check(ascii::trim_ows(type->type) == type->type, "type not trimmed", header);
  if (type->charset) {
    check(!type->charset->empty(), "empty charset", header);
    check(ascii::to_lower(*type->charset) == *type->charset, "charset not lower-case", header);
  }
  check(corocrawl::is_html(header) == corocrawl::is_html(type->type), "is_html disagrees", header);
  check(corocrawl::is_markup(header) == corocrawl::is_markup(type->type), "is_markup disagrees",
        header);
  check(!corocrawl::is_html(type->type) || corocrawl::is_markup(type->type), "html but not markup",
        header);
}

void check_retry_after(std::string_view value) {
  const auto delay = corocrawl::parse_retry_after(value, kNow);
  if (!delay) return;
  check(*delay >= 0s && *delay <= 24h, "delay out of range", value);
  // Retry-After is an HTTP-date or delay-seconds (RFC 9110 10.2.3); only the latter starts
  // with a digit.
  const std::string_view trimmed = ascii::trim_ows(value);
  const bool is_date = !trimmed.empty() && !ascii::is_digit(trimmed.front());
  // A date is taken against `now` rounded down to the second; delay-seconds ignore `now`.
  check(corocrawl::parse_retry_after(value, kNow + 999ms) == delay, "depends on milliseconds",
        value);
  const auto later = corocrawl::parse_retry_after(value, kNow + 1s);
  if (!is_date) {
    check(later == delay, "delay-seconds depend on now", value);
  } else if (*delay > 0s && *delay < 24h) {
    check(later == *delay - 1s, "a second later is not a second less", value);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string_view encoding = next_line(input);
  const std::string_view content_type = next_line(input);
  const std::string_view retry_after = next_line(input);
  const std::uint64_t limit = limit_of(next_line(input));
  const std::string_view body = input;

  check_decoding(encoding, body, limit);
  check_round_trip(body, limit);
  check_content_type(content_type);
  check_retry_after(retry_after);
  return 0;
}
