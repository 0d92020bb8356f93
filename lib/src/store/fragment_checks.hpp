#pragma once
// The #fragments of links into the crawl's HTML pages, checked against the ids in those
// pages (`id` on any element, `name` on <a>). A page's ids are kept as 32-bit hashes once it
// is parsed. A reference into a page parsed already (where its URL's redirects end) is
// checked at once; one into a page not parsed yet is kept, and checked when the crawl ends
// against where its URL leads then. Only the missing ones are kept after that. Both kinds
// kept go to temporary files past some megabytes (store/spilled_table): a million pages'
// crawl keeps millions of each, and reads them back only once.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "store/packed_source.hpp"
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
  };

  /// Each kind of reference kept is kept in memory up to this many, then spilled to a file.
  static constexpr std::size_t kSpillFrom = (std::size_t{4} << 20) / sizeof(reference);

  explicit fragment_checks(std::size_t spill_from = kSpillFrom)
      : later_("the references to fragments of pages not parsed yet", spill_from),
        missing_("the references to missing fragments", spill_from) {}

  /// True for the fragments every page has: empty, or "top" (any case).
  static bool always_present(std::string_view fragment);

  /// Notes that `source` links to `fragment` (of id_hash() `hash`) of `target`; `state` is
  /// what is known now of the page `target` leads to.
  void note(url_id target, std::string_view fragment, std::uint32_t hash,
            const stored_source& source, const page_state& state);

  /// `page` is parsed completely, and `hashes` are its ids' (id_hashes()).
  void page_parsed(url_id page, std::span<const std::uint32_t> hashes);

  /// How many references were found missing so far.
  std::size_t missing_count() const { return missing_.size(); }
  /// No more pages or references come: the references kept for later are checked against
  /// the page their URL leads to, as `lookup` tells it now (those that lead to no parsed page
  /// are dropped), then what only checking needs (the pages' id hashes) is dropped, and the
  /// missing references are read back into memory if they were spilled.
  /// Throws std::system_error if a spilled table cannot be read back.
  void end_checks(const page_lookup& lookup);
  /// The references whose fragment was missing, after end_checks(): in no particular order,
  /// or as sort_missing() left them.
  const table_array<reference>& missing_fragments() const { return missing_.in_memory(); }
  /// Orders the missing references by target and fragment, so that the references to one
  /// fragment of one page are together.
  void sort_missing();
  /// The text of fragment `id`.
  std::string_view fragment(std::uint32_t id) const { return fragments_[id]; }
  /// Where missing reference `r` is.
  stored_source source(const reference& r) const { return packing_.unpack(r.source); }

 private:
  bool has(url_id page, std::string_view fragment, std::uint32_t hash) const;
  void check(const reference& r, url_id page);
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
  // The text of the fragments of the references kept, each once (a fragment found at once
  // is not kept): a few bytes besides the text, no allocation each.
  url_table fragments_;
  // The references into pages not parsed when they came, checked by end_checks(): midway
  // through a crawl of a million pages, 2.2 million of them waited for 400,000 pages, 48 MB
  // in lists by page when each was checked as its page came.
  spilled_table<reference> later_;
  spilled_table<reference> missing_;
  source_packing packing_;  // the places of the references kept, packed only then
};

}  // namespace corocrawl
