#pragma once
// The #fragments of links into the crawl's HTML pages, checked against the ids in those
// pages (`id` on any element, `name` on <a>). A page's ids are kept as 32-bit hashes once it
// is parsed; a reference is checked as soon as the page it points into (where its redirects
// end) is known, so only references to pages not fetched yet wait, and only the missing ones
// are kept.

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/stored_source.hpp"

namespace corocrawl {

class fragment_checks {
 public:
  using url_id = std::uint32_t;

  /// What is known of the page a URL leads to.
  struct page_state {
    enum { not_yet, anchors, unchecked } what = not_yet;
    url_id page = 0;  ///< where the URL's redirects end (the URL itself without redirects)
  };
  /// Tells what is known of the page `url` leads to.
  using page_lookup = std::function<page_state(url_id url)>;

  /// A reference whose fragment the page lacks.
  struct missing {
    url_id target;  ///< the URL linked to, without its fragment
    std::string_view fragment;
    stored_source source;
  };

  /// True for the fragments every page has: empty, or "top" (any case).
  static bool always_present(std::string_view fragment);

  /// Notes that `source` links to `fragment` of `target`; `state` is what is known of the
  /// page `target` leads to.
  void note(url_id target, std::string_view fragment, const stored_source& source,
            const page_state& state);

  /// `page` is parsed completely and has `anchors`: the references waiting for it are checked.
  void page_parsed(url_id page, std::span<const std::string> anchors);

  /// `url` is finished without anchors to check against (not an HTML page, an error, a parse
  /// that did not complete, a redirect): the references waiting for it are looked up again
  /// with `lookup` (a redirect's target may be known now, or later), or dropped.
  void page_done(url_id url, const page_lookup& lookup);

  /// The references whose fragment was missing, in the order found.
  const std::deque<missing>& missing_fragments() const { return missing_; }

 private:
  struct waiting {
    url_id target;
    std::uint32_t fragment;  // index into fragments_
    stored_source source;
  };

  bool has(url_id page, std::string_view fragment) const;
  void check(const waiting& w, url_id page);
  std::uint32_t intern(std::string_view fragment);

  std::unordered_map<url_id, std::vector<std::uint32_t>> anchors_;  // sorted hashes
  std::unordered_map<url_id, std::vector<waiting>> waiting_;        // by the page waited for
  std::deque<std::string> fragments_;
  std::unordered_map<std::string_view, std::uint32_t> fragment_ids_;  // views into fragments_
  std::deque<missing> missing_;
};

}  // namespace corocrawl
