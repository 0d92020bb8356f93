// Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP-date (RFC 9110 5.6.7), parsed by
// hand because strptime/timegm depend on the C locale and the time zone and <chrono> in GCC 12
// has no parse.

#include "http/retry_after.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "text/ascii.hpp"

namespace corocrawl {
namespace {

using std::chrono::seconds;

constexpr seconds kMaxDelay{86400};  // a day: longer waits are not worth a crawl's time

constexpr std::array<std::string_view, 7> kDayNames{"Mon", "Tue", "Wed", "Thu",
                                                    "Fri", "Sat", "Sun"};
constexpr std::array<std::string_view, 7> kLongDayNames{
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
constexpr std::array<std::string_view, 12> kMonthNames{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// 1*DIGIT, saturating at the clamp so that no digit string can overflow.
std::optional<seconds> parse_delay_seconds(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::int64_t value = 0;
  for (char c : s) {
    if (!ascii::is_digit(c)) return std::nullopt;
    value = std::min<std::int64_t>(value * 10 + (c - '0'), kMaxDelay.count() + 1);
  }
  return std::min(seconds{value}, kMaxDelay);
}

// A civil date and time in UTC, fields unchecked until to_time_point.
struct date_time {
  int year = 0;
  unsigned month = 0;  // 1..12
  unsigned day = 0;
  int hour = 0;
  int minute = 0;
  int second = 0;
};

// Reads an HTTP-date left to right; every step fails (and stays failed) on a mismatch.
class cursor {
 public:
  explicit cursor(std::string_view s) : rest_(s) {}

  bool ok() const { return ok_; }
  bool at_end() const { return ok_ && rest_.empty(); }
  bool next_is(char c) const { return ok_ && !rest_.empty() && rest_.front() == c; }

  /// `text`, ignoring ASCII case like the names.
  void literal(std::string_view text) {
    if (ok_ && ascii::iequals(rest_.substr(0, text.size()), text)) {
      rest_.remove_prefix(text.size());
    } else {
      ok_ = false;
    }
  }

  /// Exactly `count` digits.
  int digits(std::size_t count) {
    int value = 0;
    for (std::size_t i = 0; i < count && ok_; ++i) {
      if (rest_.empty() || !ascii::is_digit(rest_.front())) {
        ok_ = false;
      } else {
        value = value * 10 + (rest_.front() - '0');
        rest_.remove_prefix(1);
      }
    }
    return value;
  }

  /// The letters up to the next non-letter.
  std::string_view word() {
    std::size_t n = 0;
    while (n < rest_.size() && ascii::is_alpha(rest_[n]))
      ++n;
    const std::string_view w = rest_.substr(0, n);
    rest_.remove_prefix(n);
    if (w.empty()) ok_ = false;
    return w;
  }

  /// One of `names` (ASCII case-insensitive, as caches accept); its index + 1.
  template <std::size_t N>
  unsigned name(const std::array<std::string_view, N>& names) {
    const std::string_view w = word();
    for (std::size_t i = 0; i < N && ok_; ++i) {
      if (ascii::iequals(w, names[i])) return static_cast<unsigned>(i + 1);
    }
    ok_ = false;
    return 0;
  }

  /// time-of-day = hour ":" minute ":" second
  void time_of_day(date_time& t) {
    t.hour = digits(2);
    literal(":");
    t.minute = digits(2);
    literal(":");
    t.second = digits(2);
  }

 private:
  std::string_view rest_;
  bool ok_ = true;
};

bool is_day_name(std::string_view w, const std::array<std::string_view, 7>& names) {
  for (std::string_view n : names) {
    if (ascii::iequals(w, n)) return true;
  }
  return false;
}

// IMF-fixdate after "Sun, ": "06 Nov 1994 08:49:37 GMT"
std::optional<date_time> parse_imf_fixdate(cursor& c) {
  date_time t;
  t.day = static_cast<unsigned>(c.digits(2));
  c.literal(" ");
  t.month = c.name(kMonthNames);
  c.literal(" ");
  t.year = c.digits(4);
  c.literal(" ");
  c.time_of_day(t);
  c.literal(" GMT");
  if (!c.at_end()) return std::nullopt;
  return t;
}

// rfc850-date after "Sunday, ": "06-Nov-94 08:49:37 GMT". A two-digit year is taken in the
// century that puts it at most 50 years after `now_year` (RFC 9110 5.6.7).
std::optional<date_time> parse_rfc850_date(cursor& c, int now_year) {
  date_time t;
  t.day = static_cast<unsigned>(c.digits(2));
  c.literal("-");
  t.month = c.name(kMonthNames);
  c.literal("-");
  const int two_digit_year = c.digits(2);
  c.literal(" ");
  c.time_of_day(t);
  c.literal(" GMT");
  if (!c.at_end()) return std::nullopt;
  t.year = now_year - now_year % 100 + two_digit_year;
  if (t.year > now_year + 50) {
    t.year -= 100;
  } else if (t.year <= now_year - 50) {
    t.year += 100;
  }
  return t;
}

// asctime-date after "Sun ": "Nov  6 08:49:37 1994" (the day is 2DIGIT or SP DIGIT)
std::optional<date_time> parse_asctime_date(cursor& c) {
  date_time t;
  t.month = c.name(kMonthNames);
  c.literal(" ");
  if (c.next_is(' ')) {
    c.literal(" ");
    t.day = static_cast<unsigned>(c.digits(1));
  } else {
    t.day = static_cast<unsigned>(c.digits(2));
  }
  c.literal(" ");
  c.time_of_day(t);
  c.literal(" ");
  t.year = c.digits(4);
  if (!c.at_end()) return std::nullopt;
  return t;
}

std::optional<date_time> parse_http_date(std::string_view s, int now_year) {
  cursor c(s);
  const std::string_view day_name = c.word();
  if (!c.ok()) return std::nullopt;
  if (c.next_is(',')) {
    c.literal(", ");
    if (is_day_name(day_name, kDayNames)) return parse_imf_fixdate(c);
    if (is_day_name(day_name, kLongDayNames)) return parse_rfc850_date(c, now_year);
    return std::nullopt;
  }
  if (!is_day_name(day_name, kDayNames)) return std::nullopt;
  c.literal(" ");
  return parse_asctime_date(c);
}

// The instant of a valid date, or nullopt for impossible fields (Feb 30, 24:00:00). A leap
// second (:60) is allowed by the grammar and lands on the next second.
std::optional<std::chrono::sys_seconds> to_time_point(const date_time& t) {
  const std::chrono::year_month_day ymd{std::chrono::year{t.year}, std::chrono::month{t.month},
                                        std::chrono::day{t.day}};
  if (!ymd.ok() || t.hour > 23 || t.minute > 59 || t.second > 60) return std::nullopt;
  return std::chrono::sys_days{ymd} + std::chrono::hours{t.hour} + std::chrono::minutes{t.minute} +
         seconds{t.second};
}

}  // namespace

std::optional<seconds> parse_retry_after(std::string_view value,
                                         std::chrono::system_clock::time_point now) {
  value = ascii::trim_ows(value);
  if (!value.empty() && ascii::is_digit(value.front())) return parse_delay_seconds(value);

  const std::chrono::year_month_day today{std::chrono::floor<std::chrono::days>(now)};
  const std::optional<date_time> date = parse_http_date(value, static_cast<int>(today.year()));
  if (!date.has_value()) return std::nullopt;
  const std::optional<std::chrono::sys_seconds> when = to_time_point(*date);
  if (!when.has_value()) return std::nullopt;
  // In whole seconds: years 0 to 9999 do not fit the clock's nanoseconds. Against `now`
  // rounded down, the difference is the exact one rounded up, so no retry comes early.
  const seconds delay = *when - std::chrono::floor<seconds>(now);
  return std::clamp(delay, seconds{0}, kMaxDelay);
}

}  // namespace corocrawl
