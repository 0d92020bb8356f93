#pragma once
// What a crawl knows about each URL it has seen, in compact tables: the URL stored once and
// known by number, the first page linking to it, where pages link to it while it may still
// turn out broken, and its record once fetched, with repeated strings (content types,
// errors) stored once. It is the record_source of the crawl's result, so the result shares
// the tables instead of copying them.

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "corocrawl/crawl.hpp"
#include "corocrawl/record.hpp"
#include "store/fragment_checks.hpp"
#include "store/place_lists.hpp"
#include "store/spilled_table.hpp"
#include "store/stored_source.hpp"
#include "store/table_memory.hpp"
#include "store/url_table.hpp"
#include "text/text_hashes.hpp"

namespace corocrawl {

/// What a finished URL's record means for the crawl.
enum class verdict : std::uint8_t { ok, warning, broken, rate_limited };

/// Where a page references a URL, as the crawler notes it.
struct source_at {
  url_table::id page;
  std::string_view element;
  std::string_view attribute;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

class crawl_store final : public record_source {
 public:
  using url_id = url_table::id;

  /// Once the lists of places hold this much, places are logged for the crawl's end instead
  /// (see places_log_): a million URLs' places took 74 MB midway.
  static constexpr std::size_t kLogPlacesFrom = std::size_t{8} << 20;

  /// A store whose lists of places hold up to `log_places_from` bytes.
  explicit crawl_store(std::size_t log_places_from = kLogPlacesFrom);

  /// The id of `url`, if it was added; before sort_by_url(), which drops the index of the
  /// URLs' text.
  std::optional<url_id> find(std::string_view url) const { return urls_.find(url); }
  /// The same, for `h` the hash() of `url`.
  std::optional<url_id> find(std::string_view url, std::size_t h) const {
    return urls_.find(url, h);
  }
  /// The hash find() looks `url` up by: url_hash(url).
  static std::size_t hash(std::string_view url) { return url_table::hash(url); }
  /// Starts reading, several at a time, what finding the URLs of hashes `hashes` (hash())
  /// and noting links and sources to them will read.
  void prefetch(std::span<const std::size_t> hashes);
  /// The URL of `id`, as its origin and the rest (url_table).
  split_text url(url_id id) const { return urls_[id]; }
  /// How many URLs were added: the next one's id.
  std::size_t size_seen() const { return entries_.size(); }

  /// Adds a URL not seen before, `depth` link hops from a root; `referrer`, the page that
  /// first linked to it, is also the first of its referrers.
  url_id add_url(std::string_view url, std::optional<url_id> referrer, int depth = 0);

  /// How many link hops from a root `id` is, by the shortest path noted so far.
  int depth(url_id id) const { return entries_[id].depth; }
  /// Notes a path of `depth` hops to `id`: its depth becomes the smaller of the two.
  void note_depth(url_id id, int depth);

  /// Marks `id` as not to be fetched, for `reason` (a trap rule, "robots.txt"); its referrers
  /// and sources are kept for the report.
  void skip(url_id id, std::string_view reason);

  /// Leaves `id` unchecked, for `reason` (its origin's robots.txt could not be read).
  void hold(url_id id, std::string_view reason);
  /// Whether a page other than `id` itself links to it (or redirects to it).
  bool linked(url_id id) const { return entries_[id].linked; }

  /// Marks `id` as outside the crawl's scope: checked, never parsed.
  void mark_external(url_id id) { entries_[id].external = true; }
  bool external(url_id id) const { return entries_[id].external; }
  /// Whether only resources (images, scripts ...) reference `id` so far: then it is checked
  /// with HEAD first. A URL also referenced as a document (a link, a frame, a stylesheet) is
  /// fetched with GET, to be parsed.
  bool resource(url_id id) const { return entries_[id].resource; }
  void mark_resource(url_id id, bool resource) { entries_[id].resource = resource; }

