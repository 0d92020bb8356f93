// The crawl's large tables: arrays in regions of 2 MiB that never move, the later ones
// aligned to huge pages.
#include "store/table_memory.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <vector>

namespace corocrawl {
namespace {

struct record52 {  // the size of a crawl_store entry: not a divisor of 2 MiB
  std::uint32_t id = 0xffff'ffff;
  std::uint8_t bytes[48] = {};
};

TEST(TableArray, ElementsAreValueInitialisedAndNeverMove) {
  table_array<record52> table;
  EXPECT_TRUE(table.empty());
  std::vector<const record52*> places;
  const std::size_t count = 3 * table_array<record52>::kPerRegion + 17;  // four regions
  for (std::size_t i = 0; i < count; ++i) {
    record52& added = table.emplace_back();
    EXPECT_EQ(added.id, 0xffff'ffffU);
    added.id = static_cast<std::uint32_t>(i);
    added.bytes[i % 48] = static_cast<std::uint8_t>(i);
    places.push_back(&added);
  }
  ASSERT_EQ(table.size(), count);
  for (std::size_t i = 0; i < count; ++i) {
    ASSERT_EQ(&table[i], places[i]);
    ASSERT_EQ(table[i].id, i);
    ASSERT_EQ(table[i].bytes[i % 48], static_cast<std::uint8_t>(i));
  }
  EXPECT_EQ(table.back().id, count - 1);
}

TEST(TableArray, MovesLeaveTheElementsWhereTheyAre) {
  table_array<std::uint32_t> table;
  for (std::uint32_t i = 0; i < 1'000'000; ++i)
    table.push_back(i * 3);
  const std::uint32_t* first = &table[0];
  table_array<std::uint32_t> moved = std::move(table);
  EXPECT_EQ(&moved[0], first);
  EXPECT_EQ(moved.size(), 1'000'000U);
  EXPECT_EQ(moved[999'999], 2'999'997U);
  moved = table_array<std::uint32_t>{};
  EXPECT_TRUE(moved.empty());
}

static_assert(std::random_access_iterator<table_array<record52>::iterator>);
static_assert(std::random_access_iterator<table_array<record52>::const_iterator>);
static_assert(std::permutable<table_array<record52>::iterator>);

// Across regions, the array sorts and searches as a vector does, and gives its last regions
// back when truncated.
TEST(TableArray, SortsSearchesAndTruncatesAcrossRegions) {
  table_array<record52> table;
  std::vector<std::uint32_t> ids;
  std::mt19937 random(3);
  const std::size_t count = 2 * table_array<record52>::kPerRegion + 1000;  // three regions
  for (std::size_t i = 0; i < count; ++i) {
    ids.push_back(static_cast<std::uint32_t>(random()));
    table.emplace_back().id = ids.back();
  }
  std::ranges::sort(table, {}, &record52::id);
  std::ranges::sort(ids);
  for (std::size_t i = 0; i < count; ++i)
    ASSERT_EQ(table[i].id, ids[i]) << i;
  const auto found = std::ranges::lower_bound(table, ids[count / 2], {}, &record52::id);
  EXPECT_EQ(found - table.begin(), std::ranges::lower_bound(ids, ids[count / 2]) - ids.begin());
  EXPECT_EQ(table.end() - table.begin(), static_cast<std::ptrdiff_t>(count));

  const record52* first = &table[0];
  table.truncate(table_array<record52>::kPerRegion + 1);  // into the second region
  EXPECT_EQ(table.size(), table_array<record52>::kPerRegion + 1);
  EXPECT_EQ(&table[0], first);
  EXPECT_EQ(table.back().id, ids[table_array<record52>::kPerRegion]);
  table.emplace_back().id = 7;  // grows again from there
  EXPECT_EQ(table.back().id, 7u);
  EXPECT_EQ(table.size(), table_array<record52>::kPerRegion + 2);
}

TEST(TableMemory, LargeTablesAreAlignedToHugePagesAndSmallOnesComeFromTheHeap) {
  for (const std::size_t bytes : {kHugePageBytes, 3 * kHugePageBytes + 5}) {
    void* const memory = allocate_table(bytes, true);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(memory) % kHugePageBytes, 0U) << bytes;
    std::memset(memory, 0xAB, bytes);  // all of it is there to write
    free_table(memory, bytes, true);
  }
  void* const small = allocate_table(4096, true);  // below a huge page: the heap's
  std::memset(small, 1, 4096);
  free_table(small, 4096, true);
  void* const plain = allocate_table(kHugePageBytes, false);
  std::memset(plain, 2, kHugePageBytes);
  free_table(plain, kHugePageBytes, false);
}

}  // namespace
}  // namespace corocrawl
