#pragma once
// The crawl loop, after the seed's Crawler: `max_tasks` worker coroutines take
// (url, redirects_left) items; a join counter counts URLs enqueued but not yet finished, and
// when it reaches zero the workers are stopped and the crawl returns.
//
// Items wait in a frontier queued per origin, which hands out only what politeness allows
// (max_per_host, rate_limit, Retry-After back-offs); a retry goes back into it.
//
// Everything here runs on one thread (the executor's), so the seen-set, the frontier and
// the records need no locks. Only parsing runs elsewhere: a page's body goes to a pool of
// `threads` threads, and its links come back to the executor's thread.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "corocrawl/crawl.hpp"
#include "corocrawl/options.hpp"
#include "corocrawl/record.hpp"
#include "corocrawl/scope.hpp"
#include "crawl/parse_pool.hpp"
#include "crawl/retry_policy.hpp"
#include "frontier/frontier.hpp"
#include "http/http_client.hpp"
#include "http/request_headers.hpp"
#include "store/crawl_store.hpp"

namespace corocrawl {

class crawler {
 public:
  /// Prepares a crawl of `root_urls` (normalised absolute http(s) URLs without userinfo) with
  /// `options` (whose `roots` are not read); `options`' headers and credentials go to
  /// `root_origins` only (see origins_of). Throws config_error for an exclude pattern that does
  /// not compile, a CA file that does not load or a malformed proxy.
  crawler(boost::asio::any_io_executor executor, const crawl_options& options,
          std::vector<std::string> root_urls, std::vector<root_origin> root_origins);

  /// Crawls until every URL found has been processed, or until stop() or max_time. An
  /// exception in a worker (the environment failed: memory, descriptors...) stops the others
  /// and ends the crawl with its result's `failure` set.
  boost::asio::awaitable<void> crawl();

  /// Ends the crawl early: requests under way are cancelled and the result is marked
  /// interrupted. Call on the executor's thread.
  void stop();

  /// What the crawl found; call once, after crawl() has returned.
  crawl_result result();

 private:
  using url_id = url_table::id;
  using work_item = frontier::item;
  using clock = std::chrono::steady_clock;
  using work_channel =
      boost::asio::experimental::channel<void(boost::system::error_code, work_item)>;
  using event = boost::asio::experimental::channel<void(boost::system::error_code)>;

  boost::asio::awaitable<void> work();
  boost::asio::awaitable<std::tuple<boost::system::error_code, work_item>> next_item();
  boost::asio::awaitable<void> fetch(work_item item);
  void follow_redirect(const work_item& item, const http_response& response, fetch_record& record);
  boost::asio::awaitable<void> read_page(const work_item& item, http_response response,
                                         fetch_record& record);
  void add_url(std::string_view url, int redirects_left, std::optional<url_id> referrer, int depth);
  void enqueue(work_item item, std::optional<clock::time_point> not_before = std::nullopt);
  void dispatch();
  void arm_wake_up();
  void finish(url_id id, fetch_record record);
  void halt();
  void worker_exited(std::exception_ptr error);
  const std::vector<http_header>& headers_for(const http_target& target);

  crawl_options options_;
  std::vector<std::string> roots_;
  std::vector<root_origin> root_origins_;  // where options_' headers and credentials go
  scope scope_;
  http_client client_;
  parse_pool parse_pool_;
  std::stop_source parse_stop_;  // requested when the crawl stops: parses under way end
  std::unordered_map<std::string, std::vector<http_header>> headers_by_origin_;

  // The URLs seen, who links to them, and the records; the result shares it.
  std::shared_ptr<crawl_store> store_ = std::make_shared<crawl_store>();
  frontier frontier_;
  std::uint64_t frontier_peak_ = 0;
  std::uint64_t admitted_ = 0;     // URLs enqueued to be checked (max_urls bounds them)
  bool told_of_max_urls_ = false;  // the warning that max_urls is reached was logged
  retry_policy retries_;
  work_channel handoff_;  // unbuffered: hands an item straight to an idle worker
  static constexpr std::size_t big_page = 512 * 1024;
  event big_page_turn_;             // holds the one turn to parse a page larger than big_page
  int idle_workers_ = 0;            // workers waiting on handoff_
  boost::asio::steady_timer wake_;  // when the frontier will have something for them
  std::size_t unfinished_ = 0;      // the join counter
  event all_done_;                  // the join counter reached zero, or the crawl was halted
  event workers_gone_;              // the last worker returned
  boost::asio::steady_timer time_limit_;

  std::vector<boost::asio::cancellation_signal> worker_stops_;
  int workers_running_ = 0;
  bool stopping_ = false;
  bool interrupted_ = false;
  bool timed_out_ = false;
  std::optional<std::string> failure_;  // why a worker failed, ending the crawl
  std::chrono::duration<double> elapsed_{0};
};

}  // namespace corocrawl
