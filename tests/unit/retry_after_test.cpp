// Retry-After values: delay-seconds and the three HTTP-date forms, against a fixed `now`.

#include "http/retry_after.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string_view>

namespace corocrawl {
namespace {

using namespace std::chrono_literals;
using std::chrono::seconds;
using std::chrono::sys_days;
using std::chrono::system_clock;

// Tuesday 2024-03-05 12:00:00 UTC.
const system_clock::time_point kNow = sys_days{2024y / 3 / 5} + 12h;
constexpr seconds kDay{86400};

std::optional<seconds> retry_after(std::string_view value, system_clock::time_point now = kNow) {
  return parse_retry_after(value, now);
}

// ---- delay-seconds -------------------------------------------------------------------------

TEST(ParseRetryAfter, DelaySeconds) {
  EXPECT_EQ(retry_after("120"), seconds{120});
  EXPECT_EQ(retry_after("0"), seconds{0});
  EXPECT_EQ(retry_after("1"), seconds{1});
  EXPECT_EQ(retry_after("007"), seconds{7});
}

TEST(ParseRetryAfter, DelaySecondsWithSurroundingWhitespace) {
  EXPECT_EQ(retry_after(" 120 "), seconds{120});
  EXPECT_EQ(retry_after("\t7\t"), seconds{7});
}

TEST(ParseRetryAfter, DelaySecondsAreClampedToADay) {
  EXPECT_EQ(retry_after("86400"), kDay);
  EXPECT_EQ(retry_after("86401"), kDay);
  EXPECT_EQ(retry_after("4294967296"), kDay);
  EXPECT_EQ(retry_after("99999999999999999999999999999999999999999999999999"), kDay);
}

TEST(ParseRetryAfter, MalformedDelaySeconds) {
  for (const char* value : {"", " ", "-1", "+1", "1.5", "1 2", "12s", "0x10", "1e3", "1,5"})
    EXPECT_EQ(retry_after(value), std::nullopt) << '"' << value << '"';
}

// ---- IMF-fixdate ---------------------------------------------------------------------------

TEST(ParseRetryAfter, ImfFixdate) {
  EXPECT_EQ(retry_after("Tue, 05 Mar 2024 12:02:00 GMT"), seconds{120});
  EXPECT_EQ(retry_after("Wed, 06 Mar 2024 08:00:00 GMT"), seconds{20 * 3600});
  EXPECT_EQ(retry_after("Tue, 05 Mar 2024 12:00:01 GMT"), seconds{1});
}

TEST(ParseRetryAfter, ImfFixdateWithSurroundingWhitespace) {
  EXPECT_EQ(retry_after("  Tue, 05 Mar 2024 12:02:00 GMT\t"), seconds{120});
}

TEST(ParseRetryAfter, NamesIgnoreCase) {
  EXPECT_EQ(retry_after("tue, 05 mar 2024 12:02:00 gmt"), seconds{120});
  EXPECT_EQ(retry_after("TUESDAY, 05-MAR-24 12:02:00 GMT"), seconds{120});
}

TEST(ParseRetryAfter, DayNameNeedNotMatchTheDate) {
  // Only the date says when; a wrong weekday is a sender's slip, not an unreadable value.
  EXPECT_EQ(retry_after("Mon, 05 Mar 2024 12:02:00 GMT"), seconds{120});
}

TEST(ParseRetryAfter, DateInThePastIsZero) {
  EXPECT_EQ(retry_after("Sun, 06 Nov 1994 08:49:37 GMT"), seconds{0});
  EXPECT_EQ(retry_after("Tue, 05 Mar 2024 11:59:59 GMT"), seconds{0});
  EXPECT_EQ(retry_after("Tue, 05 Mar 2024 12:00:00 GMT"), seconds{0});
  EXPECT_EQ(retry_after("Sat, 01 Jan 0000 00:00:00 GMT"), seconds{0});
}

TEST(ParseRetryAfter, FarFutureDateIsClampedToADay) {
  EXPECT_EQ(retry_after("Wed, 06 Mar 2024 12:00:00 GMT"), kDay);
  EXPECT_EQ(retry_after("Wed, 06 Mar 2024 12:00:01 GMT"), kDay);
  EXPECT_EQ(retry_after("Fri, 31 Dec 9999 23:59:59 GMT"), kDay);
}

TEST(ParseRetryAfter, PartialSecondsOfNowRoundTheDelayUp) {
  EXPECT_EQ(retry_after("Tue, 05 Mar 2024 12:02:00 GMT", kNow + 500ms), seconds{120});
  EXPECT_EQ(retry_after("Tue, 05 Mar 2024 12:02:00 GMT", kNow + 1500ms), seconds{119});
  EXPECT_EQ(retry_after("Tue, 05 Mar 2024 12:00:00 GMT", kNow + 1ns), seconds{0});
}

TEST(ParseRetryAfter, LeapDay) {
  const auto feb_28 = sys_days{2024y / 2 / 28} + 12h;
  EXPECT_EQ(retry_after("Thu, 29 Feb 2024 00:00:00 GMT", feb_28), seconds{12 * 3600});
  EXPECT_EQ(retry_after("Fri, 01 Mar 2024 00:00:00 GMT", feb_28), kDay);  // 36 hours, clamped
  EXPECT_EQ(retry_after("Sat, 29 Feb 2000 12:00:00 GMT"),
            seconds{0});  // valid: 2000 is a leap year
}

TEST(ParseRetryAfter, LeapSecondIsTheNextSecond) {
  EXPECT_EQ(retry_after("Tue, 05 Mar 2024 12:01:60 GMT"), seconds{120});
}

TEST(ParseRetryAfter, AcrossTheEndOfTheYear) {
  const auto new_years_eve = sys_days{2023y / 12 / 31} + 23h + 59min;
  EXPECT_EQ(retry_after("Mon, 01 Jan 2024 00:01:00 GMT", new_years_eve), seconds{120});
}

// ---- obsolete forms ------------------------------------------------------------------------

TEST(ParseRetryAfter, Rfc850Date) {
  EXPECT_EQ(retry_after("Tuesday, 05-Mar-24 12:02:00 GMT"), seconds{120});
  EXPECT_EQ(retry_after("Sunday, 06-Nov-94 08:49:37 GMT"), seconds{0});
}

TEST(ParseRetryAfter, Rfc850YearMoreThan50YearsAheadIsInThePastCentury) {
  // In 2024, "74" is 2074 (50 years ahead), but "75" would be 51 years ahead, so 1975.
  const auto in_2024 = kNow;
  EXPECT_EQ(retry_after("Monday, 05-Mar-74 12:00:00 GMT", in_2024), kDay);
  EXPECT_EQ(retry_after("Tuesday, 05-Mar-75 12:00:00 GMT", in_2024), seconds{0});
  EXPECT_EQ(retry_after("Tuesday, 05-Mar-99 12:00:00 GMT", in_2024), seconds{0});
  // Late in a century, small two-digit years are the next century's.
  const auto in_2099 = sys_days{2099y / 12 / 31} + 23h + 59min;
  EXPECT_EQ(retry_after("Thursday, 01-Jan-00 00:01:00 GMT", in_2099), seconds{120});
}

TEST(ParseRetryAfter, AsctimeDate) {
  EXPECT_EQ(retry_after("Tue Mar  5 12:02:00 2024"), seconds{120});
  EXPECT_EQ(retry_after("Tue Mar 05 12:02:00 2024"), seconds{120});
  EXPECT_EQ(retry_after("Wed Mar  6 08:00:00 2024"), seconds{20 * 3600});
  EXPECT_EQ(retry_after("Sun Nov  6 08:49:37 1994"), seconds{0});
  EXPECT_EQ(retry_after("Wed Mar 13 12:00:00 2024"), kDay);
}

// ---- malformed dates -----------------------------------------------------------------------

TEST(ParseRetryAfter, MalformedDates) {
  for (const char* value : {
           "Xyz, 05 Mar 2024 12:02:00 GMT",       // day name
           "Tues, 05 Mar 2024 12:02:00 GMT",      // day name
           "Tue, 05 Foo 2024 12:02:00 GMT",       // month
           "Tue, 05 March 2024 12:02:00 GMT",     // long month
           "Tue, 05 Mar 2024 25:00:00 GMT",       // hour
           "Tue, 05 Mar 2024 24:00:00 GMT",       // hour
           "Tue, 05 Mar 2024 12:60:00 GMT",       // minute
           "Tue, 05 Mar 2024 12:00:61 GMT",       // second
           "Tue, 05 Mar 2024 25:61:61 GMT",       // all of them
           "Fri, 30 Feb 2024 12:00:00 GMT",       // no such day
           "Thu, 29 Feb 2023 12:00:00 GMT",       // not a leap year
           "Tue, 00 Mar 2024 12:00:00 GMT",       // day zero
           "Tue, 32 Mar 2024 12:00:00 GMT",       // day
           "Tue, 5 Mar 2024 12:02:00 GMT",        // one-digit day
           "Tue, 05 Mar 24 12:02:00 GMT",         // two-digit year
           "Tue, 05 Mar 2024 12:02 GMT",          // no seconds
           "Tue, 05 Mar 2024 12:02:00",           // no zone
           "Tue, 05 Mar 2024 12:02:00 UTC",       // other zone
           "Tue, 05 Mar 2024 12:02:00 +0000",     // numeric zone
           "Tue, 05 Mar 2024 12:02:00 GMT junk",  // trailing text
           "Tue, 05  Mar 2024 12:02:00 GMT",      // double space
           "Tue,05 Mar 2024 12:02:00 GMT",        // no space after the comma
           "Tue 05 Mar 2024 12:02:00 GMT",        // no comma
           "Tuesday, 05 Mar 2024 12:02:00 GMT",   // long day name with an IMF date
           "Tue, 05-Mar-24 12:02:00 GMT",         // short day name with an RFC 850 date
           "Tuesday, 05-Mar-2024 12:02:00 GMT",   // four-digit year in RFC 850
           "Tue Mar  5 12:02:00 2024 GMT",        // zone in asctime
           "Tue Mar 5 12:02:00 2024",             // asctime day needs two columns
           "Tue Mar  5 12:02:00 24",              // asctime two-digit year
           "Tuesday Mar  5 12:02:00 2024",        // long day name in asctime
           "2024-03-05T12:02:00Z",                // ISO 8601
           "soon",                                // garbage
           ",",                                   // garbage
       }) {
    EXPECT_EQ(retry_after(value), std::nullopt) << '"' << value << '"';
  }
}

}  // namespace
}  // namespace corocrawl
