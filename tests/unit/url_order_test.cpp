// URLs ordered by their text through 8-byte keys past a shared prefix, then the next eight
// bytes where the keys are equal: the same order as std::sort gives the strings.
#include "store/url_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace corocrawl {
namespace {

// `count` distinct URLs of a shared prefix and a few letters from `letters`, added to `urls`
// in the order made; their ids.
std::vector<url_table::id> add_urls(url_table& urls, std::string_view prefix,
                                    std::string_view letters, int count, unsigned seed) {
  std::mt19937 random(seed);  // NOLINT(cert-msc32-c,cert-msc51-cpp): the same URLs each run
  std::vector<url_table::id> ids;
  while (ids.size() < static_cast<std::size_t>(count)) {
    std::string url(prefix);
    const int length = static_cast<int>(random() % 14);
    for (int k = 0; k < length; ++k)
      url += letters[random() % letters.size()];
    if (!urls.find(url)) ids.push_back(urls.add(url));
  }
  return ids;
}

std::vector<std::string> texts(const url_table& urls, const std::vector<url_table::id>& ids,
                               std::string_view ending = "") {
  std::vector<std::string> out;
  for (const auto id : ids)
    out.push_back(urls[id].str() + std::string(ending));
  return out;
}

// order_by_text() orders `ids` as std::sort orders their texts, with no ending and with '#'.
void expect_ordered_as_texts(const url_table& urls, const std::vector<url_table::id>& ids) {
  for (const std::optional<char> ending : {std::optional<char>(), std::optional<char>('#')}) {
    const std::string appended = ending ? std::string(1, *ending) : "";
    auto expected = texts(urls, ids, appended);
    std::ranges::sort(expected);
    auto sorted = ids;
    order_by_text(sorted, urls, ending);
    EXPECT_EQ(texts(urls, sorted, appended), expected);
  }
}

TEST(UrlOrder, SortsAsTheTextsSortWhateverTheyShare) {
  for (const std::string_view prefix : {"", "h", "http://127.0.0.1:8000/s1/"}) {
    url_table urls;
    // Few letters, so that many texts share their first bytes past the prefix and keys tie.
    auto ids = add_urls(urls, prefix, "ab/", 3000, 5);
    auto expected = texts(urls, ids);
    std::ranges::sort(expected);
    order_by_text(ids, urls);
    EXPECT_EQ(texts(urls, ids), expected) << prefix;
  }
}

// As a large site's URLs are: alike a thousand at a time for their first eight bytes past the
// host, and some alike for many eight bytes more.
TEST(UrlOrder, TextsAlikeForManyKeysSortAsTheirTexts) {
  url_table urls;
  std::vector<url_table::id> ids;
  const std::string alike(40, 'a');
  for (int page = 0; page < 5000; page += 7) {
    const std::string section = "http://127.0.0.1:8000/s" + std::to_string(page / 1000);
    for (const std::string& url :
         {section + "/p" + std::to_string(page) + ".html",
          section + "/" + alike + std::to_string(page % 13) + "/p" + std::to_string(page),
          section + "/" + alike + alike + std::to_string(page)}) {
      if (!urls.find(url)) ids.push_back(urls.add(url));
    }
  }
  std::ranges::shuffle(ids, std::mt19937(3));  // NOLINT(cert-msc32-c,cert-msc51-cpp)
  expect_ordered_as_texts(urls, ids);
}

// Texts alike for 8 KiB but for their last byte, and a staircase of texts that part from
// them 8 bytes further on each: a level of keys where each parts.
TEST(UrlOrder, TextsOfEightKibAlikeButForTheirLastByte) {
  url_table urls;
  std::vector<url_table::id> ids;
  const std::string alike = "http://a.test/" + std::string(8192 - 15, 'x');
  for (const char last : {'c', 'a', '\0', 'b'})
    ids.push_back(urls.add(alike + last));
  ids.push_back(urls.add(alike));
  for (std::size_t size = 16; size < alike.size(); size += 8 * 37) {
    ids.push_back(urls.add(alike.substr(0, size) + "y"));
    ids.push_back(urls.add(alike.substr(0, size + 3) + std::string(1, '\0')));
  }
  std::ranges::shuffle(ids, std::mt19937(4));  // NOLINT(cert-msc32-c,cert-msc51-cpp)
  expect_ordered_as_texts(urls, ids);
}

TEST(UrlOrder, BytesAboveSevenBitsNulsAndPrefixesOfOthers) {
  url_table urls;
  std::vector<url_table::id> ids;
  for (const std::string& url :
       {std::string("x"), std::string("x\xC3\xA9"), std::string("x\0", 2), std::string("x\0a", 3),
        std::string("x~"), std::string("xa"), std::string("x\x01"), std::string("xaaaaaaaaab"),
        std::string("xaaaaaaaaa"), std::string("xaaaaaaaa\xFF")})
    ids.push_back(urls.add(url));
  auto expected = texts(urls, ids);
  std::ranges::sort(expected);
  order_by_text(ids, urls);
  EXPECT_EQ(texts(urls, ids), expected);
}

// With '#' appended, as "page#fragment" texts order their pages: "a!b" before "a", "a-b" after.
TEST(UrlOrder, AnEndingOrdersThePagesAsTheirFragmentsTextsDo) {
  url_table urls;
  auto ids = add_urls(urls, "http://a.test/", "a!-#\"", 2000, 9);
  auto expected = texts(urls, ids, "#");
  std::ranges::sort(expected);
  order_by_text(ids, urls, '#');
  EXPECT_EQ(texts(urls, ids, "#"), expected);
}

// The table gives a URL as its origin's text and the rest: URLs of origins that begin one
// another, and texts kept whole, sort as their whole texts do.
TEST(UrlOrder, UrlsOfManyOriginsSortAsTheirWholeTexts) {
  url_table urls;
  std::vector<url_table::id> ids;
  for (const char* origin : {"http://a.test/", "http://a.test:1/", "http://a.tes/", "http://a.test",
                             "http://a.test./", "https://a.test/", "http:/a", "http://a.t/est/"}) {
    for (const char* rest : {"", "/", "a", "est/", "test:1/", "\xC3\xA9", ":1/x"}) {
      const std::string url = std::string(origin) + rest;
      if (!urls.find(url)) ids.push_back(urls.add(url));
    }
  }
  expect_ordered_as_texts(urls, ids);
}

TEST(UrlOrder, NoneOrOneIsLeftAsItIs) {
  url_table urls;
  std::vector<url_table::id> none;
  order_by_text(none, urls);
  EXPECT_TRUE(none.empty());
  std::vector<url_table::id> one{urls.add("http://a.test/")};
  order_by_text(one, urls, '#');
  EXPECT_EQ(one, std::vector<url_table::id>{0});
}

}  // namespace
}  // namespace corocrawl
