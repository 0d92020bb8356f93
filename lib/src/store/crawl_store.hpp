#pragma once
// What a crawl knows about each URL it has seen, in compact tables: the URL stored once and
// known by number, the first page linking to it, the pages linking to it while it may still
// turn out broken, and its record once fetched, with repeated strings (content types,
// errors) stored once. It is the record_source of the crawl's result, so the result shares
// the tables instead of copying them.

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "corocrawl/crawl.hpp"
#include "corocrawl/record.hpp"
#include "store/referrer_lists.hpp"
#include "store/url_table.hpp"

namespace corocrawl {

class crawl_store final : public record_source {
 public:
  using url_id = url_table::id;

  /// The id of `url`, if it was added.
  std::optional<url_id> find(std::string_view url) const { return urls_.find(url); }
  std::string_view url(url_id id) const { return urls_[id]; }

  /// Adds a URL not seen before, `depth` link hops from a root; `referrer`, the page that
  /// first linked to it, also starts its list of referrers.
  url_id add_url(std::string_view url, std::optional<url_id> referrer, int depth = 0);

  /// How many link hops from a root `id` is, by the shortest path noted so far.
  int depth(url_id id) const { return entries_[id].depth; }
  /// Notes a path of `depth` hops to `id`: its depth becomes the smaller of the two.
  void note_depth(url_id id, int depth);

  /// Marks `id` as not to be fetched, for `reason` (a trap rule).
  void skip(url_id id, std::string_view reason);

  /// Notes that page `from` links to `to`: kept while `to` may still turn out broken, that
  /// is until it is finished without keep_referrers.
  void note_link(url_id from, url_id to);

  /// Stores the record of `id` (`record.url` and `record.referrer` are not read: the store
  /// knows them). With `keep_referrers` the list of pages linking to `id` is kept for the
  /// report, else it goes.
  void finish(url_id id, const fetch_record& record, bool keep_referrers);

  /// The distinct pages linking to `id`, sorted.
  std::vector<std::string> referrers(url_id id) const;
  /// True when the redirects recorded from `start` on reach `goal` (`start` itself counts)
  /// within `max_hops`: a redirect from `goal` to `start` closes a loop.
  bool redirects_reach(url_id start, url_id goal, int max_hops) const;

  /// Orders the records by URL; call once every record is in, before reading them.
  void sort_by_url();

  /// The record of finished URL `id`.
  fetch_record record(url_id id) const;

  /// The finished URLs that kept their referrers, by URL (after sort_by_url()).
  std::vector<url_id> keeping_referrers() const;

  /// The URLs neither finished nor skipped (after a stop, or beyond max_urls), by URL.
  std::vector<unchecked_url> unchecked() const;
  /// The skipped URLs, by URL, with why each was skipped.
  std::vector<skipped_url> skipped() const;

  /// The records of the finished URLs, by URL (after sort_by_url()).
  std::size_t size() const override { return order_.size(); }
  fetch_record at(std::size_t index) const override;

 private:
  static constexpr std::uint32_t kNone = 0xffff'ffff;
  static constexpr int kMaxDepth = 0xffff;  // deeper paths count as this deep
  // 44 bytes: a million URLs' entries take 44 MB.
  struct entry {
    url_id referrer = kNone;
    referrer_lists::handle referrers = referrer_lists::kEmpty;
    std::uint32_t size_low = 0;   // the body size in two halves, so that the entry needs
    std::uint32_t size_high = 0;  // only 4-byte alignment
    std::uint32_t num_urls = 0;
    std::uint32_t num_new_urls = 0;
    std::uint16_t tries = 0;
    std::uint16_t depth = 0;
    std::uint16_t status = 0;  // 0: none
    bool finished = false;
    bool keeps_referrers = false;
    // Indexes into labels_ (or kNone), and into kinds_ (set when finished). A skipped URL has
    // its reason as its error.
    std::uint32_t next_url = kNone;
    std::uint32_t error = kNone;
    std::uint32_t kind = kNone;
  };
  // A record's content type and encoding (labels) and failure (its fetch_failure value or
  // kNone): they take few distinct values together, each stored once.
  using record_kind = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;

  std::uint32_t label(const std::optional<std::string>& text);
  std::optional<std::string> text(std::uint32_t label) const;
  static std::optional<fetch_failure> failure_of(std::uint32_t kind);
  std::uint32_t kind_of(const fetch_record& record);
  bool is_skipped(const entry& e) const { return !e.finished && e.error != kNone; }
  std::vector<url_id> sorted_by_url(std::vector<url_id> ids) const;
  std::optional<std::string> first_referrer(url_id id) const;

  url_table urls_;
  std::deque<entry> entries_;  // by url_id
  referrer_lists referrer_lists_;
  std::vector<url_id> order_;  // the finished URLs, by URL
  std::vector<record_kind> kinds_;
  std::map<record_kind, std::uint32_t> kind_ids_;
  std::deque<std::string> labels_;
  std::unordered_map<std::string_view, std::uint32_t> label_ids_;  // views into labels_
};

}  // namespace corocrawl
