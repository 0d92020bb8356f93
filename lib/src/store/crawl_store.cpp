#include "store/crawl_store.hpp"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <utility>

namespace corocrawl {

static_assert(sizeof(crawl_store::url_id) == 4);

crawl_store::url_id crawl_store::add_url(std::string_view url, std::optional<url_id> referrer,
                                         int depth) {
  const url_id id = urls_.add(url);
  auto& added = entries_.emplace_back();
  added.depth = static_cast<std::uint16_t>(std::clamp(depth, 0, kMaxDepth));
  if (referrer) {
    added.linked = *referrer != id;
    added.referrer = *referrer;
    referrer_lists_.add(added.referrers, *referrer);
  }
  return id;
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

void crawl_store::note_link(url_id from, url_id to) {
  auto& target = entries_[to];
  target.linked = target.linked || from != to;
  if (!target.finished || target.keeps_referrers) referrer_lists_.add(target.referrers, from);
}

void crawl_store::note_source(url_id to, const source_at& source) {
  auto& target = entries_[to];
  if (!target.finished || target.keeps_referrers) source_lists_.add(target.sources, stored(source));
}

void crawl_store::note_fragment(url_id to, std::string_view fragment, const source_at& source) {
  if (fragment_checks::always_present(fragment)) return;
  fragments_.note(to, fragment, stored(source), page_state_of(to));
}

void crawl_store::finish(url_id id, const fetch_record& record, verdict meaning,
                         std::optional<std::span<const std::string>> anchors) {
  auto& done = entries_[id];
  done.finished = true;
  ++finished_[static_cast<std::size_t>(meaning)];
  done.meaning = static_cast<std::uint8_t>(meaning);
  done.keeps_referrers = meaning != verdict::ok;
  if (!done.keeps_referrers) {
    referrer_lists_.clear(done.referrers);
    source_lists_.clear(done.sources);
  }
  done.head = record.method == "HEAD";
  done.cached = record.cached;
  done.size_low = static_cast<std::uint32_t>(record.size);
  done.size_high = static_cast<std::uint32_t>(record.size >> 32);
  done.num_urls = static_cast<std::uint32_t>(record.num_urls);
  done.num_new_urls = static_cast<std::uint32_t>(record.num_new_urls);
  done.tries = static_cast<std::uint16_t>(std::clamp(record.tries, 0, 0xffff));
  done.status = static_cast<std::uint16_t>(record.status.value_or(0));
  done.next_url = label(record.next_url);
  done.error = label(record.error);
  done.kind = kind_of(record);
  done.anchors = anchors.has_value();
  if (anchors) {
    fragments_.page_parsed(id, *anchors);
  } else {
    fragments_.page_done(id, [this](url_id url) { return page_state_of(url); });
  }
}

// Where `id`'s redirects end, and what is known of that page's ids.
fragment_checks::page_state crawl_store::page_state_of(url_id id) const {
  using state = fragment_checks::page_state;
  constexpr int kMaxHops = 64;  // a redirect chain the crawl would not follow anyway
  for (int hop = 0; hop < kMaxHops; ++hop) {
    const auto& e = entries_[id];
    if (!e.finished) return {is_skipped(e) ? state::unchecked : state::not_yet, id};
    if (e.anchors) return {state::anchors, id};
    const auto next =
        e.next_url != kNone && e.error == kNone ? find(labels_[e.next_url]) : std::nullopt;
    if (!next) return {state::unchecked, id};
    id = *next;
  }
  return {state::unchecked, id};
}

stored_source crawl_store::stored(const source_at& source) {
  // Pages name few (element, attribute) pairs: each is looked up by one key, built in place.
  tag_key_.assign(source.element).push_back('\x1f');
  tag_key_.append(source.attribute);
  auto it = tag_ids_.find(tag_key_);
  if (it == tag_ids_.end()) {
    it = tag_ids_.emplace(tag_key_, static_cast<std::uint32_t>(tags_.size())).first;
    tags_.emplace_back(source.element, source.attribute);
  }
  return {.page = source.page, .line = source.line, .column = source.column, .tag = it->second};
}

link_source crawl_store::source_of(const stored_source& source) const {
  const auto& [element, attribute] = tags_[source.tag];
  return {.page = std::string(urls_[source.page]),
          .element = element,
          .attribute = attribute,
          .line = source.line,
          .column = source.column};
}

std::vector<link_source> crawl_store::sources(url_id id) const {
  std::vector<link_source> all;
  for (const stored_source& source : source_lists_.entries(entries_[id].sources))
    all.push_back(source_of(source));
  std::ranges::sort(all);
  return all;
}

broken_link crawl_store::problem(url_id id) const {
  const auto& e = entries_[id];
  broken_link link{.url = std::string(urls_[id]),
                   .error = text(e.error),
                   .referrers = referrers(id),
                   .sources = sources(id),
                   .external = e.external};
  if (e.status != 0) link.status = e.status;
  return link;
}

std::vector<broken_link> crawl_store::with_missing_fragments(
    std::vector<broken_link> broken) const {
  const auto& all = fragments_.missing_fragments();
  if (all.empty()) return broken;
  // The references grouped by URL and fragment; a group is one broken link.
  std::vector<std::uint32_t> order(all.size());
  std::iota(order.begin(), order.end(), 0u);
  std::ranges::sort(order, {}, [&all](std::uint32_t i) {
    return std::pair{all[i].target, all[i].fragment};
  });
  std::vector<std::size_t> starts;  // of the groups in `order`, and its end
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto& here = all[order[k]];
    if (k == 0 || here.target != all[order[k - 1]].target ||
        here.fragment != all[order[k - 1]].fragment)
      starts.push_back(k);
  }
  starts.push_back(order.size());
  std::vector<broken_link> links;
  links.reserve(starts.size() - 1 + broken.size());
  for (std::size_t group = 0; group + 1 < starts.size(); ++group) {
    const std::size_t begin = starts[group];
    const std::size_t end = starts[group + 1];
    const auto& first = all[order[begin]];
    auto& link = links.emplace_back();
    link.url = std::string(urls_[first.target]) + "#" + std::string(first.fragment);
    const auto page = page_state_of(first.target).page;
    if (entries_[page].status != 0) link.status = entries_[page].status;
    link.error = "missing fragment";
    link.sources.reserve(end - begin);
    for (std::size_t k = begin; k < end; ++k)
      link.sources.push_back(source_of(all[order[k]].source));
    std::ranges::sort(link.sources);
    for (const auto& source : link.sources) {
      if (link.referrers.empty() || link.referrers.back() != source.page)
        link.referrers.push_back(source.page);
    }
  }
  std::ranges::sort(links, {}, &broken_link::url);
  // Millions of them are most of a result: the few others are merged into their vector, which
  // has room for them, from the back (a second vector of them all took 300 MB more at a
  // million URLs). "page#frag" sorts right after "page".
  std::size_t from_missing = links.size();
  std::size_t from_broken = broken.size();
  links.resize(from_missing + from_broken);
  for (std::size_t to = links.size(); from_broken > 0;) {
    const bool missing_last =
        from_missing > 0 && !(links[from_missing - 1].url < broken[from_broken - 1].url);
    links[--to] =
        missing_last ? std::move(links[--from_missing]) : std::move(broken[--from_broken]);
  }
  return links;
}

std::vector<std::string> crawl_store::referrers(url_id id) const {
  std::vector<std::string> pages;
  for (const url_id page : referrer_lists_.ids(entries_[id].referrers))
    pages.emplace_back(urls_[page]);
  std::ranges::sort(pages);
  pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
  return pages;
}

std::optional<std::string> crawl_store::first_referrer(url_id id) const {
  if (entries_[id].referrer == kNone) return std::nullopt;
  return std::string(urls_[entries_[id].referrer]);
}

bool crawl_store::redirects_reach(url_id start, url_id goal, int max_hops) const {
  std::optional<url_id> at = start;
  for (int hop = 0; at && hop <= max_hops; ++hop) {
    if (*at == goal) return true;
    const auto& e = entries_[*at];
    at = e.finished && e.next_url != kNone ? find(labels_[e.next_url]) : std::nullopt;
  }
  return false;
}

void crawl_store::sort_by_url() {
  order_.clear();
  for (url_id id = 0; id < entries_.size(); ++id) {
    if (entries_[id].finished) order_.push_back(id);
  }
  order_ = sorted_by_url(std::move(order_));
}

fetch_record crawl_store::at(std::size_t index) const {
  return record(order_[index]);
}

fetch_record crawl_store::record(url_id id) const {
  const auto& e = entries_[id];
  const auto [content_type, encoding, failure] = kinds_[e.kind];
  fetch_record record{.url = std::string(urls_[id]),
                      .next_url = text(e.next_url),
                      .error = text(e.error),
                      .failure = failure_of(failure),
                      .tries = e.tries,
                      .size = (std::uint64_t{e.size_high} << 32) | e.size_low,
                      .content_type = text(content_type),
                      .encoding = text(encoding),
                      .num_urls = e.num_urls,
                      .num_new_urls = e.num_new_urls,
                      .external = e.external,
                      .method = e.head ? "HEAD" : "GET",
                      .cached = e.cached};
  if (e.status != 0) record.status = e.status;
  if (e.referrer != kNone) record.referrer = std::string(urls_[e.referrer]);
  return record;
}

std::vector<crawl_store::url_id> crawl_store::keeping_referrers() const {
  std::vector<url_id> kept;
  std::ranges::copy_if(order_, std::back_inserter(kept),
                       [this](url_id id) { return entries_[id].keeps_referrers; });
  return kept;
}

std::vector<unchecked_url> crawl_store::unchecked() const {
  std::vector<url_id> ids;
  for (url_id id = 0; id < entries_.size(); ++id) {
    if (!entries_[id].finished && !is_skipped(entries_[id])) ids.push_back(id);
  }
  std::vector<unchecked_url> unchecked;
  for (const url_id id : sorted_by_url(std::move(ids))) {
    unchecked.push_back({.url = std::string(urls_[id]),
                         .referrer = first_referrer(id),
                         .reason = entries_[id].held ? text(entries_[id].error) : std::nullopt});
  }
  return unchecked;
}

std::vector<skipped_url> crawl_store::skipped() const {
  std::vector<url_id> ids;
  for (url_id id = 0; id < entries_.size(); ++id) {
    if (is_skipped(entries_[id])) ids.push_back(id);
  }
  std::vector<skipped_url> skipped;
  for (const url_id id : sorted_by_url(std::move(ids))) {
    skipped.push_back({.url = std::string(urls_[id]),
                       .reason = labels_[entries_[id].error],
                       .referrer = first_referrer(id),
                       .referrers = referrers(id),
                       .sources = sources(id)});
  }
  return skipped;
}

std::vector<crawl_store::url_id> crawl_store::sorted_by_url(std::vector<url_id> ids) const {
  std::ranges::sort(ids, {}, [this](url_id id) { return urls_[id]; });
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

std::optional<std::string> crawl_store::text(std::uint32_t label) const {
  if (label == kNone) return std::nullopt;
  return labels_[label];
}

}  // namespace corocrawl
