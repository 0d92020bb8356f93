#include "crawl/crawler.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <random>

#include "corocrawl/version.hpp"
#include "html/links.hpp"
#include "http/content_type.hpp"
#include "http/request_headers.hpp"
#include "url/trap_rules.hpp"
#include "url/url.hpp"

namespace corocrawl {

namespace asio = boost::asio;
using boost::system::error_code;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

http_client_options client_options(const crawl_options& options) {
  return {.timeout = options.timeout,
          .max_body = options.max_body,
          .resolve = options.resolve,
          .user_agent = options.user_agent.empty()
                            ? std::string("corocrawl/") + version + " (+" + project_url + ")"
                            : options.user_agent,
          .insecure = options.insecure,
          .ca_file = options.ca_file,
          .proxy = options.proxy,
          .max_connections = connection_cap(options.max_tasks)};
}

// Runs `action` when it goes out of scope.
template <class Action>
class on_exit {
 public:
  explicit on_exit(Action action) : action_(std::move(action)) {}
  on_exit(const on_exit&) = delete;
  on_exit& operator=(const on_exit&) = delete;
  ~on_exit() { action_(); }

 private:
  Action action_;
};

// What went wrong, in words.
std::string what(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

// A plain function, not a lambda: GCC 12 frees a coroutine lambda's captures twice.
asio::awaitable<page_links> links_of(std::string body, std::string page_url, parse_limits limits) {
  co_return extract_links_taking(std::move(body), page_url, limits);
}

}  // namespace

crawler::crawler(asio::any_io_executor executor, const crawl_options& options,
                 std::vector<std::string> root_urls, std::vector<root_origin> root_origins)
    : options_(options),
      roots_(std::move(root_urls)),
      root_origins_(std::move(root_origins)),
      scope_(roots_, options.strict, compile_patterns(options.exclude, "exclude")),
      client_(executor, client_options(options)),
      parse_pool_(static_cast<unsigned>(options.threads)),
      frontier_(options.max_per_host, options.rate_limit),
      retries_(options.max_tries, options.max_retry_wait, std::random_device{}()),
      handoff_(executor, 0),
      big_page_turn_(executor, 1),
      wake_(executor),
      all_done_(executor, 1),
      workers_gone_(executor, 1),
      time_limit_(executor) {
  big_page_turn_.try_send(error_code{});
}

asio::awaitable<void> crawler::crawl() {
  const auto executor = co_await asio::this_coro::executor;
  const auto started = clock::now();
  for (const auto& root : roots_)
    if (!store_->find(root)) add_url(root, options_.max_redirect, std::nullopt, 0);
  if (options_.max_time) {
    time_limit_.expires_after(*options_.max_time);
    time_limit_.async_wait([this](const error_code& ec) {
      if (ec) return;
      spdlog::warn("the crawl reached its time limit (--max-time): stopping");
      timed_out_ = true;
      halt();
    });
  }

  // Start the workers ...
  worker_stops_ = std::vector<asio::cancellation_signal>(options_.max_tasks);
  workers_running_ = options_.max_tasks;
  for (auto& worker_stop : worker_stops_)
    asio::co_spawn(executor, work(),
                   asio::bind_cancellation_slot(
                       worker_stop.slot(), [this](std::exception_ptr e) { worker_exited(e); }));

  // ... wait until the join counter reaches zero (or the crawl is halted) ...
  co_await all_done_.async_receive(use_tuple);

  // ... and stop them: idle workers wait on the channel, busy ones (after halt()) are
  // cancelled.
  handoff_.close();
  big_page_turn_.close();
  wake_.cancel();
  time_limit_.cancel();
  for (auto& worker_stop : worker_stops_)
    worker_stop.emit(asio::cancellation_type::terminal);
  co_await workers_gone_.async_receive(use_tuple);
  elapsed_ = clock::now() - started;
}

void crawler::stop() {
  if (stopping_) return;
  interrupted_ = true;
  halt();
}

void crawler::halt() {
  stopping_ = true;
  parse_stop_.request_stop();  // parses under way end within milliseconds
  all_done_.try_send(error_code{});
}

asio::awaitable<void> crawler::work() {
  while (!stopping_) {
    auto [ec, item] = co_await next_item();
    if (ec) co_return;  // the channel is closed: the crawl is over
    co_await fetch(item);
  }
}

asio::awaitable<std::tuple<error_code, crawler::work_item>> crawler::next_item() {
  if (const auto item = frontier_.pop(clock::now())) co_return std::tuple{error_code{}, *item};
  ++idle_workers_;
  arm_wake_up();  // the frontier may be waiting on a rate limit or a back-off
  co_return co_await handoff_.async_receive(use_tuple);
}

// Hands what the frontier allows to idle workers.
void crawler::dispatch() {
  const auto now = clock::now();
  while (idle_workers_ > 0) {
    const auto item = frontier_.pop(now);
    if (!item) break;
    --idle_workers_;
    if (!handoff_.try_send(error_code{}, *item)) {  // no worker was waiting after all
      frontier_.release(item->origin);
      frontier_.push(*item);
      idle_workers_ = 0;
    }
  }
  arm_wake_up();
}

// When the frontier holds items that only time will release (rate limit, Retry-After) and
// workers are idle, dispatches again at that time.
void crawler::arm_wake_up() {
  const auto ready = idle_workers_ > 0 ? frontier_.next_ready() : std::nullopt;
  if (!ready || (wake_.expiry() > clock::now() && wake_.expiry() <= *ready)) return;
  wake_.expires_at(*ready);
  wake_.async_wait([this](const error_code& ec) {
    if (!ec && !stopping_) dispatch();
  });
}

asio::awaitable<void> crawler::fetch(work_item item) {
  const std::string_view url = store_->url(item.url);
  const auto target = split_http_url(url);  // in scope, so http(s)
  auto fetched = co_await client_.get(*target, headers_for(*target));
  // The origin's slot is held until the page is read: pages waiting for a parse thread count
  // against max_per_host, which bounds the memory their bodies take.
  const on_exit release_slot([this, origin = item.origin] {
    frontier_.release(origin);
    if (!stopping_) dispatch();
  });
  if (stopping_) co_return;  // cancelled: the URL is left unchecked
  ++item.tries;

  const failed_try failure{.network = static_cast<bool>(fetched.ec),
                           .retryable = fetched.ec && is_retryable(fetched.ec),
                           .status = fetched.response.status,
                           .retry_after = fetched.response.retry_after};
  if (const auto retry = retries_.after(item.tries, failure, std::chrono::system_clock::now())) {
    const auto why = fetched.ec ? fetched.error : std::to_string(fetched.response.status);
    spdlog::info("try {} for {} failed ({}): retrying in {:.1f} s", item.tries, url, why,
                 std::chrono::duration<double>(retry->delay).count());
    const auto when = clock::now() + retry->delay;
    if (retry->whole_origin) {
      frontier_.back_off(item.origin, when);
      enqueue(item);
    } else {
      enqueue(item, when);
    }
    co_return;
  }

  fetch_record record{.url = std::string(url), .tries = item.tries};
  if (fetched.ec == fetch_errc::body_too_large && fetched.response.status != 0) {
    record.status = fetched.response.status;  // the header came: only the body is too big
    record.error = fetched.error;
    record.size = fetched.response.body_received;
    if (const auto media = parse_content_type(fetched.response.content_type)) {
      record.content_type = media->type;
      record.encoding = media->charset;
      if (!record.encoding && is_markup(media->type)) record.encoding = "utf-8";
    }
    spdlog::warn("{}: body larger than {} bytes: not read further", url, options_.max_body);
  } else if (fetched.ec) {
    record.error = fetched.error;
    record.failure = failure_kind(fetched.ec);
    spdlog::warn("{} failed after {} {}: {}", url, record.tries,
                 record.tries == 1 ? "try" : "tries", *record.error);
  } else if (is_redirect_status(fetched.response.status)) {
    follow_redirect(item, fetched.response, record);
  } else {
    co_await read_page(item, std::move(fetched.response), record);  // its links, unless stopping
  }
  finish(item.url, std::move(record));
}

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
  if (!scope_.allows(*next)) {
    spdlog::debug("not following redirect from {} to {}: out of scope", record.url, *next);
    return;
  }
  if (item.redirects_left == 0) {
    record.error = "redirect limit reached";
    spdlog::warn("redirect limit reached for {} from {}", *next, record.url);
    return;
  }
  spdlog::debug("redirect to {} from {}", *next, record.url);
  add_url(*next, item.redirects_left - 1, item.url, store_->depth(item.url));
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