  /// Notes where a page references `to`, and so that the page links to it: kept while `to`
  /// may still turn out broken, that is until it is finished without keeps_referrers. The
  /// pages of its sources are its referrers.
  void note_source(url_id to, const source_at& source) { note_source(to, stored(source)); }
  void note_source(url_id to, const stored_source& source);
  /// Notes that `from` redirects to `to`: a referrer of `to` without a source, kept as
  /// sources are.
  void note_redirect(url_id from, url_id to);
  /// Starts reading what note_fragment() of a fragment of id_hash() `hash` reads, a few
  /// references before it: stage 0, then 1, then 2 (fragment_checks::prefetch()).
  void prefetch_fragment(std::uint32_t hash, int stage) const { fragments_.prefetch(hash, stage); }
  /// Notes that `source` references `fragment` (of id_hash() `hash`) of page `to`: checked
  /// against the ids of the page `to` leads to, at once if it is parsed already, else when
  /// the crawl ends (sort_by_url()).
  void note_fragment(url_id to, std::string_view fragment, std::uint32_t hash,
                     const stored_source& source);
  /// The same, hashing `fragment` here.
  void note_fragment(url_id to, std::string_view fragment, const source_at& source) {
    note_fragment(to, fragment, id_hash(fragment), stored(source));
  }
  /// The number stored_source::tag gives (element, attribute): a page names few pairs, and
  /// looks each up once.
  std::uint32_t tag_id(std::string_view element, std::string_view attribute);

  /// HTML page `id`, parsed completely, has ids of `hashes` (id_hashes()): the fragments
  /// pointing into it are checked against them from now on. Once a page, before finish().
  void note_anchors(url_id id, std::span<const std::uint32_t> hashes);

  /// Stores the record of `id` (`record.url` and `record.referrer` are not read: the store
  /// knows them) and what it means. Unless it is ok, the pages linking to `id` and their
  /// sources are kept for the report, else they go. The fragments pointing into a page
  /// without anchors (note_anchors) are checked where its redirects lead, or not at all.
  void finish(url_id id, const fetch_record& record, verdict meaning);

  /// The distinct pages linking or redirecting to `id`, sorted. All of them after
  /// sort_by_url(); before, places logged for the end are not among them.
  std::vector<std::string> referrers(url_id id) const;
  /// Where pages reference `id`, sorted by page, line and column; as referrers().
  std::vector<link_source> sources(url_id id) const;
  /// True when the redirects recorded from `start` on reach `goal` (`start` itself counts)
  /// within `max_hops`: a redirect from `goal` to `start` closes a loop.
  bool redirects_reach(url_id start, url_id goal, int max_hops) const;

  /// Checks the fragments kept for the crawl's end, then orders the records, and the missing
  /// fragments, by URL; call once every record is in, before reading them. From then on only
  /// the problems and skipped URLs keep their referrers and sources, and fragments are no
  /// longer checked.
  void sort_by_url();

  /// The record of finished URL `id`.
  fetch_record record(url_id id) const;

  /// What the record of finished URL `id` means.
  verdict meaning(url_id id) const { return static_cast<verdict>(entries_[id].meaning); }
  /// The broken link entry of finished URL `id`: its record's status and error, referrers
  /// and sources.
  broken_link problem(url_id id) const;
  /// The finished URLs that kept their referrers as `meaning` (not ok), by URL, each built
  /// when it is read; with verdict::broken, the references to a fragment their page lacks are
  /// merged in as broken links (the URL with its fragment, the page's status, "missing
  /// fragment"). After sort_by_url(); the list shares `store`.
  static broken_list problems(std::shared_ptr<const crawl_store> store, verdict meaning);

  /// Starts reading what reading the record at() `index` will read, in `stage` 0-2: each
  /// stage needs what the one before brought (an entry's referrer, where a text is). Reports
  /// read them in order, and at a million URLs each was a few cache misses in turn: asking
  /// 16, 8 and 4 places ahead overlaps them.
  void prefetch_record(std::size_t index, int stage) const;

