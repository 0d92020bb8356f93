#include "store/fragment_checks.hpp"

#include <algorithm>
#include <boost/url/pct_string_view.hpp>
#include <utility>

#include "store/spilled_sort.hpp"
#include "text/ascii.hpp"
#include "text/text_hashes.hpp"

namespace corocrawl {

bool fragment_checks::always_present(std::string_view fragment) {
  return fragment.empty() || ascii::iequals(fragment, "top");
}

namespace {

// Whether `sorted` (each once) holds `hash`. Branchless: the half kept is chosen by a
// conditional move, as which half it is cannot be foretold; std::binary_search's branches
// were 60% of the checks at the crawl's end.
bool sorted_has(std::span<const std::uint32_t> sorted, std::uint32_t hash) {
  if (sorted.empty()) return false;
  const std::uint32_t* at = sorted.data();  // hash, when there, is in [at, at + n)
  for (std::size_t n = sorted.size(); n > 1;) {
    const std::size_t half = n / 2;
    at = at[half] <= hash ? at + half : at;
    n -= half;
  }
  return *at == hash;
}

}  // namespace

template <class Fragment>
bool fragment_checks::has(std::span<const std::uint32_t> ids, std::uint32_t hash,
                          Fragment fragment_of) {
  if (sorted_has(ids, hash)) return true;
  // As browsers do, the fragment percent-decoded is looked for too.
  const std::string_view fragment = fragment_of();
  if (fragment.find('%') == std::string_view::npos) return false;
  const auto escaped = boost::urls::make_pct_string_view(fragment);
  return escaped && sorted_has(ids, id_hash(escaped->decode()));
}

template <class Fragment, class Kept>
void fragment_checks::check(url_id page, std::uint32_t hash, Fragment fragment_of, Kept kept) {
  const std::uint32_t at = ids_at(page);
  if (at == kNotParsed) return;
  if (const auto ids = ids_in_memory(at)) {
    if (!has(*ids, hash, fragment_of)) missing_.push_back(kept());
  } else {
    against_file_.push_back({at, kept()});
  }
}

void fragment_checks::note(url_id target, std::string_view fragment, std::uint32_t hash,
                           const stored_source& source, const page_state& state) {
  if (always_present(fragment) || state.what == page_state::unchecked) return;
  if (state.what == page_state::not_yet) {
    later_.push_back({{target, intern(fragment, hash), packing_.pack(source)}, hash});
    return;
  }
  // A fragment found is not interned: most are.
  check(
      state.page, hash, [fragment] { return fragment; },
      [&]() -> reference {
        return {target, intern(fragment, hash), packing_.pack(source)};
      });
}

void fragment_checks::prefetch(std::uint32_t hash, int stage) const {
  const std::size_t key = url_table::id_key(hash);
  if (stage == 0) {
    fragments_.prefetch_slot(key);
  } else if (const auto id = fragments_.likely(key)) {
    if (stage == 1) {
      fragments_.prefetch_ref(*id);
    } else {
      fragments_.prefetch_text(*id);
    }
  }
}

void fragment_checks::page_parsed(url_id page, std::span<const std::uint32_t> hashes) {
  if (ids_.size() + 1 + hashes.size() >= kNotParsed) return;
  while (anchors_.size() <= page)
    anchors_.push_back(kNotParsed);
  anchors_[page] = static_cast<std::uint32_t>(ids_.size());
  ids_.push_back(static_cast<std::uint32_t>(hashes.size()));
  for (const std::uint32_t hash : hashes)
    ids_.push_back(hash);
}

std::optional<std::span<const std::uint32_t>> fragment_checks::ids_in_memory(std::uint32_t at) {
  const std::uint32_t* count = ids_.contiguous(at, 1);
  if (count == nullptr) return std::nullopt;  // in the file
  if (const std::uint32_t* first = ids_.contiguous(at + std::size_t{1}, *count))
    return std::span(first, *count);
  // Across the end of a region of memory, or none.
  ids_read_.resize(*count);
  ids_.read(at + std::size_t{1}, ids_read_);
  return ids_read_;
}

void fragment_checks::end_checks(const page_lookup& lookup) {
  later_.drain([this, &lookup](const waiting& w) {
    const page_state state = lookup(w.r.target);
    if (state.what != page_state::anchors) return;
    check(
        state.page, w.hash, [&] { return fragments_.whole(w.r.fragment); }, [&w] { return w.r; });
  });
  check_against_file();
  // Assigned afresh, so that their memory goes too.
  anchors_ = {};
  ids_.clear();
  ids_read_ = {};
}

void fragment_checks::check_against_file() {
  // Sorted by where their page's ids are, the references read the file once, in order: a
  // window of it at a time, moved on when a page's ids lie past its end.
  std::vector<std::uint32_t> window;
  std::size_t window_at = 0;
  const auto load = [&](std::size_t at, std::size_t count) {
    window.resize(
        std::min(std::max(count, spilled_table<std::uint32_t>::kBlock), ids_.size() - at));
    ids_.read(at, window);
    window_at = at;
  };
  sort_spilled(
      against_file_, run_, spilled_table<check_in_file>::kBlock, [](check_in_file&) {},
      [](const check_in_file& a, const check_in_file& b) { return a.ids_at < b.ids_at; },
      [&](const check_in_file& c) {
        if (c.ids_at < window_at || c.ids_at >= window_at + window.size()) load(c.ids_at, 1);
        const std::uint32_t count = window[c.ids_at - window_at];
        if (c.ids_at + std::size_t{1} + count > window_at + window.size())
          load(c.ids_at, std::size_t{1} + count);
        const std::string_view fragment = fragments_.whole(c.r.fragment);
        const auto ids = std::span(window).subspan(c.ids_at - window_at + 1, count);
        if (!has(ids, id_hash(fragment), [fragment] { return fragment; })) missing_.push_back(c.r);
      });
}

void fragment_checks::group_missing(const page_order& order) {
  // Sorted as numbers: each page by its place in the order given, each fragment by its place
  // in the order of the text of those the missing references name (of all the fragments
  // kept, most were found); they are given back their ids as they come out in order.
  std::vector<bool> is_target;
  std::vector<bool> is_missing(fragments_.size());
  missing_.for_each([&](const reference& r) {
    if (r.target >= is_target.size()) is_target.resize(r.target + std::size_t{1});
    is_target[r.target] = true;
    is_missing[r.fragment] = true;
  });
  std::vector<url_id> pages;
  for (url_id id = 0; id < is_target.size(); ++id) {
    if (is_target[id]) pages.push_back(id);
  }
  order(pages);
  std::vector<std::uint32_t> page_place(is_target.size());
  for (std::uint32_t place = 0; place < pages.size(); ++place)
    page_place[pages[place]] = place;
  std::vector<std::uint32_t> by_text;
  for (std::uint32_t id = 0; id < is_missing.size(); ++id) {
    if (is_missing[id]) by_text.push_back(id);
  }
  std::ranges::sort(by_text, {}, [this](std::uint32_t id) { return fragments_.whole(id); });
  std::vector<std::uint32_t> fragment_place(is_missing.size());
  for (std::uint32_t place = 0; place < by_text.size(); ++place)
    fragment_place[by_text[place]] = place;
  bool first = true;
  reference last{};
  sort_spilled(
      missing_, run_, spilled_table<reference>::kBlock,
      [&](reference& r) {
        r.target = page_place[r.target];
        r.fragment = fragment_place[r.fragment];
      },
      [](const reference& a, const reference& b) {
        return std::pair(a.target, a.fragment) < std::pair(b.target, b.fragment);
      },
      [&](const reference& r) {
        if (first || r.target != last.target || r.fragment != last.fragment)
          group_starts_.push_back(static_cast<std::uint32_t>(grouped_.size()));
        first = false;
        last = r;
        grouped_.push_back({pages[r.target], by_text[r.fragment], r.source});
      });
}

std::uint32_t fragment_checks::intern(std::string_view fragment, std::uint32_t hash) {
  const std::size_t key = url_table::id_key(hash);
  if (const auto known = fragments_.find(fragment, key)) return *known;
  return fragments_.add(fragment, key);
}

}  // namespace corocrawl
