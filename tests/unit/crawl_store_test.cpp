// The compact tables a crawl keeps its URLs and records in, and the record_list view of them.
#include "crawl_store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "url_table.hpp"

namespace corocrawl {
namespace {

std::string url_number(int i) {
  return "http://example.com/section" + std::to_string(i % 97) + "/page" + std::to_string(i);
}

TEST(UrlTable, AddsAndFindsUrlsByNumber) {
  url_table table;
  EXPECT_FALSE(table.find("http://a.test/"));
  EXPECT_EQ(table.add("http://a.test/"), 0u);
  EXPECT_EQ(table.add("http://a.test/b"), 1u);
  EXPECT_EQ(table.find("http://a.test/"), 0u);
  EXPECT_EQ(table.find("http://a.test/b"), 1u);
  EXPECT_FALSE(table.find("http://a.test/c"));
  EXPECT_FALSE(table.find("http://a.test"));
  EXPECT_EQ(table[1], "http://a.test/b");
  EXPECT_EQ(table.size(), 2u);
}

TEST(UrlTable, ManyUrlsKeepTheirNumbersAndTextWhileTheIndexGrows) {
  url_table table;
  std::vector<std::string_view> views;
  for (int i = 0; i < 200000; ++i)
    views.push_back(table[table.add(url_number(i))]);
  for (int i = 0; i < 200000; i += 7) {
    ASSERT_EQ(table.find(url_number(i)), static_cast<url_table::id>(i));
    ASSERT_EQ(views[i], url_number(i));  // the text never moved
  }
  EXPECT_FALSE(table.find(url_number(200000)));
}

TEST(UrlTable, UrlsLongerThanABlockAndEmptyOnes) {
  url_table table;
  const std::string long_url = "http://a.test/" + std::string(600000, 'x');
  table.add("http://a.test/short");
  const auto id = table.add(long_url);
  table.add("");
  EXPECT_EQ(table[id], long_url);
  EXPECT_EQ(table.find(long_url), id);
  EXPECT_EQ(table.find(""), 2u);
  EXPECT_EQ(table.find("http://a.test/short"), 0u);
}

TEST(CrawlStore, RecordsComeBackAsTheyWentInSortedByUrl) {
  crawl_store store;
  const auto root = store.urls().add("http://a.test/");
  const auto missing = store.urls().add("http://a.test/missing");
  const auto old = store.urls().add("http://a.test/old");
  const auto slow = store.urls().add("http://a.test/b-slow");
  store.add(root, std::nullopt,
            {.url = "ignored",
             .status = 200,
             .tries = 1,
             .size = 5000000000,
             .content_type = "text/html",
             .encoding = "utf-8",
             .num_urls = 3,
             .num_new_urls = 2});
  store.add(missing, root, {.status = 404, .tries = 1, .size = 9, .content_type = "text/html"});
  store.add(old, root, {.status = 301, .next_url = "http://a.test/", .tries = 1});
  store.add(slow, missing, {.error = "timed out", .failure = "timeout", .tries = 4});
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
  EXPECT_EQ(second.failure, "timeout");
  EXPECT_EQ(second.tries, 4);
  EXPECT_EQ(second.referrer, "http://a.test/missing");
  EXPECT_EQ(store.at(2).encoding, std::nullopt);
  EXPECT_EQ(store.at(3).next_url, "http://a.test/");
  EXPECT_EQ(store.at(3).referrer, "http://a.test/");
}

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

}  // namespace
}  // namespace corocrawl