  /// The URLs neither finished nor skipped (after a stop, or beyond max_urls), by URL, each
  /// built when it is read. After sort_by_url(); the list shares `store`.
  static built_list<unchecked_url> unchecked(std::shared_ptr<const crawl_store> store);
  /// The skipped URLs, by URL, with why each was skipped; as unchecked().
  static built_list<skipped_url> skipped(std::shared_ptr<const crawl_store> store);

  /// The memory the lists of places hold.
  std::size_t list_bytes() const { return places_.bytes_held(); }
  /// How many places were logged for the crawl's end, and not taken into lists yet.
  std::size_t places_logged() const { return places_log_.size(); }

  /// How many URLs were finished with `meaning` so far.
  std::size_t finished_as(verdict meaning) const {
    return finished_[static_cast<std::size_t>(meaning)];
  }

  /// The records of the finished URLs, by URL (after sort_by_url()).
  std::size_t size() const override { return order_.size(); }
  void read(std::size_t index, fetch_record& into) const override;

 private:
  class problem_source;
  template <class T, void (crawl_store::*Read)(url_id, T&) const>
  class url_list_source;
  static constexpr std::uint32_t kNone = 0xffff'ffff;
  static constexpr int kMaxDepth = 0xffff;  // deeper paths count as this deep

  // 36 bytes: a million URLs' entries take 36 MB.
  struct entry {
    url_id referrer = kNone;  // the first page linking here
    // Where pages link here, and which redirect here: with `referrer`, its referrers.
    place_lists::handle sources = place_lists::kEmpty;
    // The body's size and the page's link counts, or kLarge and kMany: then they are in
    // large_sizes_ and many_urls_ (few bodies reach 4 GiB, few pages 65,535 links).
    std::uint32_t size = 0;
    std::uint16_t num_urls = 0;
    std::uint16_t num_new_urls = 0;
    std::uint16_t tries = 0;
    std::uint16_t depth = 0;
    std::uint16_t status = 0;  // 0: none
    bool finished : 1 = false;
    bool keeps_referrers : 1 = false;
    bool external : 1 = false;
    bool resource : 1 = false;
    bool head : 1 = false;         // the record is a HEAD's answer
    bool anchors : 1 = false;      // an HTML page parsed completely: fragments are checked
    bool linked : 1 = false;       // another page links or redirects here
    bool held : 1 = false;         // left unchecked for the reason in `error`
    bool cached : 1 = false;       // the record came from the cache
    std::uint8_t meaning : 2 = 0;  // a verdict
    // Indexes into labels_ (or kNone), and into kinds_ (set when finished). A skipped URL has
    // its reason as its error.
    std::uint32_t next_url = kNone;
    std::uint32_t error = kNone;
    std::uint32_t kind = kNone;
  };
  static_assert(sizeof(entry) == 36);
  static constexpr std::uint32_t kLarge = 0xffff'ffff;
  static constexpr std::uint16_t kMany = 0xffff;
  // A record's content type and encoding (labels) and failure (its fetch_failure value or
  // kNone): they take few distinct values together, each stored once.
  using record_kind = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;

  std::uint32_t label(const std::optional<std::string>& text);
  static std::optional<fetch_failure> failure_of(std::uint32_t kind);
  std::uint32_t kind_of(const fetch_record& record);
  bool is_skipped(const entry& e) const { return !e.finished && !e.held && e.error != kNone; }
  // Whether `e` keeps its sources: while it may turn out broken, and once sorted for the
  // reports, only if they read them.
  bool keeps_sources(const entry& e) const {
    if (sorted_) return (e.finished && e.keeps_referrers) || is_skipped(e);
    return !e.finished || e.keeps_referrers;
  }
  std::vector<url_id> sorted_by_url(std::vector<url_id> ids) const;
  // A view of a label's text, none for kNone; the first referrer's URL into `into`.
  std::optional<std::string_view> label_view(std::uint32_t label) const;
  void assign_referrer(url_id id, std::optional<std::string>& into) const;

