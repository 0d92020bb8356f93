// Fragment references checked against the ids of the pages they point into: at once when the
// page is parsed already, else when the checks end, where the URL's redirects lead then.
#include "store/fragment_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "spill_dir.hpp"
#include "temp_dir.hpp"
#include "text/text_hashes.hpp"

namespace corocrawl {
namespace {

using state = fragment_checks::page_state;

stored_source from_line(std::uint32_t line) {
  return {.page = 0, .line = line, .column = 1, .tag = 0};
}

// Notes a reference as the crawler does, with the fragment's hash from the page's parse.
void note(fragment_checks& checks, std::uint32_t target, std::string_view fragment,
          const stored_source& source, const state& known) {
  checks.note(target, fragment, id_hash(fragment), source, known);
}

void parsed(fragment_checks& checks, std::uint32_t page, const std::vector<std::string>& ids) {
  checks.page_parsed(page, id_hashes(ids));
}

// What a page lookup tells at the crawl's end: the states given, else not fetched.
fragment_checks::page_lookup states(std::map<std::uint32_t, state> known) {
  return [known = std::move(known)](std::uint32_t url) {
    const auto found = known.find(url);
    return found != known.end() ? found->second : state{state::not_yet, url};
  };
}

// The places of group `group`'s references, as "line,line..." in the order of their lines
// (a group's references come in no particular order), a wide column marked by a "w".
std::string group_lines(const fragment_checks& checks, std::size_t group) {
  std::vector<std::pair<std::uint32_t, bool>> places;
  checks.for_each_in_group(group, [&](const fragment_checks::reference& r) {
    const stored_source place = checks.source(r);
    places.emplace_back(place.line, place.column > 0xff'ffff);
  });
  EXPECT_EQ(places.size(), checks.group_size(group));
  std::ranges::sort(places);
  std::string lines;
  for (const auto& [line, wide] : places)
    lines += (lines.empty() ? "" : ",") + std::to_string(line) + (wide ? "w" : "");
  return lines;
}

// The groups as the reports read them, each as "target#fragment@lines".
std::vector<std::string> groups(const fragment_checks& checks) {
  std::vector<std::string> out;
  checks.for_each_group([&](std::size_t group, const fragment_checks::reference& first) {
    EXPECT_EQ(group, out.size());
    checks.for_each_in_group(group, [&](const fragment_checks::reference& r) {
      EXPECT_EQ(r.target, first.target);
      EXPECT_EQ(r.fragment, first.fragment);
    });
    out.push_back(std::to_string(first.target) + "#" +
                  std::string(checks.fragment(first.fragment)) + "@" + group_lines(checks, group));
  });
  EXPECT_EQ(out.size(), checks.group_count());
  return out;
}

// Ends the checks with `lookup`, and gives the missing references as "target#fragment@line",
// sorted.
std::vector<std::string> missing(fragment_checks& checks,
                                 const fragment_checks::page_lookup& lookup = states({})) {
  checks.end_checks(lookup);
  checks.group_missing([](std::vector<std::uint32_t>&) {});  // by id
  std::vector<std::string> out;
  for (std::size_t group = 0; group < checks.group_count(); ++group) {
    checks.for_each_in_group(group, [&](const fragment_checks::reference& r) {
      out.push_back(std::to_string(r.target) + "#" + std::string(checks.fragment(r.fragment)) +
                    "@" + std::to_string(checks.source(r).line));
    });
  }
  std::ranges::sort(out);
  return out;
}

TEST(FragmentChecks, ReferencesToPagesNotParsedYetAreCheckedWhenTheChecksEnd) {
  fragment_checks checks;
  for (std::uint32_t line = 1; line <= 10; ++line)
    note(checks, 5, line % 2 == 0 ? "here" : "gone" + std::to_string(line), from_line(line),
         {state::not_yet, 5});
  note(checks, 6, "x", from_line(20), {state::not_yet, 6});
  parsed(checks, 5, {"here"});
  EXPECT_EQ(checks.missing_count(), 0U);  // not before the end
  // A later reference to a parsed page is checked at once.
  note(checks, 5, "late", from_line(30), {state::anchors, 5});
  EXPECT_EQ(checks.missing_count(), 1U);
  // Page 6 was never fetched: its reference is dropped.
  EXPECT_EQ(missing(checks, states({{5, {state::anchors, 5}}})),
            (std::vector<std::string>{"5#gone1@1", "5#gone3@3", "5#gone5@5", "5#gone7@7",
                                      "5#gone9@9", "5#late@30"}));
}

// A large crawl keeps millions of references for its end: past the threshold they wait in a
// file, and are checked as they would have been in memory.
TEST(FragmentChecks, ManyReferencesKeptForTheEndAreCheckedThere) {
  constexpr std::uint32_t kPages = 3000;
  constexpr std::uint32_t kPerPage = 150;  // 450,000 references: some 9 MB
  std::vector<std::string> results[2];
  const std::size_t thresholds[2] = {1, 1'000'000};  // from one block on, and never
  for (int run = 0; run < 2; ++run) {
    fragment_checks checks(thresholds[run]);
    for (std::uint32_t line = 1; line <= kPerPage; ++line) {
      for (std::uint32_t page = 0; page < kPages; ++page) {
        note(checks, page, line % 50 == 0 ? "gone" : "here", from_line(line),
             {state::not_yet, page});
      }
    }
    const std::vector<std::string> ids = {"here"};
    std::map<std::uint32_t, state> known;
    for (std::uint32_t page = 0; page < kPages; ++page) {
      if (page % 10 != 0) {  // nine in ten are parsed, the rest never fetched
        parsed(checks, page, ids);
        known[page] = {state::anchors, page};
      }
    }
    results[run] = missing(checks, states(known));
    ASSERT_EQ(results[run].size(), (kPages - kPages / 10) * (kPerPage / 50));
    for (std::uint32_t page = 1; page < kPages; page += 97) {
      if (page % 10 == 0) continue;
      for (std::uint32_t line = 50; line <= kPerPage; line += 50) {
        const std::string expected = std::to_string(page) + "#gone@" + std::to_string(line);
        EXPECT_TRUE(std::ranges::binary_search(results[run], expected)) << expected;
      }
    }
  }
  EXPECT_EQ(results[0], results[1]);
}

TEST(FragmentChecks, ReferencesFollowRedirectsToWherePagesEnd) {
  fragment_checks checks;
  // At the end 1 redirects to 3, through 2; references were noted while 1 and 2 were known.
  note(checks, 1, "a", from_line(1), {state::not_yet, 1});
  note(checks, 1, "b", from_line(2), {state::not_yet, 1});
  note(checks, 2, "c", from_line(3), {state::not_yet, 2});
  parsed(checks, 3, {"b"});
  EXPECT_EQ(missing(checks, states({{1, {state::anchors, 3}}, {2, {state::anchors, 3}}})),
            (std::vector<std::string>{"1#a@1", "2#c@3"}));
}

TEST(FragmentChecks, ReferencesToAPageThatEndsUncheckedAreDropped) {
  fragment_checks checks;
  note(checks, 1, "a", from_line(1), {state::not_yet, 1});
  note(checks, 2, "b", from_line(2), {state::not_yet, 2});
  note(checks, 3, "c", from_line(3), {state::unchecked, 3});  // dropped at once
  parsed(checks, 1, {});
  parsed(checks, 2, {});
  parsed(checks, 3, {});
  // 1 ends unchecked (a redirect that failed, say), 2 is not a page after all.
  EXPECT_TRUE(
      missing(checks, states({{1, {state::unchecked, 1}}, {2, {state::not_yet, 2}}})).empty());
}

TEST(FragmentChecks, ARedirectToAParsedPageIsCheckedAtOnce) {
  fragment_checks checks;
  parsed(checks, 9, {"kept", "caf\xC3\xA9"});
  note(checks, 4, "kept", from_line(1), {state::anchors, 9});
  note(checks, 4, "lost", from_line(2), {state::anchors, 9});
  note(checks, 4, "caf%C3%A9", from_line(3), {state::anchors, 9});  // percent-decoded too
  EXPECT_EQ(checks.missing_count(), 1U);
  EXPECT_EQ(missing(checks), std::vector<std::string>{"4#lost@2"});
}

// A missing reference's place reads back as it was, a place too wide to pack among them.
TEST(FragmentChecks, AMissingReferenceKeepsItsPlaceHoweverWide) {
  fragment_checks checks;
  parsed(checks, 2, {"here"});
  const stored_source wide = {.page = 7, .line = 3, .column = 0x100'0000, .tag = 300};
  note(checks, 2, "gone", wide, {state::anchors, 2});
  note(checks, 2, "here", from_line(1), {state::anchors, 2});  // found: nothing kept
  checks.end_checks(states({}));
  checks.group_missing(
      [](std::vector<std::uint32_t>& pages) { EXPECT_EQ(pages, std::vector<std::uint32_t>{2}); });
  ASSERT_EQ(checks.group_count(), 1U);
  stored_source read;
  checks.for_each_in_group(0, [&](const auto& r) { read = checks.source(r); });
  EXPECT_EQ(read.page, wide.page);
  EXPECT_EQ(read.line, wide.line);
  EXPECT_EQ(read.column, wide.column);
  EXPECT_EQ(read.tag, wide.tag);
}

// The ids' hashes are kept in 2 MiB regions: a page's that cross a region's end are searched
// as well as those within one.
TEST(FragmentChecks, APagesIdsAcrossTheEndOfARegionAreFound) {
  constexpr std::uint32_t kPerRegion = (2U << 20) / sizeof(std::uint32_t);
  fragment_checks checks;
  std::vector<std::string> ids;
  for (std::uint32_t i = 0; i < kPerRegion - 500; ++i)
    ids.push_back("first" + std::to_string(i));
  parsed(checks, 1, ids);
  ids.clear();
  for (std::uint32_t i = 0; i < 1000; ++i)  // 500 in the first region, 500 in the next
    ids.push_back("id" + std::to_string(i));
  parsed(checks, 2, ids);
  parsed(checks, 3, {"last"});
  for (std::uint32_t i = 0; i < 1000; i += 7)
    note(checks, 2, "id" + std::to_string(i), from_line(i + 1), {state::anchors, 2});
  note(checks, 2, "first0", from_line(2000), {state::anchors, 2});
  note(checks, 1, "first0", from_line(2001), {state::anchors, 1});
  note(checks, 1, "id3", from_line(2002), {state::anchors, 1});
  note(checks, 3, "last", from_line(2003), {state::anchors, 3});
  EXPECT_EQ(missing(checks), (std::vector<std::string>{"1#id3@2002", "2#first0@2000"}));
}

// Past a threshold the pages' ids go to a temporary file: references into those pages, noted
// before or after the page was parsed, through a redirect or not, are checked at the end
// against the file, as they would have been in memory, a page's ids longer than a block of the
// file too.
TEST(FragmentChecks, ReferencesIntoPagesWhoseIdsAreInAFileAreCheckedAtTheEnd) {
  testing::temp_dir dir;
  testing::scoped_tmpdir tmp(dir.path().string());
  constexpr std::uint32_t kPages = 3000;
  constexpr std::uint32_t kRedirected = 10'000;  // kRedirected + page redirects to page
  const auto id_count = [](std::uint32_t page) -> std::uint32_t {
    return page == 1500 ? 40'000 : page % 20;  // 40,000 ids: more than a block of the file
  };
  std::vector<std::string> expected;
  std::uint32_t line = 0;
  // Notes references to fragments "s<0-24>" (one percent-encoded) of `page` through `target`.
  const auto refer = [&](fragment_checks& checks, std::uint32_t target, std::uint32_t page,
                         const state& known, bool expect) {
    for (const std::uint32_t i : {0U, 3U, 1U, page % 25, 19U}) {
      const std::string fragment = i == 1 ? "s%31" : "s" + std::to_string(i);
      note(checks, target, fragment, from_line(++line), known);
      if (expect && i >= id_count(page))
        expected.push_back(std::to_string(target) + "#" + fragment + "@" + std::to_string(line));
    }
  };
  const auto crawl = [&](fragment_checks& checks, bool expect, int& files_midway) {
    line = 0;
    for (std::uint32_t page = 0; page < kPages; page += 3)
      refer(checks, page, page, {state::not_yet, page}, expect);
    for (std::uint32_t page = 0; page < kPages; ++page) {
      std::vector<std::string> ids;
      for (std::uint32_t i = 0; i < id_count(page); ++i)
        ids.push_back("s" + std::to_string(i));
      parsed(checks, page, ids);
      refer(checks, page, page, {state::anchors, page}, expect);  // its ids are in memory
      refer(checks, page / 2, page / 2, {state::anchors, page / 2}, expect);
    }
    for (std::uint32_t page = 0; page < kPages; page += 7) {
      refer(checks, page, page, {state::anchors, page}, expect);
      refer(checks, kRedirected + page, page, {state::anchors, page}, expect);
      refer(checks, 2 * kRedirected + page, page, {state::not_yet, 2 * kRedirected + page}, expect);
    }
    files_midway = testing::files_open_in(dir.path());
    std::map<std::uint32_t, state> known;
    for (std::uint32_t page = 0; page < kPages; ++page) {
      known[page] = {state::anchors, page};
      known[2 * kRedirected + page] = {state::anchors, page};
    }
    return missing(checks, states(known));
  };
  fragment_checks spilling(1);  // the ids from one block on
  fragment_checks kept;
  int files_spilling = 0;
  int files_kept = 0;
  const std::vector<std::string> from_memory = crawl(kept, false, files_kept);
  const std::vector<std::string> read = crawl(spilling, true, files_spilling);
  EXPECT_EQ(read, from_memory);
  EXPECT_EQ(files_kept, 0);
  EXPECT_GE(files_spilling, 3);  // the ids, the references waiting for them, the missing
  std::ranges::sort(expected);
  ASSERT_GT(expected.size(), 10'000U);
  EXPECT_EQ(read, expected);
}

// Past a threshold the missing references go to a temporary file, and are sorted into groups
// in runs merged from another: they come back in the same groups, in the same order, places
// and all, as they do from memory, read in turn or by two threads at once.
TEST(FragmentChecks, MissingReferencesSpilledComeBackInTheSameGroups) {
  testing::temp_dir dir;
  testing::scoped_tmpdir tmp(dir.path().string());
  fragment_checks spilling(1);  // from one block's worth, and sorted in runs of one block
  fragment_checks kept;
  const stored_source wide = {.page = 9, .line = 4, .column = 0x100'0000, .tag = 300};
  constexpr std::uint32_t kPages = 50;
  for (fragment_checks* checks : {&spilling, &kept}) {
    for (std::uint32_t page = 0; page < kPages; ++page)
      parsed(*checks, page, {"here"});
    for (std::uint32_t line = 1; line <= 1000; ++line) {
      for (std::uint32_t page = 0; page < kPages; ++page) {
        const std::string fragment = line % 3 == 0 ? "here" : "gone" + std::to_string(line % 7);
        note(*checks, page, fragment, line == 500 && page == 7 ? wide : from_line(line),
             {state::anchors, page});
      }
    }
  }
  ASSERT_GT(spilling.missing_count(), 4 * spilled_table<fragment_checks::reference>::kBlock);
  EXPECT_EQ(spilling.missing_count(), kept.missing_count());
  EXPECT_EQ(testing::files_open_in(dir.path()), 1);  // the missing references, spilled
  // The pages in an order of their own (as the store gives them by their URL's text).
  std::vector<std::uint32_t> pages;
  for (std::uint32_t page = 0; page < kPages; ++page)
    pages.push_back((page * 17) % kPages);
  for (fragment_checks* checks : {&spilling, &kept}) {
    checks->end_checks(states({}));
    checks->group_missing([&pages](std::vector<std::uint32_t>& targets) {
      std::vector<std::uint32_t> by_id = pages;
      std::ranges::sort(by_id);
      EXPECT_EQ(targets, by_id);  // each target once, by id
      targets = pages;
    });
  }
  EXPECT_EQ(testing::files_open_in(dir.path()), 1);  // the groups, spilled; the rest closed
  const std::vector<std::string> read = groups(spilling);
  ASSERT_EQ(read.size(), kPages * 7);  // "gone0" to "gone6" in each page
  EXPECT_EQ(read, groups(kept));
  // The pages come in the order given, each one's fragments by their text.
  for (std::size_t group = 0; group < read.size(); ++group) {
    const std::string expected =
        std::to_string(pages[group / 7]) + "#gone" + std::to_string(group % 7) + "@";
    ASSERT_TRUE(read[group].starts_with(expected)) << read[group];
  }
  // Read by two threads at once, block by block as the reports do, from the end backwards.
  std::vector<std::string> by_threads(read.size());
  const auto read_every_other = [&](std::size_t parity) {
    for (std::size_t group = read.size(); group-- > 0;) {
      if ((group / 37) % 2 == parity) by_threads[group] = group_lines(spilling, group);
    }
  };
  std::thread other(read_every_other, 1);
  read_every_other(0);
  other.join();
  for (std::size_t group = 0; group < read.size(); ++group)
    ASSERT_EQ(by_threads[group], group_lines(kept, group)) << group;
  EXPECT_EQ(std::ranges::count_if(
                by_threads,
                [](const std::string& lines) { return lines.find('w') != std::string::npos; }),
            1);  // the wide place
}

}  // namespace
}  // namespace corocrawl
