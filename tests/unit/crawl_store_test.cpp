// The compact tables a crawl keeps its URLs and records in, and the record_list view of them.
#include "store/crawl_store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "store/packed_source.hpp"
#include "store/place_lists.hpp"
#include "store/pooled_lists.hpp"

namespace corocrawl {
namespace {

TEST(CrawlStore, RecordsComeBackAsTheyWentInSortedByUrl) {
  crawl_store store;
  const auto root = store.add_url("http://a.test/", std::nullopt);
  const auto missing = store.add_url("http://a.test/missing", root);
  const auto old = store.add_url("http://a.test/old", root);
  const auto slow = store.add_url("http://a.test/b-slow", missing);
  const auto never = store.add_url("http://a.test/never", root);  // not finished: no record
  EXPECT_EQ(store.find("http://a.test/old"), old);
  EXPECT_EQ(store.url(never).str(), "http://a.test/never");
  store.finish(root,
               {.url = "ignored",
                .status = 200,
                .tries = 1,
                .size = 5000000000,
                .content_type = "text/html",
                .encoding = "utf-8",
                .num_urls = 3,
                .num_new_urls = 2},
               verdict::ok);
  store.finish(missing, {.status = 404, .tries = 1, .size = 9, .content_type = "text/html"},
               verdict::broken);
  store.finish(old, {.status = 301, .next_url = "http://a.test/", .tries = 1}, verdict::ok);
  store.finish(slow, {.error = "timed out", .failure = fetch_failure::timeout, .tries = 4},
               verdict::broken);
  store.sort_by_url();

  ASSERT_EQ(store.size(), 4u);
  const fetch_record first = store.at(0);
  EXPECT_EQ(first.url, "http://a.test/");
  EXPECT_EQ(first.status, 200u);
  EXPECT_EQ(first.size, 5000000000u);
  EXPECT_EQ(first.content_type, "text/html");
  EXPECT_EQ(first.encoding, "utf-8");
  EXPECT_EQ(first.num_urls, 3u);
  EXPECT_EQ(first.num_new_urls, 2u);
  EXPECT_FALSE(first.referrer);
  EXPECT_FALSE(first.error);

  const fetch_record second = store.at(1);
  EXPECT_EQ(second.url, "http://a.test/b-slow");
  EXPECT_FALSE(second.status);
  EXPECT_EQ(second.error, "timed out");
  EXPECT_EQ(second.failure, fetch_failure::timeout);
  EXPECT_EQ(second.tries, 4);
  EXPECT_EQ(second.referrer, "http://a.test/missing");
  EXPECT_EQ(store.at(2).encoding, std::nullopt);
  EXPECT_EQ(store.at(2).url, "http://a.test/missing");
  EXPECT_EQ(store.at(3).next_url, "http://a.test/");
  EXPECT_EQ(store.at(3).referrer, "http://a.test/");
}

// An entry holds a size below 4 GiB and link counts below 65,535; larger ones are kept
// beside it, and read back the same.
TEST(CrawlStore, SizesAndLinkCountsOfEveryRangeComeBack) {
  crawl_store store;
  const std::uint64_t sizes[] = {0, 0xffff'fffe, 0xffff'ffff, 0x1'0000'0000, 5'000'000'000};
  const std::size_t counts[] = {0, 65'534, 65'535, 70'000, 4'000'000'000};
  for (std::size_t i = 0; i < 5; ++i) {
    const auto id = store.add_url("http://a.test/" + std::to_string(i), std::nullopt);
    store.finish(id,
                 {.status = 200,
                  .size = sizes[i],
                  .num_urls = counts[i],
                  .num_new_urls = counts[(i + 2) % 5]},
                 verdict::ok);
  }
  store.sort_by_url();
  for (std::size_t i = 0; i < 5; ++i) {
    const fetch_record record = store.at(i);
    EXPECT_EQ(record.size, sizes[i]) << i;
    EXPECT_EQ(record.num_urls, counts[i]) << i;
    EXPECT_EQ(record.num_new_urls, counts[(i + 2) % 5]) << i;
  }
}

TEST(CrawlStore, ProblemsListMissingFragmentsAmongTheBrokenUrlsByUrl) {
  auto store = std::make_shared<crawl_store>();
  const auto root = store->add_url("http://a.test/", std::nullopt);
  const auto a = store->add_url("http://a.test/a", root);     // broken
  const auto ab = store->add_url("http://a.test/a/b", root);  // broken: sorts after "a#..."
  const auto doc = store->add_url("http://a.test/a-doc", root);
  // Broken, and before "a-doc#..." as text, though after "a-doc": the order is the text's.
  const auto bang = store->add_url("http://a.test/a-doc!", root);
  const auto slow = store->add_url("http://a.test/slow", root);  // a warning
  const source_at from_root{.page = root, .element = "a", .attribute = "href", .line = 3};
  store->note_anchors(root, {});
  store->finish(root, {.status = 200}, verdict::ok);
  store->finish(a, {.status = 404}, verdict::broken);
  store->finish(ab, {.status = 410}, verdict::broken);
  store->finish(bang, {.status = 404}, verdict::broken);
  store->note_fragment(doc, "gone", from_root);  // checked at the end: not parsed yet
  store->note_anchors(doc, id_hashes(std::vector<std::string>{"here"}));
  store->finish(doc, {.status = 200}, verdict::ok);
  store->note_fragment(doc, "here", from_root);
  store->note_fragment(doc, "also-gone", source_at{.page = root, .line = 9, .column = 2});
  store->note_fragment(doc, "gone", source_at{.page = root, .line = 1});  // one link, two places
  store->note_fragment(root, "nowhere", source_at{.page = root, .line = 5});
  store->finish(slow, {.status = 200}, verdict::warning);
  store->sort_by_url();

  const broken_list broken = crawl_store::problems(store, verdict::broken);
  std::vector<std::string> urls;
  for (const broken_link& link : broken)
    urls.push_back(link.url);
  EXPECT_EQ(urls, (std::vector<std::string>{"http://a.test/#nowhere", "http://a.test/a",
                                            "http://a.test/a-doc!", "http://a.test/a-doc#also-gone",
                                            "http://a.test/a-doc#gone", "http://a.test/a/b"}));
  const broken_link gone = broken[4];
  EXPECT_EQ(gone.status, 200u);
  EXPECT_EQ(gone.error, "missing fragment");
  EXPECT_EQ(gone.referrers, std::vector<std::string>{"http://a.test/"});
  ASSERT_EQ(gone.sources.size(), 2u);
  EXPECT_EQ(gone.sources[0].line, 1u);
  EXPECT_EQ(gone.sources[1].line, 3u);
  EXPECT_EQ(broken[5].status, 410u);
  const broken_list warnings = crawl_store::problems(store, verdict::warning);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].url, "http://a.test/slow");
  EXPECT_TRUE(crawl_store::problems(store, verdict::rate_limited).empty());

