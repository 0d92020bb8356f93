#include "crawler.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "corocrawl/content_type.hpp"
#include "corocrawl/links.hpp"
#include "corocrawl/url.hpp"
#include "corocrawl/version.hpp"

namespace corocrawl {

namespace asio = boost::asio;
using boost::system::error_code;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

http_client_options client_options(const crawl_options& options) {
  return {.timeout = options.timeout,
          .max_body = options.max_body,
          .resolve = options.resolve,
          .user_agent = std::string("corocrawl/") + version + " (+" + project_url + ")"};
}

}  // namespace

crawler::crawler(asio::any_io_executor executor, const crawl_options& options,
                 std::vector<std::string> root_urls)
    : options_(options),
      roots_(std::move(root_urls)),
      scope_(roots_, options.strict, compile_patterns(options.exclude, "exclude")),
      client_(executor, client_options(options)),
      handoff_(executor, 0),
      all_done_(executor, 1),
      workers_gone_(executor, 1) {}

asio::awaitable<void> crawler::crawl() {
  const auto executor = co_await asio::this_coro::executor;
  const auto started = std::chrono::steady_clock::now();
  for (const auto& root : roots_)
    if (!find(root)) add_url(root, options_.max_redirect, std::nullopt);

  // Start the workers ...
  worker_stops_ = std::vector<asio::cancellation_signal>(options_.max_tasks);
  workers_running_ = options_.max_tasks;
  for (auto& worker_stop : worker_stops_)
    asio::co_spawn(executor, work(),
                   asio::bind_cancellation_slot(
                       worker_stop.slot(), [this](std::exception_ptr e) { worker_exited(e); }));

  // ... wait until the join counter reaches zero (or stop() is called) ...
  co_await all_done_.async_receive(use_tuple);

  // ... and stop them: idle workers wait on the channel, busy ones (after stop()) are cancelled.
  handoff_.close();
  for (auto& worker_stop : worker_stops_)
    worker_stop.emit(asio::cancellation_type::terminal);
  co_await workers_gone_.async_receive(use_tuple);
  elapsed_ = std::chrono::steady_clock::now() - started;
  if (worker_failure_) std::rethrow_exception(worker_failure_);
}

void crawler::stop() {
  if (stopping_) return;
  stopping_ = true;
  interrupted_ = true;
  all_done_.try_send(error_code{});
}

asio::awaitable<void> crawler::work() {
  while (!stopping_) {
    auto [ec, item] = co_await next_item();
    if (ec) co_return;  // the channel is closed: the crawl is over
    co_await fetch(item);
    if (--unfinished_ == 0) all_done_.try_send(error_code{});
  }
}

asio::awaitable<std::tuple<error_code, crawler::work_item>> crawler::next_item() {
  if (!frontier_.empty()) {
    const auto item = frontier_.front();
    frontier_.pop_front();
    co_return std::tuple{error_code{}, item};
  }
  co_return co_await handoff_.async_receive(use_tuple);
}

