#pragma once
// What the crawler learned about each URL it fetched.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace corocrawl {

/// One URL fetched (or tried), as in the seed's FetchStatistic.
struct fetch_record {
  std::string url;                      ///< normalised
  std::optional<unsigned> status;       ///< none when every try failed
  std::optional<std::string> next_url;  ///< absolute redirect target
  std::optional<std::string> error;     ///< "connection reset", "redirect limit reached"...
  std::optional<std::string> failure;   ///< kind of failure when status is none: "reset"...
  int tries = 0;
  std::uint64_t size = 0;                   ///< body bytes
  std::optional<std::string> content_type;  ///< media type without parameters
  std::optional<std::string> encoding;      ///< charset; "utf-8" by default for HTML and XML
  std::size_t num_urls = 0;                 ///< distinct in-scope links on the page
  std::size_t num_new_urls = 0;             ///< of those, not seen before this page
  std::optional<std::string> referrer;      ///< first page that linked here; none for roots
};

/// The statuses the crawler follows as redirects: 300, 301, 302, 303, 307 and 308.
bool is_redirect_status(unsigned status);

/// Broken: status >= 400 (but 429), every try failed, or a redirect that could not be
/// followed (its chain hit the limit, or it had no Location). A page over max_body keeps its
/// status and the error "body too large", and is not broken.
bool is_broken(const fetch_record& r);

/// Rate limited: still answering 429 Too Many Requests after every try.
bool is_rate_limited(const fetch_record& r);

/// A broken URL and every fetched page that links (or redirects) to it.
struct broken_link {
  std::string url;
  std::optional<unsigned> status;
  std::optional<std::string> error;
  std::vector<std::string> referrers;  ///< sorted
};

}  // namespace corocrawl
