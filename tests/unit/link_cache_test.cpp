// The cache of external URLs' successes: its file format read back, what a file that is not a
// cache gives, the maximum age (with `now` given, never the clock's), the merge of a save with
// what another run saved meanwhile, and what is remembered at all.

#include "cache/link_cache.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "cache/cache_file.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using time_point = link_cache::time_point;

/// A moment of the tests: 2025-11-24 16:00:00 UTC, and what is hours and days after it.
constexpr std::chrono::sys_seconds saved_at{std::chrono::seconds(1'764'000'000)};

cache_entry entry_at(std::chrono::sys_seconds checked, unsigned status = 200) {
  return {.status = status,
          .content_type = "text/html",
          .encoding = "utf-8",
          .head = true,
          .checked = checked};
}

fetch_record ok_record(const std::string& url, unsigned status = 200) {
  return {.url = url,
          .status = status,
          .tries = 1,
          .content_type = "image/png",
          .external = true,
          .method = "HEAD"};
}

class LinkCacheTest : public ::testing::Test {
 protected:
  /// Writes `entries` as the cache file, as another run would have.
  void write_file(const cache_entries& entries) const {
    temp_.write("cache.json", cache_text(entries));
  }

  /// The entries of the cache file now; fails the test when it is not a valid cache.
  cache_entries file_entries() const {
    cache_contents read = read_cache_file(file_);
    EXPECT_FALSE(read.problem) << *read.problem;
    return read.entries;
  }

  link_cache loaded(std::chrono::milliseconds max_age = 24h) const {
    link_cache cache(file_, max_age);
    const auto problem = cache.load();
    EXPECT_FALSE(problem) << *problem;
    return cache;
  }

  testing::temp_dir temp_;
  const fs::path file_ = temp_.path() / "cache.json";
};

TEST(CacheFile, EntriesReadBackAsWritten) {
  const cache_entries entries{
      {"https://example.org/", entry_at(saved_at)},
      {"https://example.org/logo.png",
       {.status = 204, .content_type = std::nullopt, .head = false, .checked = saved_at - 3600s}},
      {"https://example.org/\"quoted\"\\", entry_at(saved_at + 1s, 299)}};
  const std::string text = cache_text(entries);
  EXPECT_TRUE(text.starts_with("{\"format\":\"corocrawl-cache/1\",\"entries\":{\n")) << text;
  EXPECT_TRUE(text.ends_with("\n}}\n")) << text;
  const cache_contents read = parse_cache(text);
  EXPECT_FALSE(read.problem);
  EXPECT_EQ(read.entries, entries);
}

TEST(CacheFile, OneEntryPerLineSortedByUrl) {
  const std::string text = cache_text(
      {{"https://b.example/", entry_at(saved_at)}, {"https://a.example/", entry_at(saved_at)}});
  EXPECT_EQ(text,
            "{\"format\":\"corocrawl-cache/1\",\"entries\":{\n"
            "\"https://a.example/\":{\"status\":200,\"checked\":1764000000,\"method\":\"HEAD\","
            "\"content_type\":\"text/html\",\"encoding\":\"utf-8\"},\n"
            "\"https://b.example/\":{\"status\":200,\"checked\":1764000000,\"method\":\"HEAD\","
            "\"content_type\":\"text/html\",\"encoding\":\"utf-8\"}\n"
            "}}\n");
  EXPECT_EQ(cache_text({}), "{\"format\":\"corocrawl-cache/1\",\"entries\":{\n}}\n");
}

TEST(CacheFile, KeysItDoesNotKnowAreIgnored) {
  const cache_contents read = parse_cache(
      R"({"format": "corocrawl-cache/1", "written_by": "a later version", "entries": {
          "https://x.example/": {"status": 200, "checked": 5, "method": "GET", "etag": "abc"}}})");
  EXPECT_FALSE(read.problem);
  EXPECT_EQ(read.entries.at("https://x.example/"),
            (cache_entry{.status = 200, .head = false, .checked = std::chrono::sys_seconds(5s)}));
}

