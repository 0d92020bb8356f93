// A table that goes to a temporary file past a threshold and comes back whole, in order, or
// in ranges; and stays in memory, losing nothing, where no file can be made or written.
#include "store/spilled_table.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "spill_dir.hpp"
#include "store/spilled_reader.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

struct record20 {  // a missing fragment reference's size
  std::uint32_t words[5] = {};
};
using record_table = spilled_table<record20>;

record20 numbered(std::size_t i) {
  const auto n = static_cast<std::uint32_t>(i);
  return {{n, n * 3, ~n, n ^ 0x5a5a'5a5aU, n + 7}};
}

using testing::files_open_in;
using testing::scoped_tmpdir;

bool is_numbered(const record20& r, std::size_t i) {
  const record20 want = numbered(i);
  return std::equal(std::begin(r.words), std::end(r.words), std::begin(want.words));
}

// Reads `t` back whole, in order, and in ranges: from its start, across where its file ends
// and its memory begins (wherever that is), and to its end.
void expect_numbered(const record_table& t, std::size_t count) {
  ASSERT_EQ(t.size(), count);
  std::size_t i = 0;
  t.for_each([&i](const record20& r) {
    ASSERT_TRUE(is_numbered(r, i)) << "element " << i;
    ++i;
  });
  ASSERT_EQ(i, count);
  std::vector<record20> range(std::min(count, record_table::kBlock + 7));
  for (const std::size_t first : {std::size_t{0}, count / 3, count / 2 + 1, count - range.size()}) {
    t.read(first, range);
    for (std::size_t k = 0; k < range.size(); ++k)
      ASSERT_TRUE(is_numbered(range[k], first + k)) << "element " << first + k;
  }
}

TEST(SpilledTable, BelowTheThresholdEverythingStaysInMemory) {
  testing::temp_dir dir;
  scoped_tmpdir tmp(dir.path().string());
  record_table t("test records", 3 * record_table::kBlock);
  for (std::size_t i = 0; i + 1 < 3 * record_table::kBlock; ++i)
    t.push_back(numbered(i));
  EXPECT_EQ(t.in_memory().size(), t.size());
  EXPECT_EQ(files_open_in(dir.path()), 0);
  expect_numbered(t, 3 * record_table::kBlock - 1);
}

TEST(SpilledTable, PastTheThresholdItGoesToAFileAndComesBackInOrder) {
  testing::temp_dir dir;
  scoped_tmpdir tmp(dir.path().string());
  // More than a region of the table before it spills, so that it is written in two pieces.
  const std::size_t spill_from = table_array<record20>::kPerRegion + 100;
  const std::size_t count = spill_from + 5 * record_table::kBlock + 17;
  record_table t("test records", spill_from);
  for (std::size_t i = 0; i < count; ++i)
    t.push_back(numbered(i));
  EXPECT_EQ(t.size(), count);
  EXPECT_TRUE(t.in_memory().empty());  // all in the file, or in the block to write next
  EXPECT_EQ(files_open_in(dir.path()), 1);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // a file without a name
  EXPECT_TRUE(t.spilled());
  expect_numbered(t, count);
  std::size_t drained = 0;
  t.drain([&drained](const record20& r) { EXPECT_TRUE(is_numbered(r, drained++)); });
  EXPECT_EQ(drained, count);
  EXPECT_EQ(t.size(), 0U);
  EXPECT_EQ(files_open_in(dir.path()), 0);
  // After drain() it spills no more.
  for (std::size_t i = 0; i < 2 * spill_from; ++i)
    t.push_back(numbered(i));
  EXPECT_EQ(t.in_memory().size(), 2 * spill_from);
  EXPECT_EQ(files_open_in(dir.path()), 0);
}

TEST(SpilledTable, WhereNoFileCanBeMadeItStaysInMemory) {
  testing::temp_dir dir;
  scoped_tmpdir tmp((dir.path() / "not-a-directory-here").string());
  const std::size_t count = 4 * record_table::kBlock;
  record_table t("test records", record_table::kBlock);
  for (std::size_t i = 0; i < count; ++i)
    t.push_back(numbered(i));
  EXPECT_EQ(t.in_memory().size(), count);
  EXPECT_FALSE(t.spilled());
  expect_numbered(t, count);
}

// The file may stop growing midway (a full disk; here the process's file size limit): what
// it holds comes back, and the rest was kept in memory.
TEST(SpilledTable, AFileThatStopsGrowingKeepsTheRestInMemory) {
  testing::temp_dir dir;
  scoped_tmpdir tmp(dir.path().string());
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // else the limit kills the process
  rlimit limited = old;
  limited.rlim_cur = 3 * record_table::kBlock * sizeof(record20);  // the first spill and one block
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  const std::size_t count = 10 * record_table::kBlock + 3;
  record_table t("test records", 2 * record_table::kBlock);
  for (std::size_t i = 0; i < count; ++i)
    t.push_back(numbered(i));
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(t.size(), count);
  EXPECT_EQ(t.in_memory().size(), count - 3 * record_table::kBlock);
  expect_numbered(t, count);
}

// A reader keeps the blocks it read for the next reads: two threads reading all of a spilled
// table in small pieces, one from its start and one from its end, each get every element.
TEST(SpilledTable, AReaderGivesEveryElementToTwoThreadsAtOnce) {
  testing::temp_dir dir;
  scoped_tmpdir tmp(dir.path().string());
  const std::size_t count = 7 * record_table::kBlock + 13;
  record_table t("test records", record_table::kBlock);
  for (std::size_t i = 0; i < count; ++i)
    t.push_back(numbered(i));
  ASSERT_TRUE(t.spilled());
  const spilled_reader<record20> reader(t);
  const auto read_all = [&](bool backwards, std::size_t& wrong) {
    std::array<record20, 5> piece;
    for (std::size_t n = 0; n < count; n += piece.size()) {
      const std::size_t start = backwards ? count - std::min(count, n + piece.size()) : n;
      for (std::size_t at = start; at < std::min(count, start + piece.size());) {
        const std::size_t got =
            reader.read(at, std::span(piece).first(std::min(piece.size(), count - at)));
        for (std::size_t k = 0; k < got; ++k)
          wrong += is_numbered(piece[k], at + k) ? 0 : 1;
        at += got;
      }
    }
  };
  std::size_t wrong_forwards = 0;
  std::size_t wrong_backwards = 0;
  std::thread other(read_all, true, std::ref(wrong_backwards));
  read_all(false, wrong_forwards);
  other.join();
  EXPECT_EQ(wrong_forwards, 0U);
  EXPECT_EQ(wrong_backwards, 0U);
}

}  // namespace
}  // namespace corocrawl
