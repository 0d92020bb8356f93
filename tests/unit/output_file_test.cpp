// output_file's writing of a summary to disk as it goes, read back from the kernel's count of
// the file's pages.
#include "corocrawl/output_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

#include "temp_dir.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

// Linux's cachestat(2) (6.5 and later; Debian 12's headers predate it): how many of a file's
// pages are cached, dirty, and being written back.
struct page_counts {
  std::uint64_t cached = 0;
  std::uint64_t dirty = 0;
  std::uint64_t writeback = 0;
  std::uint64_t evicted = 0;
  std::uint64_t recently_evicted = 0;
};

std::optional<page_counts> count_pages(const fs::path& file) {
#if defined(__linux__)
  constexpr long kCachestat = 451;  // the same number on every architecture
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct {
    std::uint64_t offset = 0;
    std::uint64_t length = 0;  // to the end
  } range;
  page_counts counts;
  const long result = ::syscall(kCachestat, fd, &range, &counts, 0);
  ::close(fd);
  if (result == 0) return counts;
#endif
  return std::nullopt;
}

std::optional<fs::path> temporary_file_in(const fs::path& directory) {
  for (const auto& entry : fs::directory_iterator(directory)) {
    if (entry.path().filename().string().starts_with(".summary.json.corocrawl-"))
      return entry.path();
  }
  return std::nullopt;
}

TEST(OutputFile, ALongFileIsWrittenToDiskAsItGoesNotAllAtItsSync) {
  const testing::temp_dir dir;
  struct statfs where {};
  ASSERT_EQ(::statfs(dir.path().c_str(), &where), 0);
  constexpr long kTmpfs = 0x01021994;  // memory only: nothing is written back
  if (where.f_type == kTmpfs) GTEST_SKIP() << dir.path() << " is a tmpfs";

  constexpr std::size_t kBytes = 8 * 1024 * 1024;
  output_file out(dir.path() / "summary.json");
  const std::string line(1023, 'x');
  for (std::size_t written = 0; written < kBytes; written += line.size() + 1)
    out.stream() << line << '\n';
  out.stream().flush();

  const auto temporary = temporary_file_in(dir.path());
  ASSERT_TRUE(temporary);
  const auto counts = count_pages(*temporary);
  if (!counts) GTEST_SKIP() << "no cachestat(2) here: " << std::strerror(errno);
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  // All but the last MiB or so is on its way to the disk or there: the sync that commit()
  // makes waits for that much at most.
  EXPECT_LE(counts->dirty * page, 2U * 1024 * 1024)
      << counts->dirty << " dirty pages, " << counts->writeback << " being written, of "
      << counts->cached;

  out.commit();
  EXPECT_EQ(fs::file_size(dir.path() / "summary.json"), kBytes);
  EXPECT_FALSE(temporary_file_in(dir.path()));
}

}  // namespace
}  // namespace corocrawl
