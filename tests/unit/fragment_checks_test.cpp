// Fragment references checked against the ids of the pages they point into, as soon as those
// are known: at once, after the page is parsed, or where its redirects end.
#include "store/fragment_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace corocrawl {
namespace {

using state = fragment_checks::page_state;

packed_source from_line(std::uint32_t line) {
  return {.page = 0, .line = line, .column_tag = 1 << 8};
}

// The missing references as "target#fragment@line", sorted.
std::vector<std::string> missing(fragment_checks& checks) {
  checks.sort_missing();
  std::vector<std::string> out;
  for (const auto& r : checks.missing_fragments())
    out.push_back(std::to_string(r.target) + "#" + std::string(checks.fragment(r.fragment)) + "@" +
                  std::to_string(r.source.line));
  std::ranges::sort(out);
  return out;
}

TEST(FragmentChecks, ReferencesWaitForTheirPageAndAreCheckedWhenItIsParsed) {
  fragment_checks checks;
  // More references than one block of a waiting list holds.
  for (std::uint32_t line = 1; line <= 10; ++line)
    checks.note(5, line % 2 == 0 ? "here" : "gone" + std::to_string(line), from_line(line),
                {state::not_yet, 5});
  checks.note(6, "x", from_line(20), {state::not_yet, 6});
  EXPECT_TRUE(missing(checks).empty());
  checks.page_parsed(5, std::vector<std::string>{"here"});
  EXPECT_EQ(missing(checks), (std::vector<std::string>{"5#gone1@1", "5#gone3@3", "5#gone5@5",
                                                       "5#gone7@7", "5#gone9@9"}));
  // Page 6's reference still waits; a later reference to a parsed page is checked at once.
  checks.note(5, "late", from_line(30), {state::anchors, 5});
  checks.page_parsed(6, std::vector<std::string>{});
  EXPECT_EQ(missing(checks).size(), 7u);
}

// Midway through a large crawl, references wait for hundreds of thousands of pages; the lists
// of those parsed since are compacted away, and the ones still waiting are checked as they
// would have been.
TEST(FragmentChecks, ManyWaitingReferencesAreCheckedWhenTheirPagesComeLate) {
  fragment_checks checks;
  constexpr std::uint32_t kPages = 3000;
  constexpr std::uint32_t kPerPage = 150;  // 450,000 references: some 10 MB waiting
  for (std::uint32_t line = 1; line <= kPerPage; ++line) {
    for (std::uint32_t page = 0; page < kPages; ++page) {
      checks.note(page, line % 50 == 0 ? "gone" : "here", from_line(line), {state::not_yet, page});
    }
  }
  const std::vector<std::string> ids = {"here"};
  for (std::uint32_t page = 0; page < kPages; ++page) {
    if (page % 10 != 0) checks.page_parsed(page, ids);  // nine in ten: the pool compacts
  }
  EXPECT_EQ(checks.missing_fragments().size(), (kPages - kPages / 10) * (kPerPage / 50));
  for (std::uint32_t page = 0; page < kPages; page += 10)
    checks.page_parsed(page, ids);
  const auto all = missing(checks);
  ASSERT_EQ(all.size(), kPages * (kPerPage / 50));
  for (std::uint32_t page = 0; page < kPages; page += 997) {
    for (const std::uint32_t line : {50U, 100U, 150U}) {
      const std::string expected = std::to_string(page) + "#gone@" + std::to_string(line);
      EXPECT_TRUE(std::ranges::binary_search(all, expected)) << expected;
    }
  }
}

TEST(FragmentChecks, ReferencesFollowRedirectsToWherePagesEnd) {
  fragment_checks checks;
  // 1 redirects to 2, which redirects to 3; references wait on 1 and on 2.
  checks.note(1, "a", from_line(1), {state::not_yet, 1});
  checks.note(1, "b", from_line(2), {state::not_yet, 1});
  checks.note(2, "c", from_line(3), {state::not_yet, 2});
  checks.page_done(1, [](std::uint32_t) { return state{state::not_yet, 2}; });
  checks.page_done(2, [](std::uint32_t) { return state{state::not_yet, 3}; });
  EXPECT_TRUE(missing(checks).empty());
  checks.page_parsed(3, std::vector<std::string>{"b"});
  EXPECT_EQ(missing(checks), (std::vector<std::string>{"1#a@1", "2#c@3"}));
}

TEST(FragmentChecks, ReferencesToAPageThatEndsUncheckedAreDropped) {
  fragment_checks checks;
  checks.note(1, "a", from_line(1), {state::not_yet, 1});
  checks.note(2, "b", from_line(2), {state::not_yet, 2});
  checks.page_done(1, [](std::uint32_t) { return state{state::unchecked, 1}; });
  checks.page_done(2, [](std::uint32_t) { return state{state::not_yet, 2}; });  // not a page
  checks.page_parsed(1, std::vector<std::string>{});
  checks.page_parsed(2, std::vector<std::string>{});
  EXPECT_TRUE(missing(checks).empty());
}

TEST(FragmentChecks, ARedirectToAParsedPageIsCheckedAtOnce) {
  fragment_checks checks;
  checks.page_parsed(9, std::vector<std::string>{"kept", "caf\xC3\xA9"});
  checks.note(4, "kept", from_line(1), {state::not_yet, 4});
  checks.note(4, "lost", from_line(2), {state::not_yet, 4});
  checks.note(4, "caf%C3%A9", from_line(3), {state::not_yet, 4});  // percent-decoded too
  checks.page_done(4, [](std::uint32_t) { return state{state::anchors, 9}; });
  EXPECT_EQ(missing(checks), std::vector<std::string>{"4#lost@2"});
}

}  // namespace
}  // namespace corocrawl
