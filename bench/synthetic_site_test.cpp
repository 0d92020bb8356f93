// The synthetic benchmark site: deterministic, of the promised sizes, and its links, read by
// the crawler's own link extraction, give exactly the crawl that expected() predicts.
#include "synthetic_site.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "html/links.hpp"
#include "url/url.hpp"

namespace corocrawl::bench {
namespace {

constexpr std::string_view origin = "http://127.0.0.1:8080";
const site_shape small_site{.pages = 2000, .min_bytes = 4096, .max_bytes = 8192};

std::string url_of(std::string_view path) {
  return std::string(origin) + std::string(path);
}

std::uint64_t fnv1a(std::string_view data) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : data) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

TEST(SyntheticSite, SamePageTwiceIsIdentical) {
  const site_shape shape{.pages = 5000};
  for (const std::uint64_t index : {0, 1, 2, 999, 1000, 4999}) {
    EXPECT_EQ(synthetic_page(index, shape), synthetic_page(index, shape)) << index;
    std::string appended = "prefix";
    append_synthetic_page(appended, index, shape);
    EXPECT_EQ(appended, "prefix" + synthetic_page(index, shape)) << index;
  }
}

TEST(SyntheticSite, PagesDifferFromEachOther) {
  const site_shape shape{.pages = 5000};
  std::set<std::string> pages;
  for (std::uint64_t index = 0; index < 50; ++index)
    pages.insert(synthetic_page(index, shape));
  EXPECT_EQ(pages.size(), 50U);
}

// The site must be the same on every machine and in every version, or benchmark results stop
// being comparable: this pins one page. Change it only together with the generator, knowingly.
TEST(SyntheticSite, PageContentIsPinned) {
  const site_shape shape{.pages = 100000};
  const auto page = synthetic_page(12345, shape);
  EXPECT_EQ(page.size(), 14460U);
  EXPECT_EQ(fnv1a(page), 6658358088734816037ULL);
}

TEST(SyntheticSite, PageIsAnHtmlDocument) {
  const auto page = synthetic_page(7, site_shape{.pages = 100});
  EXPECT_TRUE(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"));
  EXPECT_NE(page.find("<meta charset=\"utf-8\">"), std::string::npos);
  EXPECT_NE(page.find("<title>"), std::string::npos);
  EXPECT_NE(page.find("<nav>"), std::string::npos);
  EXPECT_NE(page.find("<p>"), std::string::npos);
  EXPECT_TRUE(page.ends_with("</footer>\n</body>\n</html>\n"));
}

TEST(SyntheticSite, SizesAreExactAndSpreadOverTheRange) {
  const site_shape shape{.pages = 2000, .min_bytes = 5000, .max_bytes = 20000};
  std::uint64_t smallest = UINT64_MAX;
  std::uint64_t largest = 0;
  for (std::uint64_t index = 0; index < shape.pages; ++index) {
    const auto size = synthetic_page(index, shape).size();
    ASSERT_EQ(size, page_size(index, shape)) << index;
    ASSERT_GE(size, shape.min_bytes) << index;
    ASSERT_LE(size, shape.max_bytes) << index;
    smallest = std::min<std::uint64_t>(smallest, size);
    largest = std::max<std::uint64_t>(largest, size);
  }
  EXPECT_LT(smallest, 5200U);
  EXPECT_GT(largest, 19800U);
}

TEST(SyntheticSite, SmallestAllowedPagesStillHoldAllLinksAtTheLargestSite) {
  // The longest hrefs and the most links: pages of the largest site, at the smallest size.
  const site_shape shape{
      .pages = max_pages, .min_bytes = min_page_bytes, .max_bytes = min_page_bytes};
  for (std::uint64_t index = max_pages - 300; index < max_pages; ++index)
    ASSERT_EQ(synthetic_page(index, shape).size(), min_page_bytes) << index;
  for (const std::uint64_t index : {0, 1, 999, 1000, 4999999})
    ASSERT_EQ(synthetic_page(index, shape).size(), min_page_bytes) << index;
}

TEST(SyntheticSite, EveryPageHas20To50DistinctLinksIncludingItsChildren) {
  for (std::uint64_t index = 0; index < small_site.pages; ++index) {
    const auto links = page_links(index, small_site);
    ASSERT_GE(links.size(), min_links) << index;
    ASSERT_LE(links.size(), max_links) << index;
    std::set<std::string> targets;
    for (const auto& link : links) {
      targets.insert(target_path(link.target));
      EXPECT_NE(link.target, (link_target{.value = index})) << index << " links to itself";
    }
    ASSERT_EQ(targets.size(), links.size()) << index;
    for (const auto child : {2 * index + 1, 2 * index + 2}) {
      if (child < small_site.pages) {
        EXPECT_TRUE(targets.contains(page_path(child))) << index;
      }
    }
  }
}

TEST(SyntheticSite, HrefsResolveToTheirTargetsInEveryForm) {
  std::uint64_t root_relative = 0;
  std::uint64_t parent_relative = 0;
  std::uint64_t same_directory = 0;
  std::uint64_t with_fragment = 0;
  for (std::uint64_t index = 0; index < small_site.pages; ++index) {
    const auto base = url_of(page_path(index));
    for (const auto& link : page_links(index, small_site)) {
      ASSERT_EQ(resolve_link(base, link.href), url_of(target_path(link.target)))
          << "page " << index << " href " << link.href;
      ASSERT_FALSE(link.href.starts_with("http")) << link.href;
      root_relative += link.href.starts_with('/') ? 1 : 0;
      parent_relative += link.href.starts_with("../") ? 1 : 0;
      same_directory += link.href.starts_with('p') ? 1 : 0;
      with_fragment += link.href.find('#') != std::string::npos ? 1 : 0;
    }
  }
  EXPECT_GT(root_relative, 1000U);
  EXPECT_GT(parent_relative, 1000U);
  EXPECT_GT(same_directory, 1000U);
  EXPECT_GT(with_fragment, 1000U);
}

// A crawl from "/", with the crawler's own link extraction: every page is reached, and the
// distinct URLs, broken URLs and bytes are what expected() computes without parsing.
TEST(SyntheticSite, CrawlFromTheRootSeesWhatExpectedPredicts) {
  std::set<std::string> seen{url_of("/")};
  std::vector<std::uint64_t> queue{0};
  std::set<std::string> broken;
  std::uint64_t bytes = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const auto index = queue[head];
    const auto page = synthetic_page(index, small_site);
    bytes += page.size();
    const auto links = extract_links(page, url_of(page_path(index)));
    // Document order is link order: the page holds exactly its page_links, nothing else.
    std::vector<std::string> wanted;
    for (const auto& link : page_links(index, small_site))
      wanted.push_back(url_of(target_path(link.target)));
    ASSERT_EQ(links, wanted) << "page " << index;

    for (const auto& url : links) {
      if (!seen.insert(url).second) continue;
      ASSERT_TRUE(url.starts_with(origin)) << url;
      const auto target = page_index(std::string_view(url).substr(origin.size()), small_site.pages);
      if (target) {
        queue.push_back(*target);
      } else {
        broken.insert(url);
      }
    }
  }
  const auto expectation = expected(small_site);
  EXPECT_EQ(queue.size(), small_site.pages);
  EXPECT_EQ(expectation.pages_reachable, small_site.pages);
  EXPECT_EQ(expectation.urls, seen.size());
  EXPECT_EQ(expectation.broken, broken.size());
  EXPECT_EQ(expectation.bytes, bytes);
}

TEST(SyntheticSite, BrokenLinksAreRareAndShareFewTargets) {
  const site_shape shape{.pages = 20000};
  std::uint64_t pages_with_broken = 0;
  std::set<std::string> broken;
  for (std::uint64_t index = 0; index < shape.pages; ++index) {
    bool has_broken = false;
    for (const auto& link : page_links(index, shape)) {
      if (!link.target.missing) continue;
      has_broken = true;
      ASSERT_LT(link.target.value, missing_targets);
      const auto path = target_path(link.target);
      EXPECT_TRUE(path.starts_with("/missing/")) << path;
      EXPECT_FALSE(page_index(path, shape.pages)) << path;
      broken.insert(path);
    }
    pages_with_broken += has_broken ? 1 : 0;
  }
  // About one page in 200: 100 expected out of 20000.
  EXPECT_GT(pages_with_broken, 50U);
  EXPECT_LT(pages_with_broken, 200U);
  EXPECT_GT(broken.size(), 10U);
  EXPECT_LE(broken.size(), missing_targets);
  EXPECT_EQ(expected(shape).broken, broken.size());
}

TEST(SyntheticSite, PathsAndIndicesRoundTrip) {
  for (std::uint64_t index = 0; index < small_site.pages; ++index) {
    ASSERT_EQ(page_index(page_path(index), small_site.pages), index);
    ASSERT_EQ(page_index("/" + page_file(index), small_site.pages), index);
  }
  EXPECT_EQ(page_path(0), "/");
  EXPECT_EQ(page_file(0), "index.html");
  EXPECT_EQ(page_path(1), "/s0/p1.html");
  EXPECT_EQ(page_path(1234), "/s1/p1234.html");
  EXPECT_EQ(page_file(999999), "s999/p999999.html");
  EXPECT_EQ(page_index("/index.html", 1), 0U);
}

TEST(SyntheticSite, PageIndexRejectsWhatNamesNoPage) {
  for (const std::string_view path : {"",
                                      "index.html",
                                      "/s0/p0.html",
                                      "/s0/p2000.html",
                                      "/s2/p2000.html",
                                      "/s1/p999.html",
                                      "/s0/p1000.html",
                                      "/s01/p1000.html",
                                      "/s1/p01000.html",
                                      "/s0/p1.htm",
                                      "/s0/p1.html/",
                                      "/s0/p1.html?x=1",
                                      "/s0//p1.html",
                                      "/s0/p-1.html",
                                      "/s0/p+1.html",
                                      "/S0/p1.html",
                                      "/missing/3.html",
                                      "/s0/p18446744073709551617.html",
                                      "/s/p1.html",
                                      "/s0/p.html"}) {
    EXPECT_EQ(page_index(path, small_site.pages), std::nullopt) << path;
  }
  EXPECT_EQ(page_index("/s1/p1999.html", small_site.pages), 1999U);
  EXPECT_EQ(page_index("/s0/p1.html", 1), std::nullopt);
}

TEST(SyntheticSite, TinySitesLinkEveryOtherPage) {
  EXPECT_EQ(expected(site_shape{.pages = 1}).pages_reachable, 1U);
  const site_shape shape{.pages = 10};
  for (std::uint64_t index = 0; index < shape.pages; ++index) {
    std::uint64_t page_count = 0;
    for (const auto& link : page_links(index, shape))
      page_count += link.target.missing ? 0 : 1;
    EXPECT_EQ(page_count, 9U) << index;
  }
  EXPECT_EQ(expected(shape).pages_reachable, 10U);
}

TEST(SyntheticSite, BadShapesAreRefusedNamingTheOption) {
  const auto message = [](const site_shape& shape) -> std::string {
    try {
      validate(shape);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_TRUE(message(site_shape{.pages = 0}).starts_with("--pages "));
  EXPECT_TRUE(message(site_shape{.pages = max_pages + 1}).starts_with("--pages "));
  EXPECT_TRUE(message(site_shape{.min_bytes = 100}).starts_with("--min-bytes "));
  EXPECT_TRUE(message(site_shape{.max_bytes = 4999}).starts_with("--max-bytes "));
  EXPECT_TRUE(message(site_shape{.min_bytes = 5000, .max_bytes = max_page_bytes + 1})
                  .starts_with("--max-bytes "));
  EXPECT_EQ(message(site_shape{}), "");
  EXPECT_THROW(synthetic_page(1000, site_shape{.pages = 1000}), std::invalid_argument);
  EXPECT_THROW(expected(site_shape{.pages = 0}), std::invalid_argument);
}

}  // namespace
}  // namespace corocrawl::bench
