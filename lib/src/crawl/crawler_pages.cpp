// What a response leads to: the target of a redirect, or the links of a page. Part of
// crawler (see crawler.hpp); fetch() in crawler.cpp calls these.

#include <spdlog/spdlog.h>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "crawl/crawler.hpp"
#include "http/content_type.hpp"
#include "url/url.hpp"

namespace corocrawl {

namespace asio = boost::asio;

namespace {

// A plain function, not a lambda: GCC 12 frees a coroutine lambda's captures twice.
asio::awaitable<page_links> links_of(std::string body, std::string page_url, parse_limits limits) {
  co_return extract_links_taking(std::move(body), page_url, limits);
}

// The parse is not cancelled with the worker: Asio 1.81's co_spawn passes cancellation on to
// another thread unsafely (Asio issues 1332, 1400). halt() makes it end at once instead.
auto uncancelled() {
  return asio::bind_cancellation_slot(asio::cancellation_slot(), asio::use_awaitable);
}

}  // namespace

void crawler::follow_redirect(const work_item& item, const http_response& response,
                              fetch_record& record) {
  record.status = response.status;
  const auto next = resolve_link(record.url, response.location);
  if (response.location.empty() || !next) {
    record.error = response.location.empty() ? "redirect without a Location header"
                                             : "bad Location header: " + response.location;
    spdlog::warn("{}: {}", record.url, *record.error);
    return;
  }
  record.next_url = *next;
  if (const auto seen = store_->find(*next)) {  // chains that meet are fetched once
    store_->note_link(item.url, *seen);
    store_->note_depth(*seen, store_->depth(item.url));
    if (store_->redirects_reach(*seen, item.url, options_.max_redirect + 1)) {
      record.error = "redirect loop";
      spdlog::warn("{}: redirect loop back through {}", record.url, *next);
    }
    return;
  }
  const auto next_url = http_url::of(*next);
  if (!next_url || !scope_.allows(*next_url)) {
    spdlog::debug("not following redirect from {} to {}: out of scope", record.url, *next);
    return;
  }
  if (item.redirects_left == 0) {
    record.error = "redirect limit reached";
    spdlog::warn("redirect limit reached for {} from {}", *next, record.url);
    return;
  }
  spdlog::debug("redirect to {} from {}", *next, record.url);
  add_url(*next_url, item.redirects_left - 1, item.url, store_->depth(item.url));
}

asio::awaitable<void> crawler::read_page(const work_item& item, http_response response,
                                         fetch_record& record) {
  record.status = response.status;
  record.size = response.body.size();
  const auto media = parse_content_type(response.content_type);
  if (!media) co_return;
  record.content_type = media->type;
  record.encoding = media->charset;
  if (!is_markup(media->type)) co_return;
  if (!record.encoding) record.encoding = "utf-8";
  if (response.status / 100 != 2) co_return;  // error pages' links are not the site's

  auto page = co_await parse(std::move(response.body), record.url);
  if (stopping_) co_return;
  if (page.outcome == parse_outcome::gave_up) {
    spdlog::warn(
        "{}: the HTML parser gave up on this page (an assertion in gumbo failed): "
        "some or all of its links are not followed",
        record.url);
  } else if (page.outcome == parse_outcome::over_budget) {
    spdlog::warn("{}: parsing this page took too long: only the links found by then are followed",
                 record.url);
  }
  const int depth = store_->depth(item.url) + 1;  // of the pages this one links to
  const bool too_deep = options_.max_depth && depth > *options_.max_depth;
  for (const page_link& entry : page.links) {
    const std::string& link = entry.url;
    if (link.size() > max_url_length)
      spdlog::warn("{}: not following a link of {} bytes (the limit is {})", record.url,
                   link.size(), max_url_length);
    // A URL seen before passed the scope (or is a root): its patterns are not searched again.
    if (const auto seen = store_->find(link)) {
      ++record.num_urls;
      store_->note_link(item.url, *seen);
      store_->note_depth(*seen, depth);
      continue;
    }
    const auto url = http_url::of(link);  // the link taken apart once, here
    if (!url || !scope_.allows(*url)) continue;
    ++record.num_urls;
    if (!too_deep) {
      ++record.num_new_urls;
      add_url(*url, options_.max_redirect, item.url, depth);
    }
  }
  if (record.num_urls > 0)
    spdlog::debug("got {} distinct urls from {}", record.num_urls, record.url);
}

// Parsed on the pool; this resumes on the crawl's thread, where the seen-set lives. (The
// parse is made outside the co_await's full expression: GCC 12 destroys some of its
// temporaries twice.)
asio::awaitable<page_links> crawler::parse(std::string body, const std::string& page_url) {
  const bool big = body.size() > big_page;
  auto job = links_of(std::move(body), page_url, {.stop = parse_stop_.get_token()});
  ++parsing_;
  page_links page;
  if (big) {
    page = co_await asio::co_spawn(big_page_parser_, std::move(job), uncancelled());
  } else {
    page = co_await asio::co_spawn(parse_pool_.executor(), std::move(job), uncancelled());
  }
  --parsing_;
  co_return page;
}

}  // namespace corocrawl