  // A parse tree takes about ten times its page's size: big pages take turns, so that no two
  // of their trees are in memory at once.
  const bool big = response.body.size() > big_page;
  if (big) {
    if (auto [ec] = co_await big_page_turn_.async_receive(use_tuple); ec) co_return;
  }
  // Parsed on the pool; this resumes on the crawl's thread, where the seen-set lives. The
  // parse is not cancelled with the worker: Asio 1.81's co_spawn passes cancellation on to
  // another thread unsafely (Asio issues 1332, 1400). halt() makes it end at once instead.
  // (The parse is made outside the co_await's full expression: GCC 12 destroys some of its
  // temporaries twice.)
  auto parse = links_of(std::move(response.body), record.url, {.stop = parse_stop_.get_token()});
  auto page = co_await asio::co_spawn(
      parse_pool_.executor(), std::move(parse),
      asio::bind_cancellation_slot(asio::cancellation_slot(), asio::use_awaitable));
  if (big) big_page_turn_.try_send(error_code{});
  if (stopping_) co_return;
  if (page.outcome == parse_outcome::gave_up) {
    spdlog::warn(
        "{}: the HTML parser gave up on this page (an assertion in gumbo failed): "
        "its links are not followed",
        record.url);
  } else if (page.outcome == parse_outcome::over_budget) {
    spdlog::warn("{}: parsing this page took too long: only the links found by then are followed",
                 record.url);
  }
  const int depth = store_->depth(item.url) + 1;  // of the pages this one links to
  const bool too_deep = options_.max_depth && depth > *options_.max_depth;
  for (auto& link : page.links) {
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
    if (!scope_.allows(link)) continue;
    ++record.num_urls;
    if (!too_deep) {
      ++record.num_new_urls;
      add_url(std::move(link), options_.max_redirect, item.url, depth);
    }
  }
  if (record.num_urls > 0)
    spdlog::debug("got {} distinct urls from {}", record.num_urls, record.url);
}