asio::awaitable<void> crawler::fetch(work_item item) {
  const auto& entry = urls_[item.url];
  fetch_record record{.url = entry.url};
  if (entry.referrer) record.referrer = urls_[*entry.referrer].url;
  const auto target = split_http_url(entry.url);
  if (!target) {  // roots are checked before the crawl and links by the scope: a bug
    record.error = "not an http(s) URL";
    record.failure = "unsupported";
    finish(item.url, std::move(record));
    co_return;
  }

  http_client::result fetched;
  for (record.tries = 1;; ++record.tries) {
    fetched = co_await client_.get(*target);
    if (stopping_) co_return;
    if (!fetched.ec || !is_retryable(fetched.ec) || record.tries >= options_.max_tries) break;
    spdlog::info("try {} for {} failed: {}", record.tries, entry.url, failure_message(fetched.ec));
  }

  if (fetched.ec) {
    record.error = failure_message(fetched.ec);
    record.failure = failure_kind(fetched.ec);
    spdlog::warn("{} failed after {} {}: {}", entry.url, record.tries,
                 record.tries == 1 ? "try" : "tries", *record.error);
  } else if (is_redirect_status(fetched.response.status)) {
    follow_redirect(item, fetched.response, record);
  } else {
    read_page(item, fetched.response, record);
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
  if (const auto seen = find(*next)) {  // chains that meet are fetched once
    note_link(item.url, *seen);
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
  add_url(*next, item.redirects_left - 1, item.url);
}

void crawler::read_page(const work_item& item, const http_response& response,
                        fetch_record& record) {
  record.status = response.status;
  record.size = response.body.size();
  const auto media = parse_content_type(response.content_type);
  if (!media) return;
  record.content_type = media->type;
  record.encoding = media->charset;
  if (!is_markup(media->type)) return;
  if (!record.encoding) record.encoding = "utf-8";
  if (response.status / 100 != 2) return;  // error pages' links are not the site's

  for (auto& link : extract_links(response.body, record.url)) {
    if (link.size() > max_url_length)
      spdlog::warn("{}: not following a link of {} bytes (the limit is {})", record.url,
                   link.size(), max_url_length);
    if (!scope_.allows(link)) continue;
    ++record.num_urls;
    if (const auto seen = find(link)) {
      note_link(item.url, *seen);
    } else {
      ++record.num_new_urls;
      add_url(std::move(link), options_.max_redirect, item.url);
    }
  }
  if (record.num_urls > 0)
    spdlog::debug("got {} distinct urls from {}", record.num_urls, record.url);
}

void crawler::add_url(std::string url, int redirects_left, std::optional<url_id> referrer) {
  const auto id = static_cast<url_id>(urls_.size());
  auto& entry = urls_.emplace_back(url_entry{.url = std::move(url), .referrer = referrer});
  if (referrer) entry.referrers.push_back(*referrer);
  seen_.emplace(entry.url, id);
  ++unfinished_;
  // Never block a worker on send (workers are the producers too): hand the URL to an idle
  // worker if there is one, else queue it in the frontier that busy workers drain.
  if (!handoff_.try_send(error_code{}, work_item{id, redirects_left}))
    frontier_.push_back({id, redirects_left});
}

void crawler::note_link(url_id from, url_id to) {
  auto& entry = urls_[to];
  if (!entry.finished || entry.broken) entry.referrers.push_back(from);
}

void crawler::finish(url_id id, fetch_record record) {
  auto& entry = urls_[id];
  entry.finished = true;
  entry.broken = is_broken(record);
  if (!entry.broken) std::vector<url_id>{}.swap(entry.referrers);
  records_.push_back(std::move(record));
}

void crawler::worker_exited(std::exception_ptr error) {
  if (error && !stopping_) {
    if (!worker_failure_) worker_failure_ = error;
    stopping_ = true;
    all_done_.try_send(error_code{});
  }
  if (--workers_running_ == 0) workers_gone_.try_send(error_code{});
}

std::optional<crawler::url_id> crawler::find(std::string_view url) const {
  if (const auto it = seen_.find(url); it != seen_.end()) return it->second;
  return std::nullopt;
}

crawl_result crawler::result() const {
  crawl_result result{
      .roots = roots_, .records = records_, .interrupted = interrupted_, .elapsed = elapsed_};
  std::ranges::sort(result.records, {}, &fetch_record::url);
  for (const auto& record : result.records) {
    if (!is_broken(record)) continue;
    const auto& entry = urls_[*find(record.url)];
    broken_link link{.url = record.url, .status = record.status, .error = record.error};
    for (const auto referrer : entry.referrers)
      link.referrers.push_back(urls_[referrer].url);
    std::ranges::sort(link.referrers);
    link.referrers.erase(std::unique(link.referrers.begin(), link.referrers.end()),
                         link.referrers.end());
    result.broken.push_back(std::move(link));
  }
  return result;
}

}  // namespace corocrawl
