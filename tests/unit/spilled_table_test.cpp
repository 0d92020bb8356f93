// A table that goes to a temporary file past a threshold and comes back whole, in order; and
// stays in memory, losing nothing, where no file can be made or written.
#include "store/spilled_table.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "temp_dir.hpp"

namespace corocrawl {
namespace {

struct record20 {  // a missing fragment reference's size
  std::uint32_t words[5] = {};
};
using table = spilled_table<record20>;

record20 numbered(std::size_t i) {
  const auto n = static_cast<std::uint32_t>(i);
  return {{n, n * 3, ~n, n ^ 0x5a5a'5a5aU, n + 7}};
}

// Sets TMPDIR for the test, and puts back what it was.
class scoped_tmpdir {
 public:
  explicit scoped_tmpdir(const std::string& dir) {
    if (const char* old = std::getenv("TMPDIR")) old_ = old;
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  ~scoped_tmpdir() {
    if (old_) {
      ::setenv("TMPDIR", old_->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
  }
  scoped_tmpdir(const scoped_tmpdir&) = delete;
  scoped_tmpdir& operator=(const scoped_tmpdir&) = delete;

 private:
  std::optional<std::string> old_;
};

// How many of this process's descriptors are open on files in `dir`.
int files_open_in(const std::filesystem::path& dir) {
  int open = 0;
  for (const auto& fd : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    const auto target = std::filesystem::read_symlink(fd.path(), error);
    if (!error && target.string().starts_with(dir.string() + "/")) ++open;
  }
  return open;
}

void expect_numbered(const table_array<record20>& all, std::size_t count) {
  ASSERT_EQ(all.size(), count);
  for (std::size_t i = 0; i < count; ++i) {
    const record20 want = numbered(i);
    for (int w = 0; w < 5; ++w)
      ASSERT_EQ(all[i].words[w], want.words[w]) << "element " << i;
  }
}

TEST(SpilledTable, BelowTheThresholdEverythingStaysInMemory) {
  testing::temp_dir dir;
  scoped_tmpdir tmp(dir.path().string());
  table t("test records", 3 * table::kBlock);
  for (std::size_t i = 0; i + 1 < 3 * table::kBlock; ++i)
    t.push_back(numbered(i));
  EXPECT_EQ(t.in_memory().size(), t.size());
  EXPECT_EQ(files_open_in(dir.path()), 0);
  expect_numbered(t.gather(), 3 * table::kBlock - 1);
}

TEST(SpilledTable, PastTheThresholdItGoesToAFileAndComesBackInOrder) {
  testing::temp_dir dir;
  scoped_tmpdir tmp(dir.path().string());
  // More than a region of the table before it spills, so that it is written in two pieces.
  const std::size_t spill_from = table_array<record20>::kPerRegion + 100;
  const std::size_t count = spill_from + 5 * table::kBlock + 17;
  table t("test records", spill_from);
  for (std::size_t i = 0; i < count; ++i)
    t.push_back(numbered(i));
  EXPECT_EQ(t.size(), count);
  EXPECT_TRUE(t.in_memory().empty());  // all in the file, or in the block to write next
  EXPECT_EQ(files_open_in(dir.path()), 1);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // a file without a name
  expect_numbered(t.gather(), count);
  EXPECT_EQ(files_open_in(dir.path()), 0);
  // After gather() it spills no more.
  t.push_back(numbered(count));
  EXPECT_EQ(t.in_memory().size(), count + 1);
  EXPECT_EQ(files_open_in(dir.path()), 0);
}

TEST(SpilledTable, WhereNoFileCanBeMadeItStaysInMemory) {
  testing::temp_dir dir;
  scoped_tmpdir tmp((dir.path() / "not-a-directory-here").string());
  const std::size_t count = 4 * table::kBlock;
  table t("test records", table::kBlock);
  for (std::size_t i = 0; i < count; ++i)
    t.push_back(numbered(i));
  EXPECT_EQ(t.in_memory().size(), count);
  expect_numbered(t.gather(), count);
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
  limited.rlim_cur = 3 * table::kBlock * sizeof(record20);  // the first spill and one block
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  const std::size_t count = 10 * table::kBlock + 3;
  table t("test records", 2 * table::kBlock);
  for (std::size_t i = 0; i < count; ++i)
    t.push_back(numbered(i));
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(t.size(), count);
  EXPECT_EQ(t.in_memory().size(), count - 3 * table::kBlock);
  expect_numbered(t.gather(), count);
}

}  // namespace
}  // namespace corocrawl
