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

void fragment_checks::note(url_id target, std::string_view fragment, std::uint32_t hash,
                           const stored_source& source, const page_state& state) {
  if (always_present(fragment) || state.what == page_state::unchecked) return;
  if (state.what == page_state::anchors) {
    if (!has(state.page, fragment, hash))
      missing_.push_back({target, intern(fragment), packing_.pack(source)});
  } else {
    later_.push_back({target, intern(fragment), packing_.pack(source)});
  }
}

void fragment_checks::page_parsed(url_id page, std::span<const std::uint32_t> hashes) {
  if (anchor_hashes_.size() + hashes.size() >= anchor_span::kNone) return;
  while (anchors_.size() <= page)
    anchors_.emplace_back();
  anchors_[page] = {static_cast<std::uint32_t>(anchor_hashes_.size()),
                    static_cast<std::uint32_t>(hashes.size())};
  for (const std::uint32_t hash : hashes)
    anchor_hashes_.push_back(hash);
}

bool fragment_checks::has(url_id page, std::string_view fragment, std::uint32_t hash) const {
  if (page >= anchors_.size() || anchors_[page].begin == anchor_span::kNone) return true;
  const anchor_span ids = anchors_[page];
  // Searched as one array where the page's hashes lie in one region of the table: all but a
  // page's across a region's end.
  const auto holds = [&](std::uint32_t h) {
    if (const std::uint32_t* first = anchor_hashes_.contiguous(ids.begin, ids.count))
      return std::binary_search(first, first + ids.count, h);
    const auto first = anchor_hashes_.begin() + ids.begin;
    return std::binary_search(first, first + ids.count, h);
  };
  if (holds(hash)) return true;
  // As browsers do, the fragment percent-decoded is looked for too.
  if (fragment.find('%') == std::string_view::npos) return false;
  const auto escaped = boost::urls::make_pct_string_view(fragment);
  return escaped && holds(id_hash(escaped->decode()));
}

void fragment_checks::check(const reference& r, url_id page) {
  const std::string_view fragment = fragments_[r.fragment];
  if (!has(page, fragment, id_hash(fragment))) missing_.push_back(r);
}

void fragment_checks::end_checks(const page_lookup& lookup) {
  later_.drain([this, &lookup](const reference& r) {
    const page_state state = lookup(r.target);
    if (state.what == page_state::anchors) check(r, state.page);
  });
  // Assigned afresh, so that their memory goes too.
  anchors_ = {};
  anchor_hashes_ = {};
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
  std::ranges::sort(by_text, {}, [this](std::uint32_t id) { return fragments_[id]; });
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

std::uint32_t fragment_checks::intern(std::string_view fragment) {
  if (const auto known = fragments_.find(fragment)) return *known;
  return fragments_.add(fragment);
}

}  // namespace corocrawl
