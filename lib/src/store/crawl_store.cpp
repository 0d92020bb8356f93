#include "store/crawl_store.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "store/url_order.hpp"
#include "sys/free_memory.hpp"

namespace corocrawl {

crawl_store::crawl_store(std::size_t log_places_from) : log_places_from_(log_places_from) {}

static_assert(sizeof(crawl_store::url_id) == 4);

crawl_store::url_id crawl_store::add_url(std::string_view url, std::optional<url_id> referrer,
                                         int depth) {
  const url_id id = urls_.add(url);
  auto& added = entries_.emplace_back();
  added.depth = static_cast<std::uint16_t>(std::clamp(depth, 0, kMaxDepth));
  if (referrer) {
    added.linked = *referrer != id;
    added.referrer = *referrer;
  }
  return id;
}

void crawl_store::prefetch(std::span<const std::size_t> hashes) {
  for (const std::size_t h : hashes)
    urls_.prefetch_slot(h);
  prefetch_ids_.clear();
  for (const std::size_t h : hashes) {
    const auto id = urls_.likely(h);
    if (!id) continue;
    prefetch_ids_.push_back(*id);
    urls_.prefetch_ref(*id);
    __builtin_prefetch(&entries_[*id]);
  }
  for (const url_id id : prefetch_ids_) {
    urls_.prefetch_text(id);
    if (!logging_places_) places_.prefetch(entries_[id].sources);
  }
}

void crawl_store::note_depth(url_id id, int depth) {
  auto& e = entries_[id];
  e.depth = static_cast<std::uint16_t>(std::min<int>(e.depth, std::clamp(depth, 0, kMaxDepth)));
}

void crawl_store::skip(url_id id, std::string_view reason) {
  entries_[id].error = label(std::string(reason));
}

void crawl_store::hold(url_id id, std::string_view reason) {
  entries_[id].held = true;
  entries_[id].error = label(std::string(reason));
}

void crawl_store::note_source(url_id to, const stored_source& source) {
  auto& target = entries_[to];
  target.linked = target.linked || source.page != to;
  if (keeps_sources(target)) keep_place(to, target, source);
}

void crawl_store::note_redirect(url_id from, url_id to) {
  auto& target = entries_[to];
  target.linked = target.linked || from != to;
  if (keeps_sources(target)) keep_place(to, target, {.page = from, .tag = kRedirect});
}

void crawl_store::keep_place(url_id to, entry& target, const stored_source& source) {
  if (!logging_places_ && places_.bytes_held() > log_places_from_) logging_places_ = true;
  if (logging_places_) {
    places_log_.push_back({to, source});
  } else {
    list_place(target.sources, source);
  }
}

void crawl_store::list_place(place_lists::handle& list, const stored_source& source) {
  if (source.tag == kRedirect) {
    places_.add_redirect(list, source.page);
  } else {
    places_.add(list, source);
  }
}

void crawl_store::note_fragment(url_id to, std::string_view fragment, std::uint32_t hash,
                                const stored_source& source) {
  if (fragment_checks::always_present(fragment)) return;
  fragments_.note(to, fragment, hash, source, page_state_of(to));
}

void crawl_store::finish(url_id id, const fetch_record& record, verdict meaning) {
  auto& done = entries_[id];
  done.finished = true;
  ++finished_[static_cast<std::size_t>(meaning)];
  done.meaning = static_cast<std::uint8_t>(meaning);
  done.keeps_referrers = meaning != verdict::ok;
  if (!done.keeps_referrers) {
    places_.clear(done.sources);
    compact_lists_if_mostly_free();
  }
  done.head = record.method == "HEAD";
  done.cached = record.cached;
  if (record.size < kLarge) {
    done.size = static_cast<std::uint32_t>(record.size);
  } else {
    done.size = kLarge;
    large_sizes_[id] = record.size;
  }
  if (record.num_urls < kMany && record.num_new_urls < kMany) {
    done.num_urls = static_cast<std::uint16_t>(record.num_urls);
    done.num_new_urls = static_cast<std::uint16_t>(record.num_new_urls);
  } else {
    done.num_urls = kMany;
    many_urls_[id] = {record.num_urls, record.num_new_urls};
  }
  done.tries = static_cast<std::uint16_t>(std::clamp(record.tries, 0, 0xffff));
  done.status = static_cast<std::uint16_t>(record.status.value_or(0));
  done.next_url = label(record.next_url);
  done.error = label(record.error);
  done.kind = kind_of(record);
}

void crawl_store::note_anchors(url_id id, std::span<const std::uint32_t> hashes) {
  entries_[id].anchors = true;
  fragments_.page_parsed(id, hashes);
}

// Where `id`'s redirects end, and what is known of that page's ids.
fragment_checks::page_state crawl_store::page_state_of(url_id id) const {
  using state = fragment_checks::page_state;
  constexpr int kMaxHops = 64;  // a redirect chain the crawl would not follow anyway
  for (int hop = 0; hop < kMaxHops; ++hop) {
    const auto& e = entries_[id];
    if (e.anchors) return {state::anchors, id};  // its ids came before its record
    if (!e.finished) return {is_skipped(e) ? state::unchecked : state::not_yet, id};
    const auto next = e.error == kNone ? redirect_target(id) : std::nullopt;
    if (!next) return {state::unchecked, id};
    id = *next;
  }
  return {state::unchecked, id};
}

stored_source crawl_store::stored(const source_at& source) {
  return {.page = source.page,
          .line = source.line,
          .column = source.column,
          .tag = tag_id(source.element, source.attribute)};
}

std::uint32_t crawl_store::tag_id(std::string_view element, std::string_view attribute) {
  // Looked up by one key, built in place.
  tag_key_.assign(element).push_back('\x1f');
  tag_key_.append(attribute);
  auto it = tag_ids_.find(tag_key_);
  if (it == tag_ids_.end()) {
    it = tag_ids_.emplace(tag_key_, static_cast<std::uint32_t>(tags_.size())).first;
    tags_.emplace_back(element, attribute);
  }
  return it->second;
}

std::optional<std::string_view> crawl_store::label_view(std::uint32_t label) const {
  if (label == kNone) return std::nullopt;
  return labels_[label];
}

void crawl_store::assign_referrer(url_id id, std::optional<std::string>& into) const {
  if (entries_[id].referrer == kNone) {
    into.reset();
    return;
  }
  urls_[entries_[id].referrer].assign_to(into ? *into : into.emplace());
}

bool crawl_store::redirects_reach(url_id start, url_id goal, int max_hops) const {
  std::optional<url_id> at = start;
  for (int hop = 0; at && hop <= max_hops; ++hop) {
    if (*at == goal) return true;
    at = redirect_target(*at);
  }
  return false;
}

std::optional<crawl_store::url_id> crawl_store::redirect_target(url_id id) const {
  const entry& e = entries_[id];
  if (!e.finished || e.next_url == kNone) return std::nullopt;
  if (!redirects_noted_) return find(labels_[e.next_url]);
  const auto found = std::ranges::lower_bound(redirects_, id, {}, &redirect::from);
  if (found == redirects_.end() || found->from != id) return std::nullopt;
  return found->to;
}

void crawl_store::sort_by_url() {
  sorted_ = true;
  drop_lists_not_reported();
  // What the crawl freed goes back before each step that allocates: else the steps' vectors
  // come from new pages, and add to the crawl's peak.
  give_back_much_freed_memory();
  fragments_.end_checks([this](url_id url) { return page_state_of(url); });
  // The index of the URLs' text goes (16 MiB at a million URLs): from here on URLs are known
  // by id, and the redirects' targets, looked up by their text until now, are noted by id.
  for (url_id id = 0; id < entries_.size(); ++id) {
    if (const auto to = redirect_target(id)) redirects_.push_back({id, *to});
  }
  urls_.drop_index();
  redirects_noted_ = true;
  give_back_much_freed_memory();
  // One sort after the other: on two threads at once, their orders of a million URLs took
  // 27 MiB together, the peak of the whole crawl, for half a second saved.
  group_missing_fragments();
  order_.clear();
  order_.reserve(std::accumulate(finished_.begin(), finished_.end(), std::size_t{0}));
  for (url_id id = 0; id < entries_.size(); ++id) {
    if (entries_[id].finished) order_.push_back(id);
  }
  order_ = sorted_by_url(std::move(order_));
}

void crawl_store::drop_lists_not_reported() {
  // Which URLs keep their places, a bit each: the log is read in the order places came, and
  // at a million URLs a look at each one's entry would be a cache miss.
  std::vector<bool> keeps(entries_.size());
  for (url_id id = 0; id < entries_.size(); ++id) {
    entry& e = entries_[id];
    keeps[id] = keeps_sources(e);
    if (!keeps[id]) places_.clear(e.sources);
  }
  places_log_.drain([this, &keeps](const logged_place& logged) {
    if (keeps[logged.target]) list_place(entries_[logged.target].sources, logged.source);
  });
  logging_places_ = false;  // and never again: places noted from now on go into lists
  log_places_from_ = std::numeric_limits<std::size_t>::max();
  // The walk over every list is paid for by the memory it gives back, when there is much.
  if (places_.bytes_held() - places_.bytes_used() >= kWorthGivingBack) compact_lists();
}

void crawl_store::compact_lists_if_mostly_free() {
  // A large crawl's lists peak midway, when most URLs found wait to be fetched, and the pool
  // would keep that peak to the end.
  if (places_.mostly_free()) compact_lists();
}

void crawl_store::compact_lists() {
  places_.compact([this](const auto& move_list) {
    for (url_id id = 0; id < entries_.size(); ++id)
      move_list(entries_[id].sources);
  });
}

void crawl_store::read(std::size_t index, fetch_record& into) const {
  for (int stage = 0; stage < 3; ++stage) {
    const std::size_t ahead = index + (std::size_t{16} >> stage);
    if (ahead < order_.size()) prefetch_record(ahead, stage);
  }
  read_record(order_[index], into);
}

void crawl_store::prefetch_record(std::size_t index, int stage) const {
  const url_id id = order_[index];
  switch (stage) {
    case 0:
      urls_.prefetch_ref(id);
      __builtin_prefetch(&entries_[id]);
      break;
    case 1:
      urls_.prefetch_text(id);
      if (entries_[id].referrer != kNone) urls_.prefetch_ref(entries_[id].referrer);
      break;
    default:
      if (entries_[id].referrer != kNone) urls_.prefetch_text(entries_[id].referrer);
  }
}

fetch_record crawl_store::record(url_id id) const {
  fetch_record record;
  read_record(id, record);
  return record;
}

namespace {

// `to` as `text`, or empty without it, in the memory `to` has.
void assign(std::optional<std::string>& to, std::optional<std::string_view> text) {
  if (!text) {
    to.reset();
  } else if (to) {
    to->assign(*text);
  } else {
    to.emplace(*text);
  }
}

}  // namespace

// Built into `into`'s own strings, as read_unchecked() and read_skipped(): a report reads
// every record of a crawl, and a large crawl stopped midway leaves most URLs unchecked.
void crawl_store::read_record(url_id id, fetch_record& into) const {
  const auto& e = entries_[id];
  const auto [content_type, encoding, failure] = kinds_[e.kind];
  urls_[id].assign_to(into.url);
  into.status.reset();
  if (e.status != 0) into.status = e.status;
  assign(into.next_url, label_view(e.next_url));
  assign(into.error, label_view(e.error));
  into.failure = failure_of(failure);
  into.tries = e.tries;
  into.size = e.size != kLarge ? e.size : large_sizes_.at(id);
  assign(into.content_type, label_view(content_type));
  assign(into.encoding, label_view(encoding));
  if (e.num_urls != kMany) {
    into.num_urls = e.num_urls;
    into.num_new_urls = e.num_new_urls;
  } else {
    std::tie(into.num_urls, into.num_new_urls) = many_urls_.at(id);
  }
  assign_referrer(id, into.referrer);
  into.external = e.external;
  into.method.assign(e.head ? "HEAD" : "GET");
  into.cached = e.cached;
}

void crawl_store::read_unchecked(url_id id, unchecked_url& into) const {
  urls_[id].assign_to(into.url);
  assign_referrer(id, into.referrer);
  assign(into.reason, entries_[id].held ? label_view(entries_[id].error) : std::nullopt);
}

void crawl_store::read_skipped(url_id id, skipped_url& into) const {
  urls_[id].assign_to(into.url);
  into.reason.assign(labels_[entries_[id].error]);
  assign_referrer(id, into.referrer);
  into.referrers = referrers(id);
  into.sources = sources(id);
}

std::vector<crawl_store::url_id> crawl_store::sorted_by_url(std::vector<url_id> ids) const {
  order_by_text(ids, urls_);
  return ids;
}

std::uint32_t crawl_store::label(const std::optional<std::string>& text) {
  if (!text) return kNone;
  if (const auto it = label_ids_.find(*text); it != label_ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(labels_.size());
  label_ids_.emplace(labels_.emplace_back(*text), id);
  return id;
}

std::uint32_t crawl_store::kind_of(const fetch_record& record) {
  const std::uint32_t failure =
      record.failure ? static_cast<std::uint32_t>(*record.failure) : kNone;
  const record_kind kind{label(record.content_type), label(record.encoding), failure};
  const auto [it, added] = kind_ids_.try_emplace(kind, static_cast<std::uint32_t>(kinds_.size()));
  if (added) kinds_.push_back(kind);
  return it->second;
}

std::optional<fetch_failure> crawl_store::failure_of(std::uint32_t kind) {
  if (kind == kNone) return std::nullopt;
  return static_cast<fetch_failure>(kind);
}

}  // namespace corocrawl
