// text_map: the flat map of a page's parse, checked against std::unordered_map on many texts
// and through its growth.
#include "text/text_map.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <memory_resource>
#include <random>
#include <string>
#include <unordered_map>

namespace corocrawl {
namespace {

TEST(TextMap, AddsATextOnceAndFindsItWithoutAskingAgain) {
  text_map map;
  const std::string first = "https://example.com/a";
  int made = 0;
  const auto make = [&](std::string_view kept, std::uint32_t number) {
    return [&made, kept, number] {
      ++made;
      return std::pair{kept, number};
    };
  };
  EXPECT_EQ(map.find_or_add(first, make(first, 7)), (std::pair<std::uint32_t, bool>{7, true}));
  // Equal text elsewhere finds the entry: make() is not called, its number not taken.
  const std::string again = first;
  EXPECT_EQ(map.find_or_add(again, make(again, 9)), (std::pair<std::uint32_t, bool>{7, false}));
  EXPECT_EQ(made, 1);
  // A text that differs in its last byte, a prefix and the empty text are others.
  const std::string other = "https://example.com/b";
  const std::string prefix = "https://example.com/";
  const std::string empty;
  EXPECT_EQ(map.find_or_add(other, make(other, 1)).second, true);
  EXPECT_EQ(map.find_or_add(prefix, make(prefix, 2)).second, true);
  EXPECT_EQ(map.find_or_add(empty, make(empty, 3)), (std::pair<std::uint32_t, bool>{3, true}));
  EXPECT_EQ(map.find_or_add("", make(empty, 4)), (std::pair<std::uint32_t, bool>{3, false}));
  EXPECT_EQ(map.size(), 4U);
  EXPECT_EQ(made, 4);
}

TEST(TextMap, AgreesWithAnUnorderedMapOnManyTextsAcrossGrowth) {
  std::pmr::monotonic_buffer_resource memory;
  text_map map(&memory);
  std::unordered_map<std::string, std::uint32_t> model;
  std::deque<std::string> kept;  // the keys' text, where it stays
  std::mt19937 random(13);
  // Short texts from a small alphabet: many repeat, many share prefixes.
  std::uniform_int_distribution<int> length(0, 6);
  std::uniform_int_distribution<int> letter('a', 'd');
  for (std::uint32_t i = 0; i < 50'000; ++i) {
    std::string text(static_cast<std::size_t>(length(random)), ' ');
    for (char& c : text)
      c = static_cast<char>(letter(random));
    const auto [number, added] = map.find_or_add(text, [&] {
      return std::pair{std::string_view(kept.emplace_back(text)), i};
    });
    const auto [entry, model_added] = model.try_emplace(text, i);
    ASSERT_EQ(added, model_added) << text;
    ASSERT_EQ(number, entry->second) << text;
  }
  EXPECT_EQ(map.size(), model.size());
  EXPECT_GT(model.size(), 1'000U);  // it grew many times over
}

}  // namespace
}  // namespace corocrawl