  // Read without places, as counts read them: the same items, and a group's places left out.
  std::size_t at = 0;
  broken.for_each_without_places([&](const broken_link& link) {
    const broken_link whole = broken[at++];
    EXPECT_EQ(link.url, whole.url);
    EXPECT_EQ(link.status, whole.status);
    EXPECT_EQ(link.error, whole.error);
    EXPECT_EQ(link.external, whole.external);
    if (link.error == "missing fragment") {
      EXPECT_TRUE(link.sources.empty()) << link.url;
      EXPECT_TRUE(link.referrers.empty()) << link.url;
    } else {
      EXPECT_EQ(link.sources.size(), whole.sources.size()) << link.url;
    }
    return true;
  });
  EXPECT_EQ(at, broken.size());
  // Items picked from the list are read without places by its source too.
  std::vector<std::size_t> sources_read;
  broken.picked({4, 1}).for_each_without_places([&](const broken_link& link) {
    sources_read.push_back(link.sources.size());
    return true;
  });
  EXPECT_EQ(sources_read, (std::vector<std::size_t>{0, 0}));  // "a-doc#gone" has 2 places
}

// The crawler gives a page's ids before its references, and its record after them: the
// page's references to its own fragments are checked as they are noted, none kept for the end.
TEST(CrawlStore, AnchorsNotedBeforeThePageIsFinishedCheckItsOwnFragmentsAtOnce) {
  auto store = std::make_shared<crawl_store>();
  const auto page = store->add_url("http://a.test/", std::nullopt);
  store->note_anchors(page, id_hashes(std::vector<std::string>{"here"}));
  store->note_fragment(page, "here", source_at{.page = page, .line = 1});
  store->note_fragment(page, "gone", source_at{.page = page, .line = 2});
  store->finish(page, {.status = 200}, verdict::ok);
  store->sort_by_url();
  const broken_list broken = crawl_store::problems(store, verdict::broken);
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_EQ(broken[0].url, "http://a.test/#gone");
  ASSERT_EQ(broken[0].sources.size(), 1u);
  EXPECT_EQ(broken[0].sources[0].line, 2u);
}

// A missing fragment of a URL that redirects is reported with the status of the page the
// redirects lead to, as the reports read it after sort_by_url(), which notes the redirects'
// targets by id; one whose redirects lead nowhere known, or failed, is not checked.
TEST(CrawlStore, AMissingFragmentThroughRedirectsHasTheStatusOfThePageTheyLeadTo) {
  auto store = std::make_shared<crawl_store>();
  const auto root = store->add_url("http://a.test/", std::nullopt);
  const auto old = store->add_url("http://a.test/old", root);
  const auto mid = store->add_url("http://a.test/mid", root);
  const auto page = store->add_url("http://a.test/page", root);
  const auto away = store->add_url("http://a.test/away", root);
  const auto failed = store->add_url("http://a.test/failed", root);
  const source_at from_root{.page = root, .element = "a", .attribute = "href", .line = 3};
  store->note_fragment(old, "gone", from_root);  // checked at the end
  store->note_fragment(old, "here", from_root);
  store->note_fragment(away, "gone", from_root);
  store->note_fragment(failed, "gone", from_root);
  store->note_anchors(root, {});
  store->finish(root, {.status = 200}, verdict::ok);
  store->finish(old, {.status = 301, .next_url = "http://a.test/mid"}, verdict::ok);
  store->finish(mid, {.status = 302, .next_url = "http://a.test/page"}, verdict::ok);
  store->note_anchors(page, id_hashes(std::vector<std::string>{"here"}));
  store->finish(page, {.status = 203}, verdict::ok);
  store->finish(away, {.status = 301, .next_url = "http://b.test/"}, verdict::ok);  // not seen
  store->finish(failed, {.status = 301, .next_url = "http://a.test/page", .error = "too many"},
                verdict::broken);
  store->sort_by_url();
  const broken_list broken = crawl_store::problems(store, verdict::broken);
  ASSERT_EQ(broken.size(), 2U);
  EXPECT_EQ(broken[0].url, "http://a.test/failed");
  EXPECT_EQ(broken[1].url, "http://a.test/old#gone");
  EXPECT_EQ(broken[1].status, 203U);  // the page's, read after the sort
  EXPECT_EQ(broken[1].error, "missing fragment");
}

// Pages whose URLs are prefixes of each other, followed by bytes on either side of '#'
// ("x!" sorts before "x#", "x-" after), with fragments interned in no particular order: the
// broken links come in the order of their joined text, as std::sort puts the strings.
TEST(CrawlStore, MissingFragmentsOfManyPagesComeInTheOrderOfTheirText) {
  auto store = std::make_shared<crawl_store>();
  const auto root = store->add_url("http://a.test/", std::nullopt);
  store->note_anchors(root, {});
  store->finish(root, {.status = 200}, verdict::ok);
  std::mt19937 random(7);  // NOLINT(cert-msc32-c,cert-msc51-cpp): the same pages each run
  const std::string_view letters = "x!-/.~";
  std::vector<std::string> expected;
  for (int page = 0; page < 300; ++page) {
    std::string url = "http://a.test/";
    const int length = 1 + static_cast<int>(random() % 4);
    for (int k = 0; k < length; ++k)
      url += letters[random() % letters.size()];
    if (store->find(url)) continue;
    const auto id = store->add_url(url, root);
    store->note_anchors(id, id_hashes(std::vector<std::string>{"kept"}));
    store->finish(id, {.status = 200}, verdict::ok);
    const int fragments = 1 + static_cast<int>(random() % 3);
    for (int k = 0; k < fragments; ++k) {
      const std::string fragment = std::string(1, "zay!-"[random() % 5]) + std::to_string(k);
      store->note_fragment(id, fragment,
                           source_at{.page = root, .line = static_cast<unsigned>(page)});
      expected.push_back(url + "#" + fragment);
    }
  }
  store->sort_by_url();
  std::ranges::sort(expected);
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  std::vector<std::string> urls;
  for (const broken_link& link : crawl_store::problems(store, verdict::broken))
    urls.push_back(link.url);
  EXPECT_EQ(urls, expected);
}

// A link from `page`, on line `line`.
source_at link_from(crawl_store::url_id page, std::uint32_t line = 1) {
  return {.page = page, .element = "a", .attribute = "href", .line = line, .column = 1};
}

// A URL's referrers are its first referrer and the pages of its sources and redirects.
TEST(CrawlStore, ReferrersAreKeptOnlyWhileAUrlMayTurnOutBroken) {
  crawl_store store;
  const auto root = store.add_url("http://a.test/", std::nullopt);
  const auto fine = store.add_url("http://a.test/fine", root);
  const auto broken = store.add_url("http://a.test/broken", root);
  std::vector<crawl_store::url_id> pages;
  for (int i = 0; i < 40; ++i)  // more than a block holds
    pages.push_back(store.add_url("http://a.test/p" + std::to_string(i), root));
  for (const auto page : pages) {
    store.note_source(fine, link_from(page));
    store.note_source(broken, link_from(page));
  }
  store.note_source(broken, link_from(pages[3], 2));  // twice: listed once
  store.finish(fine, {.status = 200}, verdict::ok);
  store.finish(broken, {.status = 404}, verdict::broken);
  store.note_source(fine, link_from(root));           // fine: not kept
  store.note_source(broken, link_from(pages[0], 3));  // broken: still listed
  EXPECT_TRUE(store.referrers(fine).empty());
  EXPECT_TRUE(store.sources(fine).empty());
  const auto referrers = store.referrers(broken);
  ASSERT_EQ(referrers.size(), 41u);
  EXPECT_EQ(referrers.front(), "http://a.test/");
  EXPECT_TRUE(std::ranges::is_sorted(referrers));
  EXPECT_EQ(store.sources(broken).size(), 42u);

  // A redirect is a referrer with no source.
  const auto moved = store.add_url("http://a.test/moved", pages[1]);
  store.note_redirect(moved, broken);
  EXPECT_EQ(store.referrers(broken).size(), 42u);
  EXPECT_EQ(store.sources(broken).size(), 42u);
  EXPECT_TRUE(store.linked(broken));

  // Freed blocks are reused: the lists of new URLs fit in what `fine` gave back.
  for (int i = 0; i < 3; ++i) {
    const auto next = store.add_url("http://a.test/n" + std::to_string(i), root);
    for (const auto page : pages)
      store.note_source(next, link_from(page));
    EXPECT_EQ(store.referrers(next).size(), 41u);
    store.finish(next, {.status = 200}, verdict::ok);
  }
}

// The places of a URL linked from many pages come sorted as link_source compares them (page,
// element, attribute, line, column), its referrers as text, though the store sorts them by
// numbers: here neither the pages' ids nor the tags' follow the order of their text.
TEST(CrawlStore, ThePlacesOfAUrlLinkedFromManyPagesComeSortedByTheirText) {
  crawl_store store;
  const auto root = store.add_url("http://a.test/", std::nullopt);
  const auto broken = store.add_url("http://a.test/broken", root);
  std::vector<int> numbers(300);
  std::iota(numbers.begin(), numbers.end(), 0);
  std::mt19937 random(7);
  std::ranges::shuffle(numbers, random);
  const std::vector<std::pair<std::string, std::string>> tags{
      {"link", "href"}, {"img", "src"}, {"a", "href"}, {"img", "srcset"}, {"a", "ping"}};
  std::vector<link_source> expected;
  std::vector<std::string> expected_referrers{"http://a.test/"};
  for (const int number : numbers) {
    const std::string url = "http://a.test/p" + std::to_string(number);
    const auto page = store.add_url(url, root);
    expected_referrers.push_back(url);
    for (int k = 0, count = 1 + number % 4; k < count; ++k) {
      const auto& [element, attribute] = tags[random() % tags.size()];
      const auto line = static_cast<std::uint32_t>(1 + random() % 50);
      const auto column = static_cast<std::uint32_t>(1 + random() % 3);
      store.note_source(broken, {.page = page,
                                 .element = element,
                                 .attribute = attribute,
                                 .line = line,
                                 .column = column});
      expected.push_back({url, element, attribute, line, column});
    }
  }
  store.finish(broken, {.status = 404}, verdict::broken);
  std::ranges::sort(expected);
  std::ranges::sort(expected_referrers);
  EXPECT_EQ(store.sources(broken), expected);
  EXPECT_EQ(store.referrers(broken), expected_referrers);
}

// A URL or missing fragment referenced from a few places, the most common case, has them
// sorted as strings, not ranked: they still come in link_source's order, though they were
// noted in neither the order of their pages' text nor of their lines.
TEST(CrawlStore, TheFewPlacesOfAUrlOrMissingFragmentComeSortedByTheirText) {
  auto store = std::make_shared<crawl_store>();
  const auto root = store->add_url("http://a.test/", std::nullopt);
  const auto doc = store->add_url("http://a.test/doc", root);
  const auto broken = store->add_url("http://a.test/broken", root);
  store->note_anchors(doc, id_hashes(std::vector<std::string>{"here"}));
  store->note_anchors(root, {});
  store->finish(root, {.status = 200}, verdict::ok);
  const std::vector<std::pair<std::string, std::uint32_t>> noted{{"http://a.test/p9", 7},
                                                                 {"http://a.test/p10", 3},
                                                                 {"http://a.test/p9", 2},
                                                                 {"http://a.test/p2", 5},
                                                                 {"http://a.test/p10", 1}};
  std::map<std::string, crawl_store::url_id> pages;
  for (const auto& url : {"http://a.test/p9", "http://a.test/p10", "http://a.test/p2"}) {
    pages[url] = store->add_url(url, root);
    store->note_anchors(pages[url], {});
    store->finish(pages[url], {.status = 200}, verdict::ok);
  }
  std::vector<link_source> expected;
  for (const auto& [url, line] : noted) {
    const source_at place{.page = pages[url], .element = "a", .attribute = "href", .line = line};
    store->note_source(broken, place);
    store->note_fragment(doc, "gone", place);
    expected.push_back({url, "a", "href", line, 0});
  }
  store->finish(broken, {.status = 404}, verdict::broken);
  store->finish(doc, {.status = 200}, verdict::ok);
  store->sort_by_url();
  std::ranges::sort(expected);
  const std::vector<std::string> expected_referrers{"http://a.test/p10", "http://a.test/p2",
                                                    "http://a.test/p9"};
  EXPECT_EQ(store->sources(broken), expected);
  EXPECT_EQ(store->referrers(broken),
            (std::vector<std::string>{"http://a.test/", "http://a.test/p10", "http://a.test/p2",
                                      "http://a.test/p9"}));  // the root discovered it
  const broken_list problems = crawl_store::problems(store, verdict::broken);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].url, "http://a.test/broken");
  EXPECT_EQ(problems[0].sources, expected);
  EXPECT_EQ(problems[1].url, "http://a.test/doc#gone");
  EXPECT_EQ(problems[1].sources, expected);
  EXPECT_EQ(problems[1].referrers, expected_referrers);
}

