#pragma once
// A deterministic synthetic website for benchmarks: N HTML pages, each a function of its index
// and the site's shape alone, so gen_site (files on disk) and page_server (pages made on the
// fly) serve byte-identical sites, and the expected crawl result is known without crawling.
//
// URL scheme: page 0 is "/" (the file index.html), page i > 0 is "/s<i/1000>/p<i>.html", so a
// directory never holds more than 1000 files. Every link is relative (root-relative, "../",
// same-directory, some with a #fragment), so the site works on any host and port.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace corocrawl::bench {

/// Bounds on a shape, checked by validate(): below min_page_bytes the links of a page might not
/// fit (the page would be larger than asked), and max_pages keeps paths short enough for that.
inline constexpr std::uint64_t min_page_bytes = 4096;
inline constexpr std::uint64_t max_page_bytes = 64ULL * 1024 * 1024;
inline constexpr std::uint64_t max_pages = 10'000'000;
/// Broken links all point to "/missing/<k>.html" with k < missing_targets.
inline constexpr std::uint64_t missing_targets = 50;
/// Fewest and most distinct links of a page (fewer only on sites of fewer than 51 pages).
inline constexpr std::size_t min_links = 20;
inline constexpr std::size_t max_links = 50;

/// The whole configuration of a site: the same shape gives the same site, byte for byte.
struct site_shape {
  std::uint64_t pages = 1000;
  std::uint64_t min_bytes = 5000;   ///< smallest page size, inclusive
  std::uint64_t max_bytes = 20000;  ///< largest page size, inclusive
};

/// Throws std::invalid_argument, with one line naming the option ("--pages", "--min-bytes",
/// "--max-bytes") and the problem, unless 1 <= pages <= max_pages and
/// min_page_bytes <= min_bytes <= max_bytes <= max_page_bytes.
void validate(const site_shape& shape);

/// The URL path of page `index`: "/" for page 0, "/s<index/1000>/p<index>.html" otherwise.
std::string page_path(std::uint64_t index);

/// The file of page `index` relative to the site's directory: "index.html" for page 0,
/// "s<index/1000>/p<index>.html" otherwise.
std::string page_file(std::uint64_t index);

/// The URL path of the k-th missing page: "/missing/<k>.html".
std::string missing_path(std::uint64_t k);

/// The inverse of page_path (also accepting "/index.html" for page 0): the page a URL path
/// (without query or fragment) names, or nullopt when it names no page of a `pages`-page site
/// (missing pages, indices >= pages, non-canonical spellings such as leading zeros).
std::optional<std::uint64_t> page_index(std::string_view path, std::uint64_t pages);

/// What a link points to: page `value`, or the missing page "/missing/<value>.html".
struct link_target {
  bool missing = false;
  std::uint64_t value = 0;
  friend bool operator==(const link_target&, const link_target&) = default;
};

/// The URL path of a link's target, as page_path or missing_path give it.
std::string target_path(const link_target& target);

/// One <a href> of a page: where it points and how the page spells it.
struct page_link {
  link_target target;
  std::string href;  ///< relative; resolved against page_path(index) it names `target`
};

/// The distinct links of page `index`, in document order: min_links..max_links of them (all
/// other pages on smaller sites), always including pages 2*index+1 and 2*index+2 when they
/// exist (so every page is reachable from "/"), about one page in 200 also linking to a
/// missing page. No two links share a target. Requires validate(shape) to pass.
std::vector<page_link> page_links(std::uint64_t index, const site_shape& shape);

/// The exact size of synthetic_page(index, shape): uniformly spread over
/// [shape.min_bytes, shape.max_bytes].
std::uint64_t page_size(std::uint64_t index, const site_shape& shape);

/// Page `index` of the site: a complete HTML5 document of page_size(index, shape) bytes (head,
/// nav, headings, paragraphs, lists, tables, footer) whose <a href>s are exactly
/// page_links(index, shape). Throws std::invalid_argument when validate(shape) fails or
/// index >= shape.pages.
std::string synthetic_page(std::uint64_t index, const site_shape& shape);

/// The same page appended to `out` (which keeps its capacity between calls).
void append_synthetic_page(std::string& out, std::uint64_t index, const site_shape& shape);

/// What a crawl of the whole site, started at http://HOST:PORT/ and following every <a href>
/// (fragments stripped), sees.
struct site_expectation {
  std::uint64_t pages_reachable = 0;  ///< pages reachable from "/"
  std::uint64_t broken = 0;           ///< distinct missing URLs linked from reachable pages
  std::uint64_t urls = 0;             ///< distinct URLs: pages_reachable + broken
  std::uint64_t bytes = 0;            ///< total size of the reachable pages
};

/// Walks the link graph of the site from page 0. Throws std::invalid_argument when
/// validate(shape) fails.
site_expectation expected(const site_shape& shape);

}  // namespace corocrawl::bench