  stored_source stored(const source_at& source);
  fragment_checks::page_state page_state_of(url_id id) const;
  // The URL finished redirect `id` leads to, if it is one and that URL was seen.
  std::optional<url_id> redirect_target(url_id id) const;
  // Groups the missing fragments' references by page and fragment (fragment_checks), the
  // pages by their text: each group is one broken link.
  void group_missing_fragments();
  // Keeps only the lists the reports read, and compacts their pool, so that what the crawl's
  // pending URLs held (most of a large crawl's memory) goes back.
  void drop_lists_not_reported();
  void compact_lists_if_mostly_free();
  void compact_lists();
  // The problems of one verdict by URL: the URLs', and with verdict::broken the fragment
  // groups merged among them, which fill the places the URLs' leave.
  struct problem_order {
    std::vector<url_id> ids;            // by URL
    std::vector<std::uint32_t> places;  // where each of ids is among all, with groups
    std::size_t size = 0;               // of all
  };
  problem_order problem_items(verdict meaning) const;
  broken_link problem_item(std::uint32_t item) const;
  // Reusing into's memory; without `places_too`, a fragment group's sources and referrers
  // are left empty (a broken URL's are few, and read whole).
  void problem_item(std::uint32_t item, broken_link& into, bool places_too = true) const;
  void read_source(const stored_source& source, link_source& into) const;
  // Reads `places` into `into` (its strings reused) in link_source's order: up to 16 sorted
  // as strings, more as numbers ranked by their text.
  void read_in_order(std::span<const stored_source> places, std::vector<link_source>& into) const;
  void read_record(url_id id, fetch_record& into) const;
  void read_unchecked(url_id id, unchecked_url& into) const;
  void read_skipped(url_id id, skipped_url& into) const;

  // A place logged for the crawl's end: the URL referenced and where (a redirect: tag
  // kRedirect, and its page only). 20 bytes, and no list.
  struct logged_place {
    url_id target;
    stored_source source;
  };
  static constexpr std::uint32_t kRedirect = 0xffff'ffff;
  // Keeps a place of `to` (whose entry is `target`) in its list, or logs it.
  void keep_place(url_id to, entry& target, const stored_source& source);
  void list_place(place_lists::handle& list, const stored_source& source);

  url_table urls_;
  table_array<entry> entries_;  // by url_id
  std::unordered_map<url_id, std::uint64_t> large_sizes_;
  std::unordered_map<url_id, std::pair<std::size_t, std::size_t>> many_urls_;
  place_lists places_;
  // Past log_places_from_ bytes of lists, places are appended here instead, spilled to a
  // file, and sort_by_url() takes into lists only those of the URLs the reports read: the
  // places of the URLs not fetched yet peak midway through a large crawl (2.3 million blocks
  // at a million URLs), and most of them are dropped as their URL turns out fine.
  std::size_t log_places_from_;
  bool logging_places_ = false;
  spilled_table<logged_place> places_log_{"the places of links to URLs not fetched yet", 0};
  bool sorted_ = false;  // by sort_by_url()
  // The finished redirects' targets by id, noted by sort_by_url() as it drops the index of
  // the URLs' text; until then they are looked up by their text.
  struct redirect {
    url_id from;
    url_id to;
  };
  std::vector<redirect> redirects_;  // by `from`
  bool redirects_noted_ = false;
  // The (element, attribute) pairs of the sources, each stored once.
  std::vector<std::pair<std::string, std::string>> tags_;
  std::unordered_map<std::string, std::uint32_t> tag_ids_;  // "element\x1fattribute"
  std::string tag_key_;                                     // tag_id()'s scratch
  std::vector<url_id> prefetch_ids_;                        // prefetch()'s scratch
  fragment_checks fragments_;
  std::vector<url_id> order_;              // the finished URLs, by URL
  std::array<std::size_t, 4> finished_{};  // by verdict
  std::vector<record_kind> kinds_;
  std::map<record_kind, std::uint32_t> kind_ids_;
  std::deque<std::string> labels_;
  std::unordered_map<std::string_view, std::uint32_t> label_ids_;  // views into labels_
};

}  // namespace corocrawl
