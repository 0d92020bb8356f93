// The crawler-trap rules, on URLs alone.
#include "url/trap_rules.hpp"

#include <gtest/gtest.h>

#include <string>

namespace corocrawl {
namespace {

std::string path_of(int segments, std::string_view segment_prefix = "s") {
  std::string path;
  for (int i = 0; i < segments; ++i)
    path += "/" + std::string(segment_prefix) + std::to_string(i);
  return path;
}

TEST(TrapRules, OrdinaryUrlsAreNoTraps) {
  EXPECT_EQ(trap_reason("http://h/"), std::nullopt);
  EXPECT_EQ(trap_reason("http://h"), std::nullopt);
  EXPECT_EQ(trap_reason("http://h/docs/3.12/library/index.html?x=1#top"), std::nullopt);
  EXPECT_EQ(trap_reason("http://h/a/a/a/b"), std::nullopt);          // three in a row is fine
  EXPECT_EQ(trap_reason("http://h/a/b/a/b/a/b/a/b"), std::nullopt);  // not in a row
  EXPECT_EQ(trap_reason("http://h////x"), std::nullopt);             // empty segments
}

TEST(TrapRules, ASegmentRepeatedMoreThanThreeTimesInARow) {
  EXPECT_EQ(trap_reason("http://h/a/a/a/a"),
            "trap: the path repeats the segment \"a\" more than 3 times in a row");
  EXPECT_EQ(trap_reason("http://h/x/docs/docs/docs/docs/page.html"),
            "trap: the path repeats the segment \"docs\" more than 3 times in a row");
  EXPECT_NE(trap_reason("http://h/a/a/a/a/"), std::nullopt);
}

TEST(TrapRules, MoreThan64Segments) {
  EXPECT_EQ(trap_reason("http://h" + path_of(64)), std::nullopt);
  EXPECT_EQ(trap_reason("http://h" + path_of(65)), "trap: the path has 65 segments, more than 64");
}

TEST(TrapRules, LongSegmentsAreCutInTheReason) {
  const std::string segment(100, 'x');
  const auto reason =
      trap_reason("http://h/" + segment + "/" + segment + "/" + segment + "/" + segment);
  ASSERT_TRUE(reason);
  EXPECT_LT(reason->size(), 120u);
  EXPECT_NE(reason->find("...\""), std::string::npos);
}

}  // namespace
}  // namespace corocrawl