// A missing fragment referenced from many pages lists its places in the same order, though
// a group of more than a few is sorted as numbers: its pages' ids and its tags do not follow
// the order of their text here either.
TEST(CrawlStore, ThePlacesOfAMissingFragmentLinkedFromManyPagesComeSortedByTheirText) {
  auto store = std::make_shared<crawl_store>();
  const auto root = store->add_url("http://a.test/", std::nullopt);
  const auto doc = store->add_url("http://a.test/doc", root);
  store->note_anchors(doc, id_hashes(std::vector<std::string>{"here"}));
  store->note_anchors(root, {});
  store->finish(root, {.status = 200}, verdict::ok);
  std::vector<int> numbers(60);
  std::iota(numbers.begin(), numbers.end(), 0);
  std::mt19937 random(11);
  std::ranges::shuffle(numbers, random);
  const std::vector<std::pair<std::string, std::string>> tags{
      {"link", "href"}, {"img", "src"}, {"a", "href"}, {"area", "href"}};
  std::vector<link_source> expected;
  std::vector<std::string> expected_referrers;
  for (const int number : numbers) {
    const std::string url = "http://a.test/p" + std::to_string(number);
    const auto page = store->add_url(url, root);
    store->note_anchors(page, {});
    store->finish(page, {.status = 200}, verdict::ok);
    expected_referrers.push_back(url);
    for (int k = 0, count = 1 + number % 3; k < count; ++k) {
      const auto& [element, attribute] = tags[random() % tags.size()];
      const auto line = static_cast<std::uint32_t>(1 + random() % 20);
      store->note_fragment(
          doc, "gone",
          {.page = page, .element = element, .attribute = attribute, .line = line, .column = 1});
      expected.push_back({url, element, attribute, line, 1});
    }
  }
  store->finish(doc, {.status = 200}, verdict::ok);
  store->sort_by_url();
  const broken_list broken = crawl_store::problems(store, verdict::broken);
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_EQ(broken[0].url, "http://a.test/doc#gone");
  std::ranges::sort(expected);
  std::ranges::sort(expected_referrers);
  EXPECT_EQ(broken[0].sources, expected);
  EXPECT_EQ(broken[0].referrers, expected_referrers);
}

