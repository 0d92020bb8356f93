#include "crawl/crawler.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <random>
#include <stdexcept>

#include "cache/link_cache.hpp"
#include "config/plan_details.hpp"
#include "http/content_type.hpp"
#include "http/request_headers.hpp"
#include "url/http_url.hpp"
#include "url/trap_rules.hpp"

namespace corocrawl {

namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;

http_client_options client_options(const crawl_plan& plan) {
  http_client_options options = plan.get().http;
  options.max_connections = connection_cap(plan.options().max_tasks);
  return options;
}

crawler::crawler(fetcher& fetcher, crawl_clock& clock, crawl_plan plan,
                 std::vector<std::string> root_urls, std::vector<root_origin> root_origins,
                 std::vector<url_alias> aliases, link_cache* cache)
    : plan_(std::move(plan)),
      roots_(std::move(root_urls)),
      root_origins_(std::move(root_origins)),
      aliases_(std::move(aliases)),
      scope_(roots_, options_.strict, plan_.get().exclude),
      fetcher_(fetcher),
      clock_(clock),
      cache_(cache),
      parse_pool_(plan_.get().threads, fetcher.request_writer()),
      frontier_(clock, options_.max_per_host, options_.rate_limit),
      retries_(options_.max_tries, options_.max_retry_wait, std::random_device{}()) {
  install_abort_guard();
}

asio::awaitable<void> crawler::crawl() {
  const auto started = clock_.now();
  for (const auto& root : roots_) {
    const auto url = http_url::of(root);
    if (!url) throw std::logic_error("a root is not a normalised http(s) URL: " + root);
    if (!store_->find(root)) add_url(*url, options_.max_redirect, std::nullopt, 0);
  }
  root_count_ = store_->size_seen();
  if (reads_sitemaps()) frontier_.begin_work();  // read_sitemaps() ends it

  // Start max_tasks workers, wait until the join counter reaches zero (or the crawl is
  // halted), and stop them.
  executor_ = co_await asio::this_coro::executor;
  workers_ended_.emplace(*executor_, asio::steady_timer::time_point::max());
  for (int i = 0; i < options_.max_tasks; ++i)
    start_worker(work());
  if (reads_sitemaps()) start_worker(read_sitemaps());
  co_await close_when_done(started);
  co_await workers_ended();
  elapsed_ = clock_.now() - started;
}

// Idle workers return when the frontier closes; halt() cancels the busy ones.
asio::awaitable<void> crawler::close_when_done(time_point started) {
  if (options_.max_time) {
    co_await (frontier_.join() || stop_at(started + *options_.max_time));
  } else {
    co_await frontier_.join();
  }
  frontier_.close();
}

// Each worker returns when the frontier closes, or when halt() cancels it.
asio::awaitable<void> crawler::work() {
  // The origin of this worker's last request, whose connection is idle in the pool now:
  // its next item, when it may be asked, reuses the connection. Taking origins in turn
  // alone, a crawl checking links to many hosts opened a connection per check, as each
  // host's idle connection was the oldest to close by its turn.
  std::optional<awaitable_frontier::origin_id> last_origin;
  for (;;) {
    const auto item = co_await frontier_.pop(last_origin);
    if (!item) break;  // the frontier is closed: the crawl is over
    co_await fetch(*item);
    frontier_.task_done(*item);
    last_origin = item->origin;
  }
}

asio::awaitable<void> crawler::fetch(work_item item) {
  const std::string url = store_->url(item.url).str();
  const auto target = http_url::of(url)->request();  // in scope or external, so http(s)
  const bool external = store_->external(item.url);
  if (!external && options_.robots) {
    const bool allowed = co_await robots_allow(item, target);
    if (!allowed) co_return;  // finished, or left unchecked, as robots.txt has it
  }
  const std::span<const http_header> headers = headers_for(item.origin, target);
  // What is not parsed is checked with HEAD first; many servers mishandle HEAD, so only a
  // GET's answer makes a URL broken.
  auto mode = external || store_->resource(item.url) ? fetch_mode::head : fetch_mode::get_if_parsed;
  page_sink sink(*this, item, url);  // a big page's body, read as it comes
  const auto sink_for = [&sink](fetch_mode m) -> body_sink* {
    return m == fetch_mode::get_if_parsed ? &sink : nullptr;
  };
  auto fetched = co_await fetcher_.get(target, headers, mode, sink_for(mode));
  if (!stopping_ && mode == fetch_mode::head && (fetched.ec || fetched.response.status >= 400)) {
    mode = external ? fetch_mode::get_header : fetch_mode::get_if_parsed;
    fetched = co_await fetcher_.get(target, headers, mode, sink_for(mode));
  } else if (!stopping_ && mode == fetch_mode::head && !external &&
             is_parsed_type(fetched.response.content_type)) {
    mode = fetch_mode::get_if_parsed;  // a page or stylesheet of the site: read it
    fetched = co_await fetcher_.get(target, headers, mode, sink_for(mode));
  }
  std::optional<parsed_page> read_already;  // by the sink, whole or in pieces
  if (!stopping_ && fetched.response.body_taken && sink.read_whole) {
    read_already = std::move(sink.read_whole);  // read and parsed on a parse thread
  } else if (!stopping_ && fetched.response.body_taken) {
    // (The operation is made outside the co_await's full expression, as in run_parse().)
    auto reading = parse(std::move(*sink.page));
    parsed_page read = co_await std::move(reading);
    // Freed on this thread, whoever finished it: most of it was built here as the body came.
    read_already = parsed_page{std::move(read.page), false};
    if (!stopping_ && read_already->page.outcome == parse_outcome::needs_whole_page) {
      // Its link tags alone could not say what it references: fetched again, it is kept and
      // read whole, as a page without a Content-Length is.
      spdlog::debug("{}: read in pieces, it needs a tree: fetching it again to read it whole", url);
      read_already.reset();
      fetched = co_await fetcher_.get(target, headers, mode, nullptr);
    }
  }
  if (stopping_) co_return;  // cancelled: the URL is left unchecked
  ++item.tries;
  if (retry_later(item, fetched)) co_return;

  fetch_record record{.url = url,
                      .tries = item.tries,
                      .external = external,
                      .method = std::string(method_name(mode))};
  if (fetched.ec == fetch_errc::body_too_large && fetched.response.status != 0) {
    // The header came: only the body is too big. The part read is still read for links (not
    // for its ids: those of the part not read are unknown).
    spdlog::warn("{}: body larger than {} bytes: not read further", url, options_.max_body);
    const auto error = fetched.error;
    const auto received = fetched.response.body_received;
    co_await read_page(item, std::move(fetched.response), record, false, std::move(read_already));
    record.error = error;
    record.size = received;  // as sent, before decoding: what was read
  } else if (fetched.ec) {
    record.error = fetched.error;
    record.failure = failure_kind(fetched.ec);
    spdlog::warn("{} failed after {} {}: {}", url, record.tries,
                 record.tries == 1 ? "try" : "tries", *record.error);
  } else if (is_redirect_status(fetched.response.status)) {
    follow_redirect(item, fetched.response, record);
  } else {
    co_await read_page(item, std::move(fetched.response), record, true,
                       std::move(read_already));  // unless stopping
  }
  const verdict meaning = verdict_of(record);
  store_->finish(item.url, record, meaning);
  pieces_taken_.erase(item.url);
  if (cache_ && external && meaning == verdict::ok)
    cache_->remember(record, std::chrono::system_clock::now());
}

bool crawler::take_from_cache(url_id id) {
  if (!cache_) return false;
  const std::string url = store_->url(id).str();
  const auto entry = cache_->lookup(url, std::chrono::system_clock::now());
  if (!entry) return false;
  const fetch_record record{.url = url,
                            .status = entry->status,
                            .tries = 0,
                            .content_type = entry->content_type,
                            .encoding = entry->encoding,
                            .external = true,
                            .method = entry->head ? "HEAD" : "GET",
                            .cached = true};
  spdlog::debug("{}: {} from the cache", url, entry->status);
  store_->finish(id, record, verdict_of(record));
  return true;
}

crawl_progress crawler::progress() const {
  std::uint64_t checked = 0;
  for (const verdict v : {verdict::ok, verdict::warning, verdict::broken, verdict::rate_limited})
    checked += store_->finished_as(v);
  return {.checked = checked,
          .queued = frontier_.size(),
          .broken = store_->finished_as(verdict::broken),
          .requests = fetcher_.requests()};
}

bool crawler::reads_sitemaps() const {
  return !plan_.get().sitemap_urls.empty() || plan_.get().sitemaps_from_robots;
}

verdict crawler::verdict_of(const fetch_record& record) const {
  if (!record.status) return verdict::broken;  // every try failed
  // A redirect is judged by where it ends, unless it cannot be followed.
  if (is_redirect_status(*record.status)) return record.error ? verdict::broken : verdict::ok;
  switch (plan_.get().status.judge(record.url, *record.status)) {
    case status_verdict::ok:
      return verdict::ok;
    case status_verdict::warning:
      return verdict::warning;
    case status_verdict::broken:
      break;
  }
  return *record.status == 429 ? verdict::rate_limited : verdict::broken;
}

// When `retries_` allows another try after `fetched`, puts `item` back in the frontier for it
// and returns true.
bool crawler::retry_later(const work_item& item, const http_client::result& fetched) {
  const auto retry =
      retries_.after(item.tries, failed_try_of(fetched), std::chrono::system_clock::now());
  if (!retry) return false;
  const auto why = fetched.ec ? fetched.error : std::to_string(fetched.response.status);
  spdlog::info("try {} for {} failed ({}): retrying in {:.1f} s", item.tries,
               store_->url(item.url).str(), why,
               std::chrono::duration<double>(retry->delay).count());
  const auto when = clock_.now() + retry->delay;
  if (retry->whole_origin) {
    frontier_.back_off(item.origin, when);
    frontier_.push(item);
  } else {
    frontier_.push_at(item, when);
  }
  return true;
}

failed_try crawler::failed_try_of(const http_client::result& fetched) {
  return {.network = static_cast<bool>(fetched.ec),
          .retryable = fetched.ec && is_retryable(fetched.ec),
          .status = fetched.response.status,
          .retry_after = fetched.response.retry_after};
}

asio::awaitable<crawler::retried> crawler::fetch_retrying(const http_target& target,
                                                          fetch_mode mode) {
  const auto headers = headers_for_target(options_, root_origins_, target);
  retried got;
  for (;;) {
    got.fetched = co_await fetcher_.get(target, headers, mode, nullptr);
    ++got.tries;
    if (stopping_) co_return got;
    const auto retry =
        retries_.after(got.tries, failed_try_of(got.fetched), std::chrono::system_clock::now());
    if (!retry) co_return got;
    co_await clock_.wait_until(clock_.now() + retry->delay);
  }
}

crawler::url_id crawler::add_url(const http_url& url, int redirects_left,
                                 std::optional<url_id> referrer, int depth, url_role role) {
  const auto id = store_->add_url(url.text(), referrer, depth);
  if (role.external) store_->mark_external(id);
  store_->mark_resource(id, role.resource);
  if (referrer && options_.trap_rules) {  // the roots are taken as given
    if (auto trap = path_trap_reason(url.path())) {
      spdlog::debug("not fetching {}: {}", url.text(), *trap);
      store_->skip(id, *trap);
      return id;
    }
  }
  if (options_.max_urls && admitted_ == *options_.max_urls) {  // left unchecked
    if (!told_of_max_urls_) {
      spdlog::warn("{} URLs to check (--max-urls): the URLs found from now on are not checked",
                   admitted_);
      told_of_max_urls_ = true;
    }
    return id;
  }
  ++admitted_;
  // Taken from the cache at once: no request, so no place in the frontier and its politeness.
  if (role.external && take_from_cache(id)) return id;
  std::string scratch;  // used only by a URL with userinfo
  frontier_.push({.url = id,
                  .redirects_left = redirects_left,
                  .tries = 0,
                  .origin = frontier_.origin(url.origin(scratch))});
  return id;
}

const std::vector<http_header>& crawler::headers_for(origin_id origin, const http_target& target) {
  if (origin >= headers_by_origin_.size()) headers_by_origin_.resize(origin + 1);
  auto& headers = headers_by_origin_[origin];
  if (!headers) headers = headers_for_target(options_, root_origins_, target);
  return *headers;
}

crawl_result crawler::result() {
  reserve_.release();
  crawl_result result{.roots = roots_,
                      .interrupted = interrupted_,
                      .timed_out = timed_out_,
                      .failure = failure_,
                      .elapsed = elapsed_,
                      .requests = fetcher_.requests(),
                      .connections = fetcher_.connections()};
  store_->sort_by_url();
  result.unchecked = crawl_store::unchecked(store_);
  result.skipped = crawl_store::skipped(store_);
  result.frontier_peak = frontier_.peak();
  result.broken = crawl_store::problems(store_, verdict::broken);
  result.warnings = crawl_store::problems(store_, verdict::warning);
  result.rate_limited = crawl_store::problems(store_, verdict::rate_limited);
  for (const auto id : sitemap_pages_) {
    if (!store_->linked(id)) result.orphans.push_back(store_->url(id).str());
  }
  std::ranges::sort(result.orphans);
  result.orphans.erase(std::unique(result.orphans.begin(), result.orphans.end()),
                       result.orphans.end());
  result.records = record_list(store_);
  return result;
}

}  // namespace corocrawl
