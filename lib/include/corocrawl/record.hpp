#pragma once
// What the crawler learned about each URL it fetched.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "corocrawl/built_list.hpp"
#include "corocrawl/failure.hpp"

namespace corocrawl {

/// One URL fetched (or tried), as in the chapter's FetchStatistic.
struct fetch_record {
  std::string url;                       ///< normalised
  std::optional<unsigned> status;        ///< none when every try failed
  std::optional<std::string> next_url;   ///< absolute redirect target
  std::optional<std::string> error;      ///< "connection reset", "redirect limit reached"...
  std::optional<fetch_failure> failure;  ///< kind of failure when status is none
  int tries = 0;
  std::uint64_t size = 0;                   ///< body bytes
  std::optional<std::string> content_type;  ///< media type without parameters
  std::optional<std::string> encoding;      ///< charset; "utf-8" by default for HTML and XML
  std::size_t num_urls = 0;                 ///< distinct in-scope links on the page
  std::size_t num_new_urls = 0;             ///< of those, not seen before this page
  std::optional<std::string> referrer;      ///< first page that linked here; none for roots
  /// Out of the crawl's scope: checked (its redirects followed), never parsed or crawled.
  bool external = false;
  /// The request whose answer this is: "GET", or "HEAD" for a resource whose HEAD answered
  /// (a HEAD that fails or answers an error status is followed by a GET, whose answer counts).
  std::string method = "GET";
  /// Taken from the cache (crawl_options::cache) instead of fetched: an external URL found OK
  /// in an earlier run. Its status, content type, encoding and method are that run's; tries
  /// and size are 0.
  bool cached = false;
};

/// The records of a crawl, sorted by URL, each built when it is read (see built_list).
using record_list = built_list<fetch_record>;
using record_source = item_source<fetch_record>;

/// The statuses the crawler follows as redirects: 300, 301, 302, 303, 307 and 308.
bool is_redirect_status(unsigned status);

/// Broken: status >= 400 (but 429), every try failed, or a redirect that could not be
/// followed (its chain hit the limit, or it had no Location). A page over max_body keeps its
/// status and the error "body too large", and is not broken.
bool is_broken(const fetch_record& r);

/// Rate limited: still answering 429 Too Many Requests after every try.
bool is_rate_limited(const fetch_record& r);

/// Where a page references a URL: the element and attribute (`img` `srcset`, `style` `url`,
/// `a` `href` ...) and the line and column (1-based; the column counts characters) of the
/// element's tag, or of the `url(` or `@import` in a stylesheet (whose element is `css`).
struct link_source {
  std::string page;
  std::string element;
  std::string attribute;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  friend bool operator==(const link_source&, const link_source&) = default;
  friend auto operator<=>(const link_source&, const link_source&) = default;
};

/// A URL with a problem (broken, rate limited, a warning) and every fetched page that links (or
/// redirects) to it, with each place a page references it. The URL of a missing fragment
/// is the page's with the fragment ("page.html#intro").
struct broken_link {
  std::string url;
  std::optional<unsigned> status;
  std::optional<std::string> error;
  std::vector<std::string> referrers;  ///< sorted
  std::vector<link_source> sources;    ///< sorted by page, line and column
  bool external = false;
};

/// Broken links, warnings or rate-limited URLs, sorted by URL, each built when it is read.
using broken_list = built_list<broken_link>;

}  // namespace corocrawl
