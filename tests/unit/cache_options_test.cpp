// --cache FILE and --cache-max-age DURATION: the duration parser, the flags, the config file's
// keys (paths from the file's directory) and the checks make_plan makes.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cli.hpp"
#include "config/value_parsers.hpp"
#include "config_error_of.hpp"
#include "corocrawl/config.hpp"
#include "corocrawl/plan.hpp"
#include "settings.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using std::chrono::milliseconds;
using testing::error_of;

TEST(ParseDuration, SecondsOrANumberWithAUnit) {
  const auto parse = [](std::string_view text) {
    return parse_duration("--cache-max-age", text, cache_max_age_range);
  };
  EXPECT_EQ(parse("90"), milliseconds(90'000));
  EXPECT_EQ(parse("90s"), milliseconds(90'000));
  EXPECT_EQ(parse("30m"), milliseconds(30min));
  EXPECT_EQ(parse("12h"), milliseconds(12h));
  EXPECT_EQ(parse("1d"), milliseconds(24h));
  EXPECT_EQ(parse("1.5h"), milliseconds(90min));
  EXPECT_EQ(parse("0.5s"), milliseconds(500));
  EXPECT_EQ(parse("0"), milliseconds(0));
  EXPECT_EQ(parse("0s"), milliseconds(0));
  EXPECT_EQ(parse("365d"), milliseconds(24h * 365));
}

TEST(ParseDuration, RejectsEverythingElseNamingTheOption) {
  for (const std::string text : {"", "soon", "d", "1w", "1 d", " 1d", "1d ", "-1d", "+1d", "1dd",
                                 "1D", "1h30m", "inf", "nan", "1e", "0x10s"}) {
    SCOPED_TRACE(text);
    error_of(
        [&] { parse_duration("--cache-max-age", text, cache_max_age_range); },
        {"--cache-max-age: expected a duration such as 90s, 30m, 12h or 1d, got \"" + text + "\""});
  }
  error_of([] { parse_duration("--cache-max-age", "366d", cache_max_age_range); },
           {"--cache-max-age: at most 365d, got \"366d\""});
  error_of([] { parse_duration("--cache-max-age", "1e300d", cache_max_age_range); },
           {"at most 365d"});
  error_of([] { parse_duration("--x", "0s"); }, {"--x: expected a positive duration"});
}

TEST(ShownDuration, TheLargestUnitThatDividesIt) {
  EXPECT_EQ(shown_duration(365.0 * 86400), "365d");
  EXPECT_EQ(shown_duration(7200), "2h");
  EXPECT_EQ(shown_duration(90), "90s");
  EXPECT_EQ(shown_duration(120), "2m");
}

class CacheOptionsTest : public ::testing::Test {
 protected:
  cli::settings parse(const std::vector<std::string>& args) const {
    auto result = cli::parse_command_line(args, dir_, {});
    if (auto* s = std::get_if<cli::settings>(&result)) return std::move(*s);
    ADD_FAILURE() << "early exit";
    return {};
  }

  testing::temp_dir temp_;
  const fs::path dir_ = temp_.path();
};

TEST_F(CacheOptionsTest, NoCacheByDefaultAndADayOfMaximumAge) {
  const cli::settings s = parse({"example.com"});
  EXPECT_EQ(s.crawl.cache, std::nullopt);
  EXPECT_EQ(s.crawl.cache_max_age, milliseconds(24h));
}

TEST_F(CacheOptionsTest, FlagsTakeAPathFromTheWorkingDirectoryAndADuration) {
  const cli::settings s = parse({"--cache", "links.json", "--cache-max-age", "12h", "example.com"});
  EXPECT_EQ(s.crawl.cache, (dir_ / "links.json").string());
  EXPECT_EQ(s.crawl.cache_max_age, milliseconds(12h));
  EXPECT_FALSE(fs::exists(dir_ / "links.json"));  // checked, not made
}

TEST_F(CacheOptionsTest, TheFilesPathIsTakenFromItsDirectory) {
  fs::create_directories(dir_ / "conf" / "state");
  const fs::path file =
      temp_.write("conf/corocrawl.toml", "cache = \"state/links.json\"\ncache_max_age = \"30m\"\n");
  const cli::settings s = parse({"--config", file.string(), "example.com"});
  EXPECT_EQ(s.crawl.cache, (dir_ / "conf" / "state" / "links.json").string());
  EXPECT_EQ(s.crawl.cache_max_age, milliseconds(30min));

  cli::settings seconds;
  cli::apply_config_file(temp_.write("seconds.toml", "cache_max_age = 3600\n"), seconds);
  EXPECT_EQ(seconds.crawl.cache_max_age, milliseconds(1h));
  cli::settings zero;
  cli::apply_config_file(temp_.write("zero.toml", "cache_max_age = 0\n"), zero);
  EXPECT_EQ(zero.crawl.cache_max_age, milliseconds(0));
}

TEST_F(CacheOptionsTest, BadValuesAreOneLineNamingTheFlagOrKey) {
  const auto error_for = [&](const std::vector<std::string>& args,
                             std::initializer_list<std::string_view> parts) {
    error_of([&] { parse(args); }, parts);
  };
  error_for({"--cache-max-age", "soon", "x.example"},
            {"--cache-max-age: expected a duration such as 90s, 30m, 12h or 1d, got \"soon\""});
  error_for({"--cache-max-age", "400d", "x.example"}, {"--cache-max-age: at most 365d"});
  error_for({"--cache-max-age", "x.example"}, {"--cache-max-age"});
  error_for({"--cache", "-", "x.example"}, {"--cache: expected a file name, got \"-\""});
  error_for({"--cache", "", "x.example"}, {"--cache: expected a file name, got \"\""});
  error_for({"--cache", "no/such/dir/links.json", "x.example"},
            {"cache: cannot write \"", "no/such/dir/links.json\": No such file or directory"});
  fs::create_directory(dir_ / "a-directory");
  error_for({"--cache", "a-directory", "x.example"}, {"cache: cannot write", "Is a directory"});

  const auto file_error_for = [&](const std::string& toml,
                                  std::initializer_list<std::string_view> parts) {
    SCOPED_TRACE(toml);
    cli::settings s;
    error_of([&] { cli::apply_config_file(temp_.write("bad.toml", toml), s); }, parts);
  };
  file_error_for("\ncache_max_age = \"1w\"\n",
                 {"bad.toml:2: cache_max_age: expected a duration such as 90s"});
  file_error_for("cache_max_age = -1\n", {"cache_max_age: expected a non-negative number"});
  file_error_for("cache_max_age = true\n",
                 {"cache_max_age: expected a number of seconds or a string such as \"12h\""});
  file_error_for("cache = 3\n", {"cache: expected a string"});
  file_error_for("cache = \"-\"\n", {"cache: expected a file name, got \"-\""});
}

TEST_F(CacheOptionsTest, MakePlanChecksOptionsMadeInCode) {
  crawl_options options;
  options.roots = {"http://x.example/"};
  options.cache = (dir_ / "links.json").string();
  EXPECT_NO_THROW(make_plan(options));
  options.cache = "";
  error_of([&] { make_plan(options); }, {"cache: expected a file name"});
  options.cache = (dir_ / "missing" / "links.json").string();
  error_of([&] { make_plan(options); }, {"cache: cannot write", "No such file or directory"});
  options.cache.reset();
  options.cache_max_age = milliseconds(-1);
  error_of([&] { make_plan(options); }, {"cache_max_age"});
  options.cache_max_age = milliseconds(366 * 24h);
  error_of([&] { make_plan(options); }, {"cache_max_age: at most"});
}

}  // namespace
}  // namespace corocrawl