// A large crawl's places peak midway; once most of their URLs are fetched, the pool they
// took is compacted and its memory given back, and the places still kept read as before.
TEST(CrawlStore, ThePlacesOfUrlsFetchedGoBackToTheSystem) {
  crawl_store store(std::size_t{64} << 20);  // all in lists, none logged
  const auto root = store.add_url("http://a.test/", std::nullopt);
  std::vector<crawl_store::url_id> pages;
  for (int i = 0; i < 400; ++i)
    pages.push_back(store.add_url("http://a.test/p" + std::to_string(i), root));
  std::vector<crawl_store::url_id> targets;
  for (int i = 0; i < 4000; ++i)
    targets.push_back(store.add_url("http://a.test/t" + std::to_string(i), root));
  for (const auto target : targets) {  // 1,600,000 places: some 11 MB
    for (std::uint32_t line = 0; line < pages.size(); ++line)
      store.note_source(target, link_from(pages[line], line + 1));
  }
  const std::size_t peak = store.list_bytes();
  ASSERT_GT(peak, std::size_t{9} << 20);  // past the 8 MiB worth compacting
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (i % 10 != 0) store.finish(targets[i], {.status = 200}, verdict::ok);
  }
  EXPECT_LE(store.list_bytes(), peak / 2);  // compacted once, as half of it was free
  for (std::size_t i = 0; i < targets.size(); i += 10) {
    const auto sources = store.sources(targets[i]);
    ASSERT_EQ(sources.size(), pages.size());
    std::set<std::uint32_t> lines;
    for (const link_source& source : sources) {
      ASSERT_GE(source.line, 1u);
      ASSERT_LE(source.line, pages.size());
      EXPECT_EQ(source.page, store.url(pages[source.line - 1]).str());
      lines.insert(source.line);
    }
    EXPECT_EQ(lines.size(), pages.size());
  }
}

