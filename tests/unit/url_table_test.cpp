// The URL table: each URL's text stored once and known by number, its origin kept once for
// all the URLs that begin with it, and an index that finds a URL by its text.
#include "store/url_table.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "text/text_hashes.hpp"

namespace corocrawl {

void PrintTo(const split_text& text, std::ostream* out) {
  *out << '"' << text.head << text.tail << '"';
}

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
  std::vector<split_text> views;
  for (int i = 0; i < 200000; ++i)
    views.push_back(table[table.add(url_number(i))]);
  for (int i = 0; i < 200000; i += 7) {
    ASSERT_EQ(table.find(url_number(i)), static_cast<url_table::id>(i));
    ASSERT_EQ(views[i], url_number(i));  // the text never moved
  }
  EXPECT_FALSE(table.find(url_number(200000)));
}

TEST(UrlTable, VeryLongUrlsUrlsWithNulAndEmptyOnes) {
  url_table table;
  const std::string long_url = "http://a.test/" + std::string(600000, 'x');
  const std::string with_nul("http://a.test/\0x", 17);
  const auto nul_id = table.add(with_nul);
  EXPECT_EQ(table[nul_id], with_nul);
  EXPECT_EQ(table.find(with_nul), nul_id);
  EXPECT_FALSE(table.find("http://a.test/"));
  table.add("http://a.test/short");
  const auto id = table.add(long_url);
  table.add("");
  EXPECT_EQ(table[id], long_url);
  EXPECT_EQ(table.find(long_url), id);
  EXPECT_EQ(table.find(""), 3u);
  EXPECT_EQ(table.find("http://a.test/short"), 1u);
  // The longest URL kept in a block and the shortest kept apart, enough of them to fill
  // several blocks.
  std::vector<std::pair<std::string, url_table::id>> edges;
  for (int i = 0; i < 40; ++i) {
    std::string text = "http://a.test/" + std::to_string(i) + "/";
    text.resize(i % 2 == 0 ? 65535 : 65536, static_cast<char>('a' + i % 26));
    const auto added = table.add(text);
    edges.emplace_back(std::move(text), added);
  }
  for (const auto& [text, added] : edges) {
    EXPECT_EQ(table[added], text);
    EXPECT_EQ(table.find(text), added);
  }
}

TEST(UrlTable, AnIndexDroppedFindsNothingAndComesBackWithTheNextUrl) {
  url_table table;
  for (int i = 0; i < 3000; ++i)
    table.add(url_number(i));
  table.drop_index();
  EXPECT_FALSE(table.find(url_number(5)));
  EXPECT_EQ(table[5], url_number(5));  // the text stays
  EXPECT_EQ(table.add(url_number(3000)), 3000U);
  for (int i = 0; i <= 3000; ++i)
    ASSERT_EQ(table.find(url_number(i)), static_cast<url_table::id>(i));
}

TEST(UrlTable, TextsOfEverySizeAroundTheLongSizeAndTextsThatRunIntoTheNext) {
  // A size below 255 takes a byte, one from 255 on three: each text reads back whole, and a
  // text is never found as a longer one that holds it and the texts stored after it.
  url_table table;
  std::vector<std::pair<std::string, url_table::id>> added;
  for (std::size_t size = 250; size < 262; ++size) {
    std::string text(size, static_cast<char>('a' + size % 26));
    added.emplace_back(text, table.add(text));
  }
  const auto a = table.add("a");
  const auto b = table.add("b");
  for (const auto& [text, id] : added) {
    EXPECT_EQ(table[id], text);
    EXPECT_EQ(table.find(text), id);
    EXPECT_FALSE(table.find(text + '\0'));
  }
  EXPECT_EQ(table.find("a"), a);
  EXPECT_EQ(table.find("b"), b);
  EXPECT_FALSE(table.find(std::string("a\0b", 3)));
  EXPECT_FALSE(table.find("a\001b"));
}

