#include "store/fragment_checks.hpp"

#include <algorithm>
#include <boost/url/pct_string_view.hpp>
#include <utility>

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

void fragment_checks::sort_missing() {
  std::ranges::sort(missing_.gather(), {}, [](const reference& r) {
    return std::pair{r.target, r.fragment};
  });
}

void fragment_checks::end_checks(const page_lookup& lookup) {
  later_.drain([this, &lookup](const reference& r) {
    const page_state state = lookup(r.target);
    if (state.what == page_state::anchors) check(r, state.page);
  });
  // Assigned afresh, so that their memory goes too.
  anchors_ = {};
  anchor_hashes_ = {};
  missing_.gather();  // after the rest is freed, so that its memory is reused
}

std::uint32_t fragment_checks::intern(std::string_view fragment) {
  if (const auto known = fragments_.find(fragment)) return *known;
  return fragments_.add(fragment);
}

}  // namespace corocrawl