// Once sorted for the reports, only the problems and the skipped URLs keep their lists: the
// memory of the others (a large crawl's pending URLs) goes back for the reports to use.
TEST(CrawlStore, SortingForTheReportsKeepsTheListsTheyRead) {
  auto store = std::make_shared<crawl_store>();
  const auto root = store->add_url("http://a.test/", std::nullopt);
  const auto broken = store->add_url("http://a.test/broken", root);
  const auto trap = store->add_url("http://a.test/trap", root);
  const auto pending = store->add_url("http://a.test/pending", root);
  std::vector<crawl_store::url_id> pages;
  for (int i = 0; i < 30; ++i)  // several blocks of each kind
    pages.push_back(store->add_url("http://a.test/p" + std::to_string(i), root));
  for (const auto page : pages) {
    for (const auto target : {broken, trap, pending})
      store->note_source(target, link_from(page, 7));
  }
  store->finish(root, {.status = 200}, verdict::ok);
  store->finish(broken, {.status = 404}, verdict::broken);
  store->skip(trap, "trap: a loop");
  store->sort_by_url();
  EXPECT_EQ(store->referrers(broken).size(), 31u);
  EXPECT_EQ(store->sources(broken).size(), 30u);
  EXPECT_TRUE(store->referrers(pending).empty());
  EXPECT_TRUE(store->sources(pending).empty());
  const broken_list problems = crawl_store::problems(store, verdict::broken);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].referrers.size(), 31u);
  EXPECT_EQ(problems[0].sources.size(), 30u);
  const auto skipped = crawl_store::skipped(store);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].referrers.size(), 31u);
  EXPECT_EQ(skipped[0].sources.size(), 30u);
  // pending and the pages: listed all the same
  EXPECT_EQ(crawl_store::unchecked(store).size(), 31u);
}

// A large crawl's places are logged for its end instead of kept in lists; once sorted, the
// reports read what lists would have given: the same referrers and sources of the broken
// URLs, the warnings and the skipped ones, whatever came before or after each was finished.
TEST(CrawlStore, PlacesLoggedForTheEndReadAsTheirListsWould) {
  const auto listed = std::make_shared<crawl_store>();
  const auto logged = std::make_shared<crawl_store>(0);  // logs from its first block on
  std::mt19937 random(7);
  const auto pick = [&random](std::size_t n) { return static_cast<std::size_t>(random() % n); };
  for (const auto& store : {listed, logged}) {
    random.seed(7);
    const auto root = store->add_url("http://a.test/", std::nullopt);
    std::vector<crawl_store::url_id> ids;
    for (int i = 0; i < 3000; ++i)
      ids.push_back(store->add_url("http://a.test/u" + std::to_string(i), root));
    std::set<crawl_store::url_id> settled;  // finished or skipped
    for (int step = 0; step < 60000; ++step) {
      const auto target = ids[pick(ids.size())];
      const auto page = ids[pick(ids.size())];
      switch (pick(40)) {
        case 0:
          store->note_redirect(page, target);
          break;
        case 1:  // finished, fine, broken or a warning, with places before and after
          if (settled.insert(target).second) {
            const std::size_t kind = pick(4);
            store->finish(
                target, {.status = kind == 1 ? 404 : 200},
                kind == 1 ? verdict::broken : (kind == 2 ? verdict::warning : verdict::ok));
          }
          break;
        case 2:
          if (settled.insert(target).second) store->skip(target, "trap: a loop");
          break;
        default:
          store->note_source(target, link_from(page, static_cast<std::uint32_t>(pick(500) + 1)));
      }
    }
  }
  EXPECT_GT(logged->places_logged(), 50000U);
  EXPECT_EQ(listed->places_logged(), 0U);
  EXPECT_LT(logged->list_bytes(), listed->list_bytes());
  listed->sort_by_url();
  logged->sort_by_url();
  EXPECT_EQ(logged->places_logged(), 0U);
  std::size_t places = 0;
  // Lists of the same URLs, with the same referrers and sources; counts their places.
  const auto expect_same = [&places](const auto& a, const auto& b) {
    ASSERT_EQ(a.size(), b.size());
    ASSERT_GT(a.size(), 50U);
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i].url, b[i].url);
      ASSERT_EQ(a[i].referrers, b[i].referrers) << a[i].url;
      ASSERT_EQ(a[i].sources, b[i].sources) << a[i].url;
      places += a[i].sources.size();
    }
  };
  for (const verdict meaning : {verdict::broken, verdict::warning})
    expect_same(crawl_store::problems(listed, meaning), crawl_store::problems(logged, meaning));
  expect_same(crawl_store::skipped(listed), crawl_store::skipped(logged));
  EXPECT_GT(places, 5000U);
}

