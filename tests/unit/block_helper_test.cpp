// The helper thread of long lists: blocks come out in order whichever thread formats them, and
// nothing is lost or left waiting when the helper fails or the writer stops early.
#include "report/block_helper.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

namespace corocrawl {
namespace {

std::string formatted(std::size_t block) {
  return "block " + std::to_string(block) + ";";
}

// The blocks below `count` as a writer writes them: the helper's taken from it, or formatted
// here when it gives none.
std::string written(block_helper& helper, std::size_t count) {
  std::string all;
  for (std::size_t block = 0; block < count; ++block) {
    if (helper.helps(block)) {
      if (const auto text = helper.take(block)) {
        all += *text;
        continue;
      }
    }
    all += formatted(block);
  }
  return all;
}

std::string expected(std::size_t count) {
  std::string all;
  for (std::size_t block = 0; block < count; ++block)
    all += formatted(block);
  return all;
}

TEST(BlockHelper, BlocksComeOutInOrderTheOddOnesFormattedOnTheHelper) {
  const auto writer = std::this_thread::get_id();
  std::atomic<int> on_helper{0};
  std::atomic<int> here{0};
  block_helper helper(101, [&](std::size_t block, std::string& text) {
    ++(std::this_thread::get_id() == writer ? here : on_helper);
    text = formatted(block);
  });
  ASSERT_TRUE(helper.helps(1));
  EXPECT_FALSE(helper.helps(0));
  EXPECT_FALSE(helper.helps(100));
  EXPECT_EQ(written(helper, 101), expected(101));
  EXPECT_EQ(on_helper, 50);
  EXPECT_EQ(here, 0);
}

TEST(BlockHelper, ABlockTheHelperCannotFormatIsLeftToTheWriterWithTheRest) {
  block_helper helper(12, [](std::size_t block, std::string& text) {
    if (block == 5) throw std::bad_alloc();
    text = formatted(block);
  });
  ASSERT_TRUE(helper.helps(1));
  EXPECT_EQ(helper.take(1), formatted(1));
  EXPECT_EQ(helper.take(3), formatted(3));
  EXPECT_EQ(helper.take(5), std::nullopt);
  EXPECT_EQ(helper.take(7), std::nullopt);
  EXPECT_EQ(helper.take(9), std::nullopt);
}

TEST(BlockHelper, AWriterThatFormatsWhatTheHelperCouldNotWritesTheWholeList) {
  block_helper helper(40, [](std::size_t block, std::string& text) {
    if (block == 13) throw std::runtime_error("no room");
    text = formatted(block);
  });
  EXPECT_EQ(written(helper, 40), expected(40));
}

TEST(BlockHelper, AWriterThatStopsEarlyStopsTheHelperFewBlocksAhead) {
  std::atomic<int> formatted_blocks{0};
  {
    block_helper helper(1'000'000, [&](std::size_t block, std::string& text) {
      ++formatted_blocks;
      text = formatted(block);
    });
    EXPECT_EQ(helper.take(1), formatted(1));
  }  // returns: the helper waiting for room is stopped and joined
  // The one taken, four waiting, and one it may have been formatting when stopped.
  EXPECT_LE(formatted_blocks, 6);
}

TEST(BlockHelper, ASingleBlockNeedsNoHelper) {
  std::atomic<int> calls{0};
  block_helper helper(1, [&](std::size_t, std::string&) { ++calls; });
  EXPECT_FALSE(helper.helps(0));
  EXPECT_FALSE(helper.helps(1));
  EXPECT_THROW((void)helper.take(1), std::invalid_argument);
  EXPECT_EQ(calls, 0);
}

TEST(BlockHelper, BlocksAreTakenInTheirOrderOnly) {
  block_helper helper(8, [](std::size_t block, std::string& text) { text = formatted(block); });
  EXPECT_THROW((void)helper.take(0), std::invalid_argument);  // the writer's own
  EXPECT_THROW((void)helper.take(3), std::invalid_argument);  // not the next
  EXPECT_EQ(helper.take(1), formatted(1));
  EXPECT_EQ(helper.take(3), formatted(3));
}

}  // namespace
}  // namespace corocrawl
