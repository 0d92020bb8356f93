// What a response leads to: the target of a redirect, or the references of a page or
// stylesheet. Part of
// crawler (see crawler.hpp); fetch() in crawler.cpp calls these.

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/use_awaitable.hpp>
#include <span>
#include <string>

#include "config/plan_details.hpp"
#include "crawl/crawler.hpp"
#include "css/css_links.hpp"
#include "http/content_type.hpp"
#include "text/ascii.hpp"
#include "url/url.hpp"

namespace corocrawl {

namespace asio = boost::asio;

// A page or stylesheet and how to read it, run on a parse thread.
struct crawler::parse_job {
  std::string body;
  std::string page_url;  // of `body` (a page read in pieces knows its own)
  std::string charset;
  bool stylesheet = false;
  parse_limits limits;
  std::optional<page_in_pieces> pieces;  // a page read as it came, instead of `body`
  // The rest of the page, after `body` (its first bytes), waiting in the socket to be read
  // here first; whether all of it was read goes to *rest_read, in the frame that waits for
  // the job.
  std::optional<waiting_body> rest;
  bool* rest_read = nullptr;

  page_links operator()() {
    if (pieces) return pieces->finish(limits);
    if (rest) return read_rest_and_parse();
    if (stylesheet) return extract_css_links(body, page_url, charset);
    // A small page stays in the job, which goes back to the event loop's thread: that thread
    // allocated the body, and freeing it here took the lock of its malloc arena while it
    // allocated (a futex wait on one thread and a wake on the other: 2,000 futex calls on
    // the 10k site).
    // A larger page goes as soon as its tags are read, so that it and its tree are not held
    // together.
    if (body.size() <= small_page) return extract_links_kept(body, page_url, limits, charset);
    return extract_links_taking(std::move(body), page_url, limits, charset);
  }

  // The page, read here whole: its memory is allocated, faulted in and freed on this thread,
  // and its first bytes, allocated on the event loop's, stay in the job, which goes back there.
  page_links read_rest_and_parse() {
    std::string page(body.size() + rest->size(), '\0');
    std::copy(body.begin(), body.end(), page.begin());
    *rest_read = rest->read_into(std::span(page).subspan(body.size()));
    if (!*rest_read) return {};
    return extract_links_taking(std::move(page), page_url, limits, charset);
  }

  // The bytes of the page it holds, or will once its rest is read. A page read in pieces holds
  // little but what is left of its tags (and its first bytes while they are kept).
  std::size_t held() const {
    if (pieces) return pieces->held();
    return body.size() + (rest ? static_cast<std::size_t>(rest->size()) : 0);
  }