TEST(CacheFile, AnythingElseIsAProblemAndNoEntries) {
  const std::string valid_entry =
      R"("https://ok.example/": {"status": 200, "checked": 5, "method": "GET"})";
  const auto with_entry = [&](const std::string& entry) {
    return R"({"format": "corocrawl-cache/1", "entries": {)" + valid_entry + ", " + entry + "}}";
  };
  const std::pair<std::string, std::string> cases[] = {
      {"", "not JSON"},
      {"{\"format\": \"corocrawl-cache/1\", \"entries\": {", "not JSON"},
      {"[1, 2]", "not a corocrawl cache"},
      {R"({"format": "corocrawl-cache/2", "entries": {}})", "not a corocrawl cache"},
      {R"({"entries": {}})", "not a corocrawl cache"},
      {R"({"format": "corocrawl-cache/1"})", "\"entries\" is not an object"},
      {R"({"format": "corocrawl-cache/1", "entries": []})", "\"entries\" is not an object"},
      {with_entry(R"("https://x/": 200)"), "entry \"https://x/\": not an object"},
      {with_entry(R"("https://x/": {"status": 404, "checked": 5, "method": "GET"})"),
       "entry \"https://x/\": \"status\" must be a number from 200 to 299"},
      {with_entry(R"("https://x/": {"status": "200", "checked": 5, "method": "GET"})"),
       "\"status\""},
      {with_entry(R"("https://x/": {"status": 200, "checked": 5.5, "method": "GET"})"),
       "\"checked\" must be a whole number of seconds"},
      {with_entry(R"("https://x/": {"status": 200, "method": "GET"})"), "\"checked\""},
      {with_entry(R"("https://x/": {"status": 200, "checked": 5, "method": "POST"})"),
       "\"method\" must be \"GET\" or \"HEAD\""},
      {with_entry(R"("https://x/": {"status": 200, "checked": 5, "method": "GET",
                                    "content_type": 3})"),
       "\"content_type\" must be a string or null"},
      {with_entry(R"("https://x/": {"status": 200, "checked": 5, "method": "GET",
                                    "encoding": ["utf-8"]})"),
       "\"encoding\" must be a string or null"},
  };
  for (const auto& [text, problem] : cases) {
    SCOPED_TRACE(text);
    const cache_contents read = parse_cache(text);
    ASSERT_TRUE(read.problem);
    EXPECT_NE(read.problem->find(problem), std::string::npos) << *read.problem;
    EXPECT_TRUE(read.entries.empty());
  }
}

TEST(CacheFile, NewerCheckWinsAMerge) {
  cache_entries into{{"https://a/", entry_at(saved_at)}, {"https://b/", entry_at(saved_at)}};
  merge_entries(into, {{"https://a/", entry_at(saved_at + 1s, 204)},
                       {"https://b/", entry_at(saved_at - 1s, 204)},
                       {"https://c/", entry_at(saved_at)}});
  EXPECT_EQ(into, (cache_entries{{"https://a/", entry_at(saved_at + 1s, 204)},
                                 {"https://b/", entry_at(saved_at)},
                                 {"https://c/", entry_at(saved_at)}}));
}

TEST_F(LinkCacheTest, NoFileYetIsAnEmptyCacheWithoutAProblem) {
  const link_cache cache = loaded();
  EXPECT_FALSE(cache.lookup("https://example.org/", saved_at));
  EXPECT_FALSE(fs::exists(file_));
}

TEST_F(LinkCacheTest, AFileThatIsNotACacheIsNamedAndTakenAsEmptyThenReplaced) {
  write_file({{"https://example.org/", entry_at(saved_at)}});
  temp_.write("cache.json", temp_.read("cache.json").substr(0, 60));  // cut, say by a full disk
  link_cache cache(file_, 24h);
  const auto problem = cache.load();
  ASSERT_TRUE(problem);
  EXPECT_TRUE(problem->starts_with(file_.string() + ": not JSON")) << *problem;
  EXPECT_FALSE(cache.lookup("https://example.org/", saved_at));

  cache.remember(ok_record("https://new.example/"), saved_at);
  EXPECT_FALSE(cache.save(saved_at));
  EXPECT_EQ(file_entries().size(), 1u);
  EXPECT_TRUE(file_entries().contains("https://new.example/"));
}

TEST_F(LinkCacheTest, ADirectoryIsAProblem) {
  fs::create_directory(file_);
  link_cache cache(file_, 24h);
  const auto problem = cache.load();
  ASSERT_TRUE(problem);
  EXPECT_EQ(*problem, file_.string() + ": not a regular file");
}

TEST_F(LinkCacheTest, AnUnreadableFileIsAProblem) {
  write_file({{"https://example.org/", entry_at(saved_at)}});
  ::chmod(file_.c_str(), 0);
  if (::access(file_.c_str(), R_OK) == 0) GTEST_SKIP() << "running as root: every file is readable";
  link_cache cache(file_, 24h);
  const auto problem = cache.load();
  ASSERT_TRUE(problem);
  EXPECT_EQ(*problem, file_.string() + ": cannot read it: Permission denied");
}

TEST_F(LinkCacheTest, AnEntryIsUsedWhileYoungerThanTheMaximumAge) {
  write_file({{"https://example.org/", entry_at(saved_at)}});
  const link_cache cache = loaded(12h);
  EXPECT_EQ(cache.lookup("https://example.org/", saved_at), entry_at(saved_at));
  EXPECT_TRUE(cache.lookup("https://example.org/", time_point(saved_at) + 12h - 1ms));
  EXPECT_FALSE(cache.lookup("https://example.org/", time_point(saved_at) + 12h));
  EXPECT_FALSE(cache.lookup("https://example.org/", time_point(saved_at) + 30 * 24h));
  // Checked after `now`: the clock was set back, the entry's age is unknown.
  EXPECT_FALSE(cache.lookup("https://example.org/", time_point(saved_at) - 1s));
  EXPECT_FALSE(cache.lookup("https://example.org/other", saved_at));
}

TEST_F(LinkCacheTest, AMaximumAgeOfZeroUsesNothing) {
  write_file({{"https://example.org/", entry_at(saved_at)}});
  EXPECT_FALSE(loaded(0ms).lookup("https://example.org/", saved_at));
}

TEST_F(LinkCacheTest, OnlySuccessesAreRemembered) {
  link_cache cache = loaded();
  cache.remember(ok_record("https://ok.example/"), saved_at);
  cache.remember(ok_record("https://no-content.example/", 204), saved_at);
  cache.remember(ok_record("https://moved.example/", 301), saved_at);
  cache.remember(ok_record("https://gone.example/", 404), saved_at);
  cache.remember(ok_record("https://busy.example/", 429), saved_at);
  cache.remember(ok_record("https://down.example/", 503), saved_at);
  fetch_record failed = ok_record("https://refused.example/");
  failed.status.reset();
  failed.error = "connection refused";
  cache.remember(failed, saved_at);
  fetch_record too_large = ok_record("https://huge.example/");
  too_large.error = "body too large";
  cache.remember(too_large, saved_at);
  fetch_record cached = ok_record("https://cached.example/");
  cached.cached = true;
  cache.remember(cached, saved_at);
  EXPECT_FALSE(cache.save(saved_at));

  const cache_entries saved = file_entries();
  EXPECT_EQ(saved.size(), 2u);
  EXPECT_EQ(
      saved.at("https://ok.example/"),
      (cache_entry{.status = 200, .content_type = "image/png", .head = true, .checked = saved_at}));
  EXPECT_EQ(saved.at("https://no-content.example/").status, 204u);
}

TEST_F(LinkCacheTest, ASaveMergesWithWhatAnotherRunSavedMeanwhile) {
  write_file({{"https://shared.example/", entry_at(saved_at - 3600s)}});
  link_cache cache = loaded();
  // Another run saves after this one loaded: an entry of its own, and a newer check of one
  // this run checked too.
  write_file({{"https://shared.example/", entry_at(saved_at - 3600s)},
              {"https://theirs.example/", entry_at(saved_at - 60s)},
              {"https://both.example/", entry_at(saved_at + 10s, 204)}});
  cache.remember(ok_record("https://mine.example/"), time_point(saved_at));
  cache.remember(ok_record("https://both.example/"), time_point(saved_at));
  EXPECT_FALSE(cache.save(time_point(saved_at) + 20s));

  const cache_entries saved = file_entries();
  EXPECT_EQ(saved.size(), 4u);
  EXPECT_TRUE(saved.contains("https://shared.example/"));
  EXPECT_TRUE(saved.contains("https://theirs.example/"));
  EXPECT_TRUE(saved.contains("https://mine.example/"));
  EXPECT_EQ(saved.at("https://both.example/"), entry_at(saved_at + 10s, 204));  // checked last
  EXPECT_TRUE(fs::exists(file_.string() + ".lock"));  // kept: see file_lock
}

TEST_F(LinkCacheTest, ASaveDropsEntriesOlderThanTheMaximumAgeButNeverItsOwn) {
  write_file({{"https://old.example/", entry_at(saved_at - 25 * 3600s)},
              {"https://day.example/", entry_at(saved_at - 24 * 3600s)},
              {"https://future.example/", entry_at(saved_at + 3600s)}});
  link_cache cache = loaded(24h);
  cache.remember(ok_record("https://mine.example/"), saved_at);
  EXPECT_FALSE(cache.save(saved_at));
  const cache_entries saved = file_entries();
  EXPECT_FALSE(saved.contains("https://old.example/"));
  EXPECT_TRUE(saved.contains("https://day.example/"));  // exactly the maximum age: not older
  EXPECT_FALSE(saved.contains("https://future.example/"));
  EXPECT_TRUE(saved.contains("https://mine.example/"));

  // A run that reuses nothing still refreshes the cache with what it fetched.
  link_cache refresh = loaded(0ms);
  refresh.remember(ok_record("https://fresh.example/"), time_point(saved_at) + 5s);
  EXPECT_FALSE(refresh.save(time_point(saved_at) + 60s));
  EXPECT_EQ(file_entries().size(), 1u);
  EXPECT_TRUE(file_entries().contains("https://fresh.example/"));
}

TEST_F(LinkCacheTest, ASaveThatCannotLockOrWriteSaysWhy) {
  const fs::path gone = temp_.path() / "gone" / "cache.json";
  link_cache elsewhere(gone, 24h);
  EXPECT_FALSE(elsewhere.load());  // no file: nothing to read
  EXPECT_EQ(elsewhere.save(saved_at),
            "cannot lock " + gone.string() + ".lock: No such file or directory");

  fs::create_directory(file_.string() + ".lock");
  link_cache unlockable = loaded();
  EXPECT_EQ(unlockable.save(saved_at), "cannot lock " + file_.string() + ".lock: Is a directory");
  fs::remove(file_.string() + ".lock");

  const fs::path directory = temp_.path() / "dir.json";
  fs::create_directory(directory);
  link_cache unwritable(directory, 24h);
  EXPECT_EQ(unwritable.save(saved_at), "cannot write " + directory.string() + ": Is a directory");
}

TEST_F(LinkCacheTest, ASaveThatCannotWriteLeavesTheFileAsItWas) {
  write_file({{"https://example.org/", entry_at(saved_at)}});
  link_cache cache = loaded();
  cache.remember(ok_record("https://new.example/"), saved_at);
  EXPECT_FALSE(cache.save(saved_at));  // the lock file is made
  cache.remember(ok_record("https://newer.example/"), saved_at);
  ::chmod(temp_.path().c_str(), 0500);
  if (::access(temp_.path().c_str(), W_OK) == 0) {
    ::chmod(temp_.path().c_str(), 0700);
    GTEST_SKIP() << "running as root: every directory is writable";
  }
  const auto problem = cache.save(saved_at);
  ::chmod(temp_.path().c_str(), 0700);
  ASSERT_TRUE(problem);
  EXPECT_EQ(*problem, "cannot write " + file_.string() + ": Permission denied");
  EXPECT_EQ(file_entries().size(), 2u);  // as the first save left it
}

}  // namespace
}  // namespace corocrawl