// A URL's origin, "scheme://authority/", is kept once: its URLs give it as their head, and
// the rest as their tail; a text without one is kept whole, as is every text of a table of
// origins::whole.
TEST(UrlTable, OriginsAreKeptOnceAndTextsWithoutOneWhole) {
  url_table table;
  const std::vector<std::string> urls = {
      "http://a.test/",  "http://a.test/b/c?d#e",
      "https://a.test/", "http://a.test:8080/x",
      "http://a.test",   "mailto:someone@a.test",
      "http:/a.test/",   "",
      "http://b.test//", "http://a.test/" + std::string(300, 'y')};
  for (const std::string& url : urls)
    table.add(url);
  const std::vector<std::pair<std::string, std::string>> split = {
      {"http://a.test/", ""},  {"http://a.test/", "b/c?d#e"},
      {"https://a.test/", ""}, {"http://a.test:8080/", "x"},
      {"", "http://a.test"},   {"", "mailto:someone@a.test"},
      {"", "http:/a.test/"},   {"", ""},
      {"http://b.test/", "/"}, {"http://a.test/", std::string(300, 'y')}};
  for (url_table::id i = 0; i < urls.size(); ++i) {
    EXPECT_EQ(table[i], urls[i]);
    EXPECT_EQ(table[i].str(), urls[i]);
    EXPECT_EQ(std::string(table[i].head), split[i].first) << urls[i];
    EXPECT_EQ(std::string(table[i].tail), split[i].second) << urls[i];
    EXPECT_EQ(table.find(urls[i]), i);
  }
  EXPECT_EQ(table[0].head.data(), table[1].head.data());  // one text
  EXPECT_FALSE(table.find("http://a.test/b"));
  EXPECT_FALSE(table.find("http://a.tes/tb/c?d#e"));  // the same bytes, split elsewhere
  EXPECT_FALSE(table.find("http://a.test/b/c?d#e/"));

  url_table whole(url_table::origins::whole);
  whole.add("http://a.test/");
  EXPECT_EQ(whole.whole(0), "http://a.test/");
  EXPECT_TRUE(whole[0].head.empty());
}

// Past the most origins that are named in two bytes, the texts of new ones are kept whole;
// past 127 their names take two bytes. Every URL reads back and is found, while the index
// grows.
TEST(UrlTable, ManyOriginsAreNamedAndTheRestKeptWhole) {
  url_table table;
  constexpr int kOrigins = 0x3fff + 100;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < kOrigins; ++i)
      table.add("http://h" + std::to_string(i) + ".test/" + std::to_string(round));
  }
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < kOrigins; ++i) {
      const std::string url = "http://h" + std::to_string(i) + ".test/" + std::to_string(round);
      const auto id = static_cast<url_table::id>(round * kOrigins + i);
      ASSERT_EQ(table[id], url);
      ASSERT_EQ(table.find(url), id);
      ASSERT_EQ(table[id].head.empty(), i >= 0x3fff) << url;
    }
  }
}

// A table of keys::id finds a text by the 32-bit id_hash() a page's parse computed: texts
// whose hashes are the same are told apart by their text, and the index keeps finding them
// as it grows, by the same key.
TEST(UrlTable, ATableKeyedByIdHashesTellsApartTextsOfTheSameHash) {
  // Texts of one 32-bit hash, found among some 200,000 (about five pairs are expected).
  std::unordered_map<std::uint32_t, std::string> first_of;
  std::vector<std::pair<std::string, std::string>> same_hash;
  for (int i = 0; same_hash.size() < 2 && i < 2000000; ++i) {
    std::string text = "section-" + std::to_string(i);
    const auto [at, added] = first_of.try_emplace(id_hash(text), text);
    if (!added) same_hash.emplace_back(at->second, std::move(text));
  }
  ASSERT_EQ(same_hash.size(), 2u);

  url_table table(url_table::origins::whole, url_table::keys::id);
  std::vector<std::string> texts;
  for (const auto& [one, other] : same_hash) {
    texts.push_back(one);
    texts.push_back(other);
  }
  for (int i = 0; i < 5000; ++i)  // past the first index of 1,024 slots
    texts.push_back("id" + std::to_string(i));
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const std::size_t key = url_table::id_key(id_hash(texts[i]));
    EXPECT_EQ(table.key(texts[i]), key);
    EXPECT_FALSE(table.find(texts[i], key)) << texts[i];
    EXPECT_EQ(table.add(texts[i], key), i);
  }
  for (std::size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(table.find(texts[i], url_table::id_key(id_hash(texts[i]))), i) << texts[i];
    EXPECT_EQ(table.find(texts[i]), i) << texts[i];
    EXPECT_EQ(table.whole(static_cast<url_table::id>(i)), texts[i]);
  }
  // The key of a URL table is the URL's hash.
  EXPECT_EQ(url_table().key("http://a.test/"), url_table::hash("http://a.test/"));
  EXPECT_NE(table.key("http://a.test/"), url_table::hash("http://a.test/"));
}

}  // namespace
}  // namespace corocrawl