  // How the pool may run it, by what it holds. A page read in pieces is not one for the event
  // loop's thread; one kept whole is parsed whole, as a big body is, and is light up to
  // big_page (see there).
  job_weight weight() const {
    if (held() > big_page) return job_weight::heavy;
    return pieces ? job_weight::normal : job_weight::light;
  }
};

void crawler::follow_redirect(const work_item& item, const http_response& response,
                              fetch_record& record) {
  record.status = response.status;
  auto next = resolve_link(record.url, response.location);
  if (std::string aliased; next && unaliased(*next, aliased) != *next) next = std::move(aliased);
  if (response.location.empty() || !next) {
    record.error = response.location.empty() ? "redirect without a Location header"
                                             : "bad Location header: " + response.location;
    spdlog::warn("{}: {}", record.url, *record.error);
    return;
  }
  record.next_url = *next;
  if (const auto seen = store_->find(*next)) {  // chains that meet are fetched once
    store_->note_redirect(item.url, *seen);
    store_->note_depth(*seen, store_->depth(item.url));
    if (store_->redirects_reach(*seen, item.url, options_.max_redirect + 1)) {
      record.error = "redirect loop";
      spdlog::warn("{}: redirect loop back through {}", record.url, *next);
    }
    return;
  }
  const auto next_url = http_url::of(*next);
  const bool in_scope = next_url && scope_.allows(*next_url);
  if ((!in_scope && !(next_url && checks_external(*next_url))) || plan_.get().status.skips(*next)) {
    spdlog::debug("not following redirect from {} to {}: out of scope", record.url, *next);
    return;
  }
  if (item.redirects_left == 0) {
    record.error = "redirect limit reached";
    spdlog::warn("redirect limit reached for {} from {}", *next, record.url);
    return;
  }
  spdlog::debug("redirect to {} from {}", *next, record.url);
  add_url(*next_url, item.redirects_left - 1, item.url, store_->depth(item.url),
          {.external = !in_scope, .resource = store_->resource(item.url)});
}

bool crawler::checks_external(const http_url& url) const {
  return options_.external && url.text().size() <= max_url_length && !scope_.excluded(url.text());
}

asio::awaitable<void> crawler::read_page(const work_item& item, http_response response,
                                         fetch_record& record, bool whole,
                                         std::optional<parsed_page> read_already) {
  record.status = response.status;
  // The decoded body; of a body read but not kept (a type not parsed), the bytes received.
  record.size = response.body.empty() ? response.body_received : response.body.size();
  const auto media = parse_content_type(response.content_type);
  if (!media) co_return;
  record.content_type = media->type;
  record.encoding = media->charset;
  if (!is_markup(media->type) && !is_css(media->type)) co_return;
  if (!record.encoding && is_markup(media->type)) record.encoding = "utf-8";
  // Error pages' links are not the site's; other sites are checked, never crawled.
  if (response.status / 100 != 2 || record.external || (response.body.empty() && !read_already))
    co_return;

  // (Not a co_await in an arm of ?:, which GCC 12 miscompiles.)
  parsed_page parsed;
  if (read_already)
    parsed = std::move(*read_already);
  else
    parsed = co_await parse(std::move(response.body), record.url, media->charset.value_or(""),
                            is_css(media->type));
  page_links& page = parsed.page;
  if (stopping_) co_return;
  // The charset declared, else the one the page was read in.
  if (!media->charset) record.encoding = ascii::to_lower(page.encoding);
  if (page.outcome == parse_outcome::gave_up) {
    spdlog::warn(
        "{}: the HTML parser gave up on this page (an assertion in gumbo failed): "
        "some or all of its links are not followed",
        record.url);
  } else if (page.outcome == parse_outcome::over_budget) {
    spdlog::warn("{}: parsing this page took too long: only the links found by then are followed",
                 record.url);
  } else if (page.outcome == parse_outcome::complete && is_html(media->type) && whole) {
    store_->note_anchors(item.url, page.anchor_hashes);
  }
  // A page read in pieces took some in as it came, and counted its links there.
  const auto found = pieces_taken_.find(item.url);
  pieces_taken* taken = found == pieces_taken_.end() ? nullptr : &found->second;
  link_counts own;
  link_counts& counts = taken != nullptr ? taken->counts : own;
  take_references(item, page, counts, taken);
  record.num_urls = counts.urls;
  record.num_new_urls = counts.new_urls;
  if (record.num_urls > 0)
    spdlog::debug("got {} distinct urls from {}", record.num_urls, record.url);
  if (parsed.on_pool) parse_pool_.free_on_pool(std::move(page));
}

void crawler::take_references(const work_item& item, const page_links& page, link_counts& counts,
                              pieces_taken* taken) {
  const int depth = store_->depth(item.url) + 1;  // of the pages this one links to
  const bool too_deep = options_.max_depth && depth > *options_.max_depth;
  // The hashes came with the page, computed by its parse: this thread bounds the crawl.
  std::vector<std::size_t> hashes;
  hashes.reserve(page.links.size());
  for (const auto& link : page.links)
    hashes.push_back(link.hash);
  store_->prefetch(hashes);
  std::vector<std::optional<url_id>> ids;
  ids.reserve(page.links.size());
  for (const page_link& link : page.links)
    ids.push_back(take_link(link, item.url, depth, too_deep, counts, taken));
  // The store's numbers of the page's tags, each looked up once, when a reference noted has it.
  std::vector<std::uint32_t> tags(page.tags.size(), stored_source::kNone);
  const auto taken_up_to = taken != nullptr ? taken->last : std::pair{0U, 0U};
  // A fragment of another page is kept in the store's table when that page is not parsed yet
  // (most are, in a crawl's first half): where it is kept is read some references ahead,
  // three cache misses each otherwise.
  const auto read_ahead = [&](std::size_t at, int stage) {
    if (at >= page.references.size() || !options_.fragments) return;
    const page_reference& ahead = page.references[at];
    const auto id = ids[ahead.link];
    if (ahead.fragment && id && *id != item.url)
      store_->prefetch_fragment(ahead.fragment.hash(), stage);
  };
  for (std::size_t at = 0; at < page.references.size(); ++at) {
    read_ahead(at + 24, 0);
    read_ahead(at + 16, 1);
    read_ahead(at + 8, 2);
    const page_reference& reference = page.references[at];
    const auto id = ids[reference.link];
    if (!id) continue;
    const reference_tag& written = page.tags[reference.tag];
    if (taken != nullptr && !written.in_css()) {
      const std::pair place{reference.line, reference.column};
      if (place <= taken_up_to) continue;  // taken as the page came before
      taken->last = std::max(taken->last, place);
    }
    std::uint32_t& tag = tags[reference.tag];
    if (tag == stored_source::kNone) tag = store_->tag_id(written.element, written.attribute);
    const stored_source source{
        .page = item.url, .line = reference.line, .column = reference.column, .tag = tag};
    store_->note_source(*id, source);
    if (reference.fragment && options_.fragments && !store_->external(*id))
      store_->note_fragment(*id, *reference.fragment, reference.fragment.hash(), source);
  }
}

std::optional<crawler::url_id> crawler::take_link(const page_link& link, url_id page, int depth,
                                                  bool too_deep, link_counts& counts,
                                                  pieces_taken* taken) {
  const std::string_view link_url = unaliased(link.url, aliased_);
  std::size_t hash = link.hash;
  if (link_url.data() != link.url.data() || link_url.size() != link.url.size())
    hash = crawl_store::hash(link_url);  // an alias rewrote it
  if (link_url.size() > max_url_length) {
    spdlog::warn("{}: not following a link of {} bytes (the limit is {})", store_->url(page).str(),
                 link_url.size(), max_url_length);
    return std::nullopt;
  }
  const bool resource = link.kind == reference_kind::resource;
  // A URL seen before passed the scope (or is a root): its patterns are not searched again.
  if (const auto seen = store_->find(link_url, hash)) {
    if (!resource) store_->mark_resource(*seen, false);  // read when fetched: GET it
    if (taken != nullptr && !taken->links.insert(*seen).second) return seen;  // noted before
    if (!store_->external(*seen)) ++counts.urls;
    store_->note_depth(*seen, depth);
    return seen;
  }
  const auto url = http_url::of(link_url);  // the link taken apart once, here
  if (!url || plan_.get().status.skips(link_url)) return std::nullopt;  // mailto:, data: ...
  std::optional<url_id> added;
  if (scope_.allows(*url)) {
    if (too_deep) {
      if (taken == nullptr || taken->too_deep.emplace(link_url).second) ++counts.urls;
      return std::nullopt;
    }
    ++counts.urls;
    ++counts.new_urls;
    added = add_url(*url, options_.max_redirect, page, depth, {.resource = resource});
  } else if (!too_deep && checks_external(*url)) {
    added =
        add_url(*url, options_.max_redirect, page, depth, {.external = true, .resource = resource});
  }
  if (added && taken != nullptr) taken->links.insert(*added);
  return added;
}

asio::awaitable<crawler::parsed_page> crawler::parse(std::string body, const std::string& page_url,
                                                     std::string charset, bool stylesheet) {
  return run_parse({std::move(body), page_url, std::move(charset), stylesheet, {}, {}});
}

asio::awaitable<crawler::parsed_page> crawler::parse(page_in_pieces page) {
  return run_parse({{}, {}, {}, false, {}, std::move(page)});
}

// Parsed on the pool; this resumes on the crawl's thread, where the seen-set lives. The parse
// is not cancelled with the worker: halt() makes it end at once instead. (The operation is
// made outside the co_await's full expression: GCC 12 destroys some of its temporaries twice.)
asio::awaitable<crawler::parsed_page> crawler::run_parse(parse_job job) {
  job.limits.stop = parse_stop_.get_token();
  const job_weight weight = job.weight();
  ++parsing_;
  auto parsing = parse_pool_.async_run(std::move(job), weight, asio::use_awaitable);
  auto [page, on_pool] = co_await std::move(parsing);
  --parsing_;
  co_return parsed_page{std::move(page), on_pool};
}

crawler::body_hold::body_hold(crawler& owner, std::size_t bytes) : owner_(owner), bytes_(bytes) {
  owner_.bodies_held_ += bytes_;
  if (owner_.bodies_held_ > bodies_pause_above) owner_.frontier_.pause();
}

crawler::body_hold::~body_hold() {
  owner_.bodies_held_ -= bytes_;
  if (owner_.bodies_held_ <= bodies_resume_at && owner_.frontier_.paused())
    owner_.frontier_.resume();
}

void crawler::page_sink::add(std::string_view bytes) {
  page->add(bytes);
  if (owner_.stopping_) return;
  const page_links read = page->take_read();
  if (read.references.empty()) return;
  pieces_taken& taken = owner_.pieces_taken_[item_.url];
  owner_.take_references(item_, read, taken.counts, &taken);
}

bool crawler::page_sink::reads_waiting(std::string_view content_type, std::uint64_t length) {
  if (length > big_page) return false;  // read in pieces as it comes (take)
  const auto media = parse_content_type(content_type);
  if (!media || !is_html(media->type)) return false;
  charset_ = media->charset.value_or("");
  hold(length);
  return true;
}

asio::awaitable<bool> crawler::page_sink::read_waiting(std::string first, waiting_body rest) {
  bool all_read = false;
  parse_job job{std::move(first), std::string(page_url), std::move(charset_), false, {}, {}};
  job.rest = rest;
  job.rest_read = &all_read;
  auto parsing = owner_.run_parse(std::move(job));
  parsed_page parsed = co_await std::move(parsing);
  if (all_read) {
    read_whole = std::move(parsed);
  } else if (parsed.on_pool) {
    owner_.parse_pool_.free_on_pool(std::move(parsed.page));
  }
  co_return all_read;
}

bool crawler::page_sink::take(std::string_view content_type, std::uint64_t length) {
  if (length > big_page) {
    const auto media = parse_content_type(content_type);
    if (media && is_html(media->type)) {
      page.emplace(std::string(page_url), std::string(media->charset.value_or("")));
      return true;
    }
  }
  hold(length);
  return false;
}

void crawler::page_sink::hold(std::uint64_t length) {
  // Kept whole: counted while the fetch lasts, as what the client reads of it at most (a
  // hostile Content-Length may announce anything).
  held_.reset();
  held_.emplace(
      owner_, static_cast<std::size_t>(std::min<std::uint64_t>(length, owner_.options_.max_body)));
}

}  // namespace corocrawl
