// Sorting a spilled table in runs merged from a file: the same order as sorting it in memory,
// whatever the runs' and blocks' sizes, with or without a file to put the runs in.
#include "store/spilled_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "spill_dir.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

struct keyed {  // sorted by key alone; `order` tells the equal keys apart
  std::uint32_t key;
  std::uint32_t order;
};
using keyed_table = spilled_table<keyed>;

std::vector<keyed> random_values(std::size_t count, std::uint32_t keys, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::uint32_t> key(0, keys - 1);
  std::vector<keyed> values;
  for (std::uint32_t i = 0; i < count; ++i)
    values.push_back({key(random), i});
  return values;
}

// Sorts `values` through a spilled table in runs of `run`, with each key doubled on the way
// in, and gives what came out.
std::vector<keyed> sorted_through(const std::vector<keyed>& values, std::size_t run,
                                  std::size_t block) {
  keyed_table input("values to sort", 0);  // spilled from its first block on
  for (const keyed& value : values)
    input.push_back(value);
  std::vector<keyed> out;
  sort_spilled(
      input, run, block, [](keyed& value) { value.key *= 2; },
      [](const keyed& a, const keyed& b) { return a.key < b.key; },
      [&out](const keyed& value) { out.push_back(value); });
  EXPECT_EQ(input.size(), 0U);  // read back once, and emptied
  return out;
}

// What sorting in memory gives: equal keys are compared by their `order` afterwards, as
// sort_spilled() leaves them in no particular order.
std::vector<std::pair<std::uint32_t, std::uint32_t>> canonical(const std::vector<keyed>& values) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (const keyed& value : values)
    pairs.emplace_back(value.key, value.order);
  std::ranges::sort(pairs);
  return pairs;
}

void expect_sorted_as_in_memory(const std::vector<keyed>& values, std::size_t run,
                                std::size_t block) {
  const std::vector<keyed> out = sorted_through(values, run, block);
  ASSERT_EQ(out.size(), values.size());
  EXPECT_TRUE(std::ranges::is_sorted(out, {}, &keyed::key));
  std::vector<keyed> doubled = values;
  for (keyed& value : doubled)
    value.key *= 2;
  EXPECT_EQ(canonical(out), canonical(doubled)) << "runs of " << run << ", blocks of " << block;
}

TEST(SpilledSort, RunsMergedGiveTheOrderOfASortInMemory) {
  testing::temp_dir dir;
  testing::scoped_tmpdir tmp(dir.path().string());
  const std::vector<keyed> values = random_values(50'000, 1000, 7);  // many equal keys
  for (const std::size_t run : {std::size_t{1}, std::size_t{999}, std::size_t{8192},
                                std::size_t{49'999}, std::size_t{50'000}, std::size_t{1} << 20}) {
    for (const std::size_t block : {std::size_t{1}, std::size_t{100}, std::size_t{1} << 16})
      expect_sorted_as_in_memory(values, run, block);
  }
  EXPECT_EQ(testing::files_open_in(dir.path()), 0);  // the runs' file is gone too
}

TEST(SpilledSort, NothingAndOneAreSorted) {
  EXPECT_TRUE(sorted_through({}, 10, 10).empty());
  EXPECT_EQ(sorted_through({{3, 0}}, 1, 1).size(), 1U);
  expect_sorted_as_in_memory(random_values(2, 5, 1), 1, 1);
}

// With no file to be had, the runs stay in memory and are merged the same.
TEST(SpilledSort, WithoutAFileTheRunsStayInMemory) {
  testing::temp_dir dir;
  testing::scoped_tmpdir tmp((dir.path() / "not-a-directory-here").string());
  expect_sorted_as_in_memory(random_values(30'000, 1u << 30, 3), 7000, 512);
}

}  // namespace
}  // namespace corocrawl