// Reading `list` through for_each gives, item by item, what indexing it gives (`expect_same`
// compares the two): what an item leaves in the one object must not show through in the next.
template <class T, class ExpectSame>
void expect_read_in_turn_as_indexed(const built_list<T>& list, ExpectSame expect_same) {
  std::size_t index = 0;
  EXPECT_TRUE(list.for_each([&](const T& read) {
    expect_same(read, list[index++]);
    return true;
  }));
  EXPECT_EQ(index, list.size());
}

// A list read through for_each builds every item into one object: what an item leaves in it
// (more sources, a redirect, an error) must not show through in the next.
TEST(CrawlStore, ItemsReadIntoOneObjectAreTheItemsReadOneByOne) {
  auto store = std::make_shared<crawl_store>();
  const auto root = store->add_url("http://a.test/", std::nullopt);
  store->note_anchors(root, {});
  store->finish(root, {.status = 200, .content_type = "text/html", .encoding = "utf-8"},
                verdict::ok);
  std::vector<crawl_store::url_id> pages;
  for (int i = 0; i < 6; ++i) {
    const auto page = store->add_url("http://a.test/p" + std::to_string(i), root);
    pages.push_back(page);
    store->note_anchors(page, id_hashes(std::vector<std::string>{"kept"}));
    store->finish(page, {.status = 200}, verdict::ok);
  }
  const auto moved = store->add_url("http://a.test/moved", root);
  store->finish(moved, {.status = 301, .next_url = "http://a.test/p0"}, verdict::ok);
  const auto gone = store->add_url("http://a.test/gone", pages[2]);
  store->note_source(gone, {.page = pages[2], .element = "img", .attribute = "src", .line = 4});
  store->finish(gone, {.status = 404, .error = "not here"}, verdict::broken);
  // Missing fragments with 3, 1, 5 and 2 places, from pages alike and not.
  const int places[] = {3, 1, 5, 2};
  for (int target = 0; target < 4; ++target) {
    for (int k = 0; k < places[target]; ++k) {
      store->note_fragment(pages[static_cast<std::size_t>(target)], "missing",
                           {.page = pages[static_cast<std::size_t>(k % 3 + 3)],
                            .element = "a",
                            .attribute = "href",
                            .line = static_cast<unsigned>(k + 1),
                            .column = 2});
    }
  }
  store->sort_by_url();
  const record_list records(store);
  expect_read_in_turn_as_indexed(records, [](const fetch_record& read, const fetch_record& built) {
    EXPECT_EQ(read.url, built.url);
    EXPECT_EQ(read.status, built.status);
    EXPECT_EQ(read.next_url, built.next_url);
    EXPECT_EQ(read.error, built.error);
    EXPECT_EQ(read.content_type, built.content_type);
    EXPECT_EQ(read.encoding, built.encoding);
    EXPECT_EQ(read.referrer, built.referrer);
    EXPECT_EQ(read.method, built.method);
  });
  const broken_list broken = crawl_store::problems(store, verdict::broken);
  ASSERT_EQ(broken.size(), 5u);
  expect_read_in_turn_as_indexed(broken, [](const broken_link& read, const broken_link& built) {
    EXPECT_EQ(read.url, built.url);
    EXPECT_EQ(read.status, built.status);
    EXPECT_EQ(read.error, built.error);
    EXPECT_EQ(read.referrers, built.referrers);
    EXPECT_EQ(read.sources, built.sources);
  });
  // A visit that stops ends the reading.
  EXPECT_FALSE(broken.for_each([](const broken_link&) { return false; }));
}

