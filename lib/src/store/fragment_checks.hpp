#pragma once
// The #fragments of links into the crawl's HTML pages, checked against the ids in those
// pages (`id` on any element, `name` on <a>). A page's ids are kept as 32-bit hashes once it
// is parsed. A reference into a page parsed already (where its URL's redirects end) is
// checked at once while that page's ids are in memory; one into a page not parsed yet is
// kept, and checked when the crawl ends against where its URL leads then. Only the missing
// ones are kept after that, and sorted in groups for the reports. What is kept goes to
// temporary files past some megabytes (store/spilled_table), the pages' ids too: a million
// pages' crawl keeps millions of references and ids, and reads them back once or twice, in
// order.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "store/packed_source.hpp"
#include "store/spilled_reader.hpp"
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

  /// Sorts the references in runs of as many, too; the pages' ids spill from as many bytes.
  explicit fragment_checks(std::size_t spill_from = kSpillFrom)
      : ids_("the ids of the pages parsed", spill_from * sizeof(reference) / sizeof(std::uint32_t)),
        later_("the references to fragments of pages not parsed yet",
               spill_from * sizeof(reference) / sizeof(waiting)),
        against_file_("the references to fragments of pages whose ids are in a file", spill_from),
        missing_("the references to missing fragments", spill_from),
        grouped_("the references to missing fragments", spill_from),
        run_(std::max(spill_from, spilled_table<reference>::kBlock)) {}

  /// True for the fragments every page has: empty, or "top" (any case).
  static bool always_present(std::string_view fragment);

  /// Notes that `source` links to `fragment` (of id_hash() `hash`) of `target`; `state` is
  /// what is known now of the page `target` leads to.
  void note(url_id target, std::string_view fragment, std::uint32_t hash,
            const stored_source& source, const page_state& state);

  /// Starts reading where the fragment of id_hash() `hash` is kept, some references before
  /// note() keeps one to it: its slot in the index at stage 0, where its text is at stage 1,
  /// then its text at stage 2.
  void prefetch(std::uint32_t hash, int stage) const;
  /// `page` is parsed completely, and `hashes` are its ids' (id_hashes()).
  void page_parsed(url_id page, std::span<const std::uint32_t> hashes);

  /// How many references were found missing so far (those into pages whose ids are in a
  /// file are checked by end_checks()).
  std::size_t missing_count() const { return missing_.size() + grouped_.size(); }
  /// No more pages or references come: the references kept for later are checked against
  /// the page their URL leads to, as `lookup` tells it now (those that lead to no parsed page
  /// are dropped), those into pages whose ids are in a file against them, read once in order;
  /// then what only checking needs (the pages' ids) is dropped.
  /// Throws std::system_error if a spilled table cannot be read back.
  void end_checks(const page_lookup& lookup);
  /// Orders the pages of `pages` (ids of the targets of missing references, each once) in the
  /// order their groups are to come.
  using page_order = std::function<void(std::vector<url_id>& pages)>;
  /// Orders the missing references as the reports read them, in groups of the references to
  /// one fragment of one page: the pages as `order` orders them, and each page's fragments by
  /// their text. Sorted in runs of a few megabytes, so that a spilled table is not read back
  /// into memory. After end_checks(), once. Throws as end_checks().
  void group_missing(const page_order& order);
  /// How many groups group_missing() made.
  std::size_t group_count() const { return group_starts_.size(); }
  /// How many references group `group` has.
  std::size_t group_size(std::size_t group) const {
    return group_end(group) - group_starts_[group];
  }
  /// Calls `visit(group, first_reference)` for each group, in order, reading the references
  /// once in turn. Throws as end_checks().
  template <class Visit>
  void for_each_group(Visit visit) const {
    std::size_t group = 0;
    std::size_t index = 0;
    grouped_.for_each([&](const reference& r) {
      if (group < group_starts_.size() && group_starts_[group] == index) visit(group++, r);
      ++index;
    });
  }
  /// Calls `visit(reference)` with each reference of group `group`. Safe from several threads
  /// at once: a few blocks of a spilled table are kept for the next groups. Throws as
  /// end_checks().
  template <class Visit>
  void for_each_in_group(std::size_t group, Visit visit) const {
    std::array<reference, 32> chunk;
    for (std::size_t at = group_starts_[group], end = group_end(group); at < end;) {
      const std::size_t count =
          grouped_reader_.read(at, std::span(chunk).first(std::min(chunk.size(), end - at)));
      for (std::size_t k = 0; k < count; ++k)
        visit(static_cast<const reference&>(chunk[k]));
      at += count;
    }
  }
  /// The first reference of group `group` (< group_count()), whose page and fragment are the
  /// group's. Safe from several threads at once, as for_each_in_group(). Throws as
  /// end_checks().
  reference first_in_group(std::size_t group) const {
    std::array<reference, 1> first;
    grouped_reader_.read(group_starts_[group], first);
    return first[0];
  }
  /// The text of fragment `id`.
  std::string_view fragment(std::uint32_t id) const { return fragments_.whole(id); }
  /// Where missing reference `r` is.
  stored_source source(const reference& r) const { return packing_.unpack(r.source); }

 private:
  static constexpr std::uint32_t kNotParsed = 0xffff'ffff;
  // A reference into a page not parsed yet, with its fragment's id_hash(): 24 bytes, so that
  // the crawl's end, which checks all of them at once, reads no fragment's text to hash it.
  struct waiting {
    reference r;
    std::uint32_t hash;
  };
  // A reference into a page whose ids are at ids_[ids_at] in the file: 24 bytes.
  struct check_in_file {
    std::uint32_t ids_at;
    reference r;
  };
  // Where `page`'s ids are in ids_, or kNotParsed.
  std::uint32_t ids_at(url_id page) const {
    return page < anchors_.size() ? anchors_[page] : kNotParsed;
  }
  // The ids at ids_[at], when they are in memory.
  std::optional<std::span<const std::uint32_t>> ids_in_memory(std::uint32_t at);
  // Whether `ids` have the fragment of id_hash() `hash`, whose text `fragment_of()` gives:
  // asked only when the hash is not found, for the fragment percent-decoded.
  template <class Fragment>
  static bool has(std::span<const std::uint32_t> ids, std::uint32_t hash, Fragment fragment_of);
  // Checks a reference to the fragment of id_hash() `hash` (whose text `fragment_of()` gives) of
  // the page `page` against its ids now if they are in memory, else keeps it for
  // check_against_file(); `kept()` makes the reference to keep, missing or waiting.
  template <class Fragment, class Kept>
  void check(url_id page, std::uint32_t hash, Fragment fragment_of, Kept kept);
  void check_against_file();
  std::uint32_t intern(std::string_view fragment, std::uint32_t hash);
  std::size_t group_end(std::size_t group) const {
    return group + 1 < group_starts_.size() ? group_starts_[group + 1] : grouped_.size();
  }

  // The parsed pages' ids, back to back: each page's count, then its hashes, sorted. Where a
  // page's are, by url id: kNotParsed for a page not parsed (or past 2^32 hashes: not
  // checked). 4 bytes a URL and 4 an id, and no allocation per page; past some megabytes the
  // ids go to a file (at a million pages, 7 million ids took 28 MB), and the references into
  // the pages whose ids are there wait for the crawl's end in against_file_.
  table_array<std::uint32_t> anchors_;
  spilled_table<std::uint32_t> ids_;
  std::vector<std::uint32_t> ids_read_;  // a page's ids read from memory in pieces
  // The text of the fragments of the references kept, each once (a fragment found at once
  // is not kept): a few bytes besides the text, no allocation each. Found by the hash the
  // page's parse computed: interning hashed each again (65,712 of the Python docs' links).
  url_table fragments_{url_table::origins::whole, url_table::keys::id};
  // The references into pages not parsed when they came, checked by end_checks(): midway
  // through a crawl of a million pages, 2.2 million of them waited for 400,000 pages, 48 MB
  // in lists by page when each was checked as its page came.
  spilled_table<waiting> later_;
  spilled_table<check_in_file> against_file_;
  spilled_table<reference> missing_;  // as found, until group_missing()
  // After group_missing(): the missing references in groups, and where each group begins.
  spilled_table<reference> grouped_;
  table_array<std::uint32_t> group_starts_;
  std::size_t run_;  // how many references are sorted in memory at a time
  spilled_reader<reference> grouped_reader_{grouped_};  // for the reports' threads
  source_packing packing_;  // the places of the references kept, packed only then
};

}  // namespace corocrawl
