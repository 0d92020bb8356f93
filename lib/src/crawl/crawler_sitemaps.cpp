// Sitemaps: the URLs a site lists as its pages, crawled as roots; those no crawled page links
// to are its orphans. Read while the workers crawl: a sitemap is fetched once, recorded like
// any URL (broken when it cannot be read as a sitemap), and a sitemap index's sitemaps are
// read in turn. Part of crawler (see crawler.hpp).

#include <spdlog/spdlog.h>

#include <deque>

#include "config/plan_details.hpp"
#include "crawl/crawler.hpp"
#include "http/content_type.hpp"
#include "sitemap/sitemap_xml.hpp"
#include "url/url.hpp"

namespace corocrawl {

namespace asio = boost::asio;

namespace {

// Sitemap indexes may list many sitemaps, but not without end.
constexpr std::size_t kMaxSitemaps = 1000;

}  // namespace

asio::awaitable<void> crawler::read_sitemaps() {
  std::deque<std::string> pending(plan_.get().sitemap_urls.begin(), plan_.get().sitemap_urls.end());
  if (plan_.get().sitemaps_from_robots) {
    for (const auto& root : roots_) {
      const auto url = http_url::of(root);
      std::string scratch;
      const auto* robots =
          co_await robots_for(frontier_.origin(url->origin(scratch)), url->request());
      for (const auto& line : robots->rules.sitemaps()) {
        if (auto sitemap = resolve_link(root, line)) pending.push_back(std::move(*sitemap));
      }
    }
  }
  std::size_t read = 0;
  while (!pending.empty() && !stopping_) {
    const std::string url = std::move(pending.front());
    pending.pop_front();
    if (store_->find(url)) continue;  // read already, or a URL of the crawl
    if (++read > kMaxSitemaps) {
      spdlog::warn("more than {} sitemaps: {} and the rest are not read", kMaxSitemaps, url);
      break;
    }
    co_await read_sitemap(url, pending);
  }
  frontier_.end_work();
}

// Fetches sitemap `url` (retrying as any URL), records it, and takes in what it lists: pages
// as roots, sitemaps into `more`.
asio::awaitable<void> crawler::read_sitemap(const std::string& url, std::deque<std::string>& more) {
  const auto parsed = http_url::of(url);
  if (!parsed) {
    spdlog::warn("sitemap {} is not an http(s) URL: not read", url);
    co_return;
  }
  const auto id = store_->add_url(url, std::nullopt, 0);
  const auto target = parsed->request();  // not a temporary in the co_await: GCC 12
  const auto [fetched, tries] = co_await fetch_retrying(target, fetch_mode::get);
  if (stopping_) co_return;  // left unchecked

  fetch_record record{.url = url, .tries = tries};
  verdict meaning = verdict::ok;
  if (fetched.ec) {
    record.error = fetched.error;
    record.failure = failure_kind(fetched.ec);
    record.status =
        fetched.response.status != 0 ? std::optional(fetched.response.status) : std::nullopt;
    meaning = verdict::broken;
  } else {
    record.status = fetched.response.status;
    record.size = fetched.response.body.size();
    if (const auto media = parse_content_type(fetched.response.content_type)) {
      record.content_type = media->type;
      record.encoding = media->charset;
    }
    meaning = verdict_of(record);
    if (fetched.response.status / 100 == 2) {
      const auto sitemap = parse_sitemap(fetched.response.body);
      if (!sitemap.value) {
        record.error = "not read as a sitemap: " + sitemap.error;
        meaning = verdict::broken;
      } else {
        take_sitemap(url, *sitemap.value, more);
      }
    } else if (is_redirect_status(fetched.response.status)) {
      if (auto next = resolve_link(url, fetched.response.location)) {
        record.next_url = *next;
        more.push_front(std::move(*next));
      }
    }
  }
  store_->finish(id, record, meaning);
}

void crawler::take_sitemap(const std::string& url, const sitemap& listed,
                           std::deque<std::string>& more) {
  std::size_t outside = 0;
  for (const auto& location : listed.locations) {
    auto resolved = resolve_link(url, location);
    if (!resolved) continue;
    if (listed.kind == sitemap_kind::index) {
      more.push_back(std::move(*resolved));
      continue;
    }
    if (const auto seen = store_->find(*resolved)) {
      sitemap_pages_.push_back(*seen);
      continue;
    }
    const auto page = http_url::of(*resolved);
    if (!page || !scope_.allows(*page) || plan_.get().status.skips(*resolved)) {
      ++outside;
      continue;
    }
    sitemap_pages_.push_back(add_url(*page, options_.max_redirect, std::nullopt, 0));
  }
  spdlog::info("sitemap {}: {} {}", url, listed.locations.size(),
               listed.kind == sitemap_kind::index ? "sitemaps" : "URLs");
  if (outside > 0) spdlog::info("sitemap {}: {} URLs out of scope are not crawled", url, outside);
}

}  // namespace corocrawl