// An entry of the test's lists: a page id.
struct page_entry {
  std::uint32_t page = 0xffff'ffff;
  bool empty() const { return page == 0xffff'ffff; }
};
using page_lists = pooled_lists<page_entry, 3>;

std::vector<std::uint32_t> pages_in(const page_lists& lists, page_lists::handle list) {
  std::vector<std::uint32_t> pages;
  lists.for_each(list, [&pages](const page_entry& entry) { pages.push_back(entry.page); });
  std::ranges::sort(pages);
  return pages;
}

TEST(PooledLists, ListsShareOnePoolOfBlocks) {
  page_lists lists;
  page_lists::handle a = page_lists::kEmpty;
  page_lists::handle b = page_lists::kEmpty;
  for (std::uint32_t i = 0; i < 20; ++i) {
    lists.add(a, {i});
    lists.add(b, {100 + i});
  }
  const auto pages = pages_in(lists, a);
  ASSERT_EQ(pages.size(), 20u);
  EXPECT_EQ(pages.front(), 0u);
  EXPECT_EQ(pages.back(), 19u);
  lists.clear(a);
  EXPECT_EQ(a, page_lists::kEmpty);
  EXPECT_TRUE(pages_in(lists, a).empty());
  EXPECT_EQ(pages_in(lists, b).size(), 20u);
}

// Compacting moves the blocks in use below the free ones: every list reads as before, and the
// pool holds no more than its lists use.
TEST(PooledLists, CompactingKeepsEveryListAndGivesTheRestBack) {
  page_lists lists;
  std::vector<page_lists::handle> handles(3000, page_lists::kEmpty);
  for (std::uint32_t i = 0; i < handles.size(); ++i) {
    for (std::uint32_t k = 0; k <= i % 8; ++k)
      lists.add(handles[i], {i * 10 + k});
  }
  for (std::uint32_t i = 0; i < handles.size(); ++i) {
    if (i % 3 != 0) lists.clear(handles[i]);  // two lists in three given back
  }
  std::vector<std::vector<std::uint32_t>> before;
  for (const auto handle : handles)
    before.push_back(pages_in(lists, handle));
  const std::size_t held = lists.bytes_held();
  ASSERT_LT(lists.bytes_used(), held / 2);

  lists.compact([&handles](const auto& move_list) {
    for (auto& handle : handles) {
      if (handle != page_lists::kEmpty) move_list(handle);
    }
  });
  EXPECT_EQ(lists.bytes_held(), lists.bytes_used());
  EXPECT_LT(lists.bytes_held(), held / 2);
  for (std::size_t i = 0; i < handles.size(); ++i)
    ASSERT_EQ(pages_in(lists, handles[i]), before[i]) << i;

  // The pool grows again from there, and what is cleared is reused.
  lists.add(handles[1], {7});
  EXPECT_EQ(pages_in(lists, handles[1]), std::vector<std::uint32_t>{7});
  lists.clear(handles[0]);
  const std::size_t after = lists.bytes_held();
  lists.add(handles[2], {8});
  EXPECT_EQ(lists.bytes_held(), after);
  EXPECT_EQ(pages_in(lists, handles[3]), before[3]);
}

// Places are kept in the bytes their numbers need; every one reads back as it was, the
// largest numbers too, and a redirect as a page without a position.
TEST(PlaceLists, EveryPlaceReadsBackAsItWas) {
  place_lists lists;
  place_lists::handle list = place_lists::kEmpty;
  place_lists::handle other = place_lists::kEmpty;
  std::vector<stored_source> added = {
      {.page = 0, .line = 0, .column = 0, .tag = 0},
      {.page = 0xffff'fffe, .line = 0xffff'ffff, .column = 0xffff'ffff, .tag = 0xffff'ffff},
      {.page = 127, .line = 128, .column = 16'383, .tag = 16'384},
  };
  std::mt19937 random(7);
  for (int i = 0; i < 300; ++i) {  // many blocks
    added.push_back({.page = static_cast<std::uint32_t>(random() % 2'000'000),
                     .line = static_cast<std::uint32_t>(random() % 3000),
                     .column = static_cast<std::uint32_t>(random() >> (random() % 32)),
                     .tag = static_cast<std::uint32_t>(random() % 40)});
  }
  for (const stored_source& place : added) {
    lists.add(list, place);
    lists.add(other, {.page = 1, .line = 2, .column = 3, .tag = 4});
  }
  lists.add_redirect(list, 0xffff'fffe);
  lists.add_redirect(list, 5);

  const auto key = [](const stored_source& s) {
    return std::tuple{s.page, s.line, s.column, s.tag};
  };
  std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>> expected;
  for (const stored_source& place : added)
    expected.push_back(key(place));
  std::ranges::sort(expected);
  std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>> read;
  std::vector<std::uint32_t> redirects;
  for (const listed_place& place : lists.places(list)) {
    if (place.redirect) {
      redirects.push_back(place.source.page);
    } else {
      read.push_back(key(place.source));
    }
  }
  std::ranges::sort(read);
  std::ranges::sort(redirects);
  EXPECT_EQ(read, expected);
  EXPECT_EQ(redirects, (std::vector<std::uint32_t>{5, 0xffff'fffe}));
  EXPECT_EQ(lists.places(other).size(), added.size());
  // A small place takes a few bytes: 300 of them fit in far fewer than 300 blocks of 32.
  EXPECT_LT(lists.bytes_used(), 2 * 300 * 12);

  lists.clear(list);
  EXPECT_TRUE(lists.places(list).empty());
  EXPECT_EQ(lists.places(other).size(), added.size());
}

// A place of a missing fragment is 12 bytes; those whose column or tag does not fit are kept
// whole aside, and every place reads back as it was.
TEST(SourcePacking, EveryPlaceReadsBackAsItWas) {
  source_packing packing;
  const std::vector<stored_source> places = {
      {.page = 1, .line = 7, .column = 12, .tag = 0},
      {.page = 2, .line = 0xffff'fffe, .column = 0xff'ffff, .tag = 254},  // the widest to fit
      {.page = 3, .line = 1, .column = 0x100'0000, .tag = 4},             // a column too far
      {.page = 4, .line = 2, .column = 3, .tag = 255},                    // a tag too far
      {.page = 5, .line = 9, .column = 0xffff'ffff, .tag = 0xffff'ffff},
  };
  std::vector<packed_source> packed;
  for (const stored_source& place : places)
    packed.push_back(packing.pack(place));
  for (std::size_t i = 0; i < places.size(); ++i) {
    const stored_source read = packing.unpack(packed[i]);
    EXPECT_EQ(read.page, places[i].page) << i;
    EXPECT_EQ(read.line, places[i].line) << i;
    EXPECT_EQ(read.column, places[i].column) << i;
    EXPECT_EQ(read.tag, places[i].tag) << i;
  }
}

// Random access by its concept; an input iterator by its category, as reading builds values.
static_assert(std::random_access_iterator<record_list::iterator>);
static_assert(std::same_as<record_list::iterator::iterator_category, std::input_iterator_tag>);

TEST(RecordList, ReadsLikeAVectorOfRecords) {
  const record_list empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.begin(), empty.end());

  const record_list records = {{.url = "http://a.test/b", .status = 200},
                               {.url = "http://a.test/a", .status = 404}};
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1].url, "http://a.test/a");
  EXPECT_EQ(records.front().status, 200u);
  EXPECT_EQ(records.back().status, 404u);
  EXPECT_THROW(records.at(2), std::out_of_range);
  EXPECT_EQ(records.end() - records.begin(), 2);

  std::vector<std::string> urls;
  for (const auto& r : records)
    urls.push_back(r.url);
  EXPECT_EQ(urls, (std::vector<std::string>{"http://a.test/b", "http://a.test/a"}));
  const auto found = std::ranges::find(records, "http://a.test/a", &fetch_record::url);
  ASSERT_NE(found, records.end());
  EXPECT_EQ((*found).status, 404u);
  EXPECT_EQ(std::ranges::count_if(records, [](const fetch_record& r) { return r.status == 200u; }),
            1);

  const record_list copy = records;  // shares the records
  EXPECT_EQ(copy[0].url, records[0].url);
}

TEST(CrawlStore, ADepthIsTheShortestPathNoted) {
  crawl_store store;
  const auto root = store.add_url("http://a.test/", std::nullopt, 0);
  const auto deep = store.add_url("http://a.test/deep", root, 5);
  EXPECT_EQ(store.depth(deep), 5);
  store.note_depth(deep, 2);
  EXPECT_EQ(store.depth(deep), 2);
  store.note_depth(deep, 4);  // a longer path changes nothing
  EXPECT_EQ(store.depth(deep), 2);
  const auto far = store.add_url("http://a.test/far", root, 1'000'000);
  EXPECT_EQ(store.depth(far), 0xffff);  // deeper paths count as this deep
}

TEST(CrawlStore, UrlsNeitherFinishedNorSkippedAreUnchecked) {
  auto store = std::make_shared<crawl_store>();
  const auto root = store->add_url("http://a.test/", std::nullopt);
  const auto b = store->add_url("http://a.test/b", root);
  const auto trap = store->add_url("http://a.test/a/a/a/a/", b);
  store->add_url("http://a.test/c", b);
  store->add_url("http://a.test/a", root);
  store->finish(b, {.status = 200}, verdict::ok);
  store->skip(trap, "trap: why");
  store->sort_by_url();
  EXPECT_EQ(store->size(), 1u);  // only finished URLs have records
  const auto unchecked = crawl_store::unchecked(store);
  ASSERT_EQ(unchecked.size(), 3u);  // sorted by URL
  EXPECT_EQ(unchecked[0].url, "http://a.test/");
  EXPECT_EQ(unchecked[0].referrer, std::nullopt);
  EXPECT_EQ(unchecked[1].url, "http://a.test/a");
  EXPECT_EQ(unchecked[1].referrer, "http://a.test/");
  EXPECT_EQ(unchecked[2].url, "http://a.test/c");
  EXPECT_EQ(unchecked[2].referrer, "http://a.test/b");
  const auto skipped = crawl_store::skipped(store);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].url, "http://a.test/a/a/a/a/");
  EXPECT_EQ(skipped[0].reason, "trap: why");
  EXPECT_EQ(skipped[0].referrer, "http://a.test/b");
  // Read into one object in turn, each item is the same: a referrer does not show through.
  expect_read_in_turn_as_indexed(unchecked,
                                 [](const unchecked_url& read, const unchecked_url& built) {
                                   EXPECT_EQ(read.url, built.url);
                                   EXPECT_EQ(read.referrer, built.referrer);
                                   EXPECT_EQ(read.reason, built.reason);
                                 });
}

TEST(CrawlStore, RedirectsReachAUrlAlongTheirRecordedChain) {
  crawl_store store;
  const auto a = store.add_url("http://a.test/a", std::nullopt);
  const auto b = store.add_url("http://a.test/b", a);
  const auto c = store.add_url("http://a.test/c", b);
  const auto d = store.add_url("http://a.test/d", std::nullopt);
  store.finish(a, {.status = 301, .next_url = "http://a.test/b"}, verdict::ok);
  store.finish(b, {.status = 302, .next_url = "http://a.test/c"}, verdict::ok);
  EXPECT_TRUE(store.redirects_reach(a, a, 10));  // a redirect to itself
  EXPECT_TRUE(store.redirects_reach(a, c, 10));  // c -> a would close a -> b -> c -> a
  EXPECT_FALSE(store.redirects_reach(a, c, 1));  // not within one hop
  EXPECT_FALSE(store.redirects_reach(a, d, 10));
  EXPECT_FALSE(store.redirects_reach(c, a, 10));  // c is not finished: no chain from it
}

}  // namespace
}  // namespace corocrawl