void crawler::add_url(std::string_view url, int redirects_left, std::optional<url_id> referrer,
                      int depth) {
  const auto id = store_->add_url(url, referrer, depth);
  if (referrer && options_.trap_rules) {  // the roots are taken as given
    if (auto trap = trap_reason(url)) {
      spdlog::debug("not fetching {}: {}", url, *trap);
      store_->skip(id, *trap);
      return;
    }
  }
  if (options_.max_urls && admitted_ == *options_.max_urls) {  // left unchecked
    if (!told_of_max_urls_) {
      spdlog::warn("{} URLs to check (--max-urls): the URLs found from now on are not checked",
                   admitted_);
      told_of_max_urls_ = true;
    }
    return;
  }
  ++admitted_;
  ++unfinished_;
  const auto target = split_http_url(url);
  enqueue({.url = id,
           .redirects_left = redirects_left,
           .tries = 0,
           .origin = frontier_.origin(origin_key(*target))});
}

// Never blocks (workers are the producers too): the item waits in the frontier, and an idle
// worker gets it as soon as politeness allows, and not before `not_before` when given.
void crawler::enqueue(work_item item, std::optional<clock::time_point> not_before) {
  if (not_before) {
    frontier_.push_at(item, *not_before);
  } else {
    frontier_.push(item);
  }
  frontier_peak_ = std::max<std::uint64_t>(frontier_peak_, frontier_.size());
  dispatch();
}

void crawler::finish(url_id id, fetch_record record) {
  // Broken and rate-limited URLs keep the pages that link to them, for the report.
  store_->finish(id, record, is_broken(record) || is_rate_limited(record));
  if (--unfinished_ == 0) all_done_.try_send(error_code{});
}

void crawler::worker_exited(std::exception_ptr error) {
  if (error && !stopping_) {
    failure_ = what(error);
    spdlog::error("the crawl cannot go on: {}", *failure_);
    halt();
  }
  if (--workers_running_ == 0) workers_gone_.try_send(error_code{});
}

const std::vector<http_header>& crawler::headers_for(const http_target& target) {
  auto [it, added] = headers_by_origin_.try_emplace(origin_key(target));
  if (added) it->second = headers_for_target(options_, root_origins_, target);
  return it->second;
}

crawl_result crawler::result() {
  crawl_result result{.roots = roots_,
                      .interrupted = interrupted_,
                      .timed_out = timed_out_,
                      .failure = failure_,
                      .elapsed = elapsed_,
                      .requests = client_.requests(),
                      .connections = client_.connections()};
  store_->sort_by_url();
  result.unchecked = store_->unchecked();
  result.skipped = store_->skipped();
  result.frontier_peak = frontier_peak_;
  for (const auto id : store_->keeping_referrers()) {  // sorted by URL
    const auto record = store_->record(id);
    (is_broken(record) ? result.broken : result.rate_limited)
        .push_back({.url = record.url,
                    .status = record.status,
                    .error = record.error,
                    .referrers = store_->referrers(id)});
  }
  result.records = record_list(store_);
  return result;
}

}  // namespace corocrawl
