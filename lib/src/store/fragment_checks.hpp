#pragma once
// The #fragments of links into the crawl's HTML pages, checked against the ids in those
// pages (`id` on any element, `name` on <a>). A page's ids are kept as 32-bit hashes once it
// is parsed; a reference is checked as soon as the page it points into (where its redirects
// end) is known, so only references to pages not fetched yet wait, and only the missing ones
// are kept.

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "store/packed_source.hpp"
#include "store/pooled_lists.hpp"
#include "store/spilled_table.hpp"
#include "store/table_memory.hpp"
#include "store/url_table.hpp"

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

  /// A reference to a fragment of a page: 20 bytes, as millions may be kept.
  struct reference {
    url_id target;           ///< the URL linked to, without its fragment
    std::uint32_t fragment;  ///< see fragment()
    packed_source source;
    bool empty() const { return source.page == stored_source::kNone; }
  };

  /// The missing references are kept in memory up to this many, then spilled to a file: a
  /// million pages' crawl has millions, 60 MB of them.
  static constexpr std::size_t kSpillMissingFrom = (std::size_t{4} << 20) / sizeof(reference);

  explicit fragment_checks(std::size_t spill_missing_from = kSpillMissingFrom)
      : missing_("the references to missing fragments", spill_missing_from) {}

  /// True for the fragments every page has: empty, or "top" (any case).
  static bool always_present(std::string_view fragment);

  /// Notes that `source` links to `fragment` (of id_hash() `hash`) of `target`; `state` is
  /// what is known of the page `target` leads to.
  void note(url_id target, std::string_view fragment, std::uint32_t hash,
            const stored_source& source, const page_state& state);

  /// `page` is parsed completely, and `hashes` are its ids' (id_hashes()): the references
  /// waiting for it are checked.
  void page_parsed(url_id page, std::span<const std::uint32_t> hashes);

  /// `url` is finished without anchors to check against (not an HTML page, an error, a parse
  /// that did not complete, a redirect): the references waiting for it are looked up again
  /// with `lookup` (a redirect's target may be known now, or later), or dropped.
  void page_done(url_id url, const page_lookup& lookup);

  /// How many references were found missing so far.
  std::size_t missing_count() const { return missing_.size(); }
  /// The references whose fragment was missing, after sort_missing() or end_checks(): in the
  /// order found, or as sort_missing() left them.
  const table_array<reference>& missing_fragments() const { return missing_.in_memory(); }
  /// Reads back the missing references if they were spilled, and orders them by target and
  /// fragment, so that the references to one fragment of one page are together.
  void sort_missing();
  /// No more pages or references come: drops what only checking needs (the pages' id
  /// hashes, the references still waiting for a page), then reads the missing references
  /// back into memory if they were spilled. Throws std::system_error if they cannot be.
  void end_checks();
  /// The text of fragment `id`.
  std::string_view fragment(std::uint32_t id) const { return fragments_[id]; }
  /// Where missing reference `r` is.
  stored_source source(const reference& r) const { return packing_.unpack(r.source); }

 private:
  bool has(url_id page, std::string_view fragment, std::uint32_t hash) const;
  void check(const reference& r, url_id page);
  void wait(url_id page, const reference& r);
  // Calls `visit(reference)` with each reference that waited for `page`: they wait no longer.
  template <class Visit>
  void stop_waiting(url_id page, Visit visit);
  std::uint32_t intern(std::string_view fragment);

  // A parsed page's ids: its hashes are anchor_hashes_[begin, begin + count), sorted.
  struct anchor_span {
    static constexpr std::uint32_t kNone = 0xffff'ffff;
    std::uint32_t begin = kNone;  // kNone: not parsed (or past 2^32 hashes: not checked)
    std::uint32_t count = 0;
  };

  // By url id, 8 bytes a URL, and the hashes back to back: no allocation per page (a map
  // node and a vector a page would cost some 96 bytes more).
  table_array<anchor_span> anchors_;
  table_array<std::uint32_t> anchor_hashes_;
  // The references waiting for each page, a list by its url id, in one pool (about 21 bytes
  // a reference, nothing a page): midway through a crawl of a million pages they wait for
  // some 400,000 pages. The pool is compacted when half of it is free, so that the memory of
  // that peak goes back rather than stay in the heap.
  using reference_lists = pooled_lists<reference, 3>;
  reference_lists waiting_;
  table_array<reference_lists::handle> waiting_for_;  // by url id
  // The text of the fragments references wait for or miss, each once (a fragment found at
  // once is not kept): a few bytes besides the text, no allocation each.
  url_table fragments_;
  spilled_table<reference> missing_;
  source_packing packing_;  // the places of the references kept, packed only then
};

}  // namespace corocrawl
