#pragma once
// The crawl loop, after "A Web Crawler With asyncio Coroutines" (500 Lines or Less):
// `max_tasks` worker coroutines pop (url, redirects_left) items from a frontier shaped like
// asyncio.Queue, fetch them and push the URLs they lead to; when the frontier's join counter
// reaches zero the workers are stopped and the crawl returns.
//
// The frontier hands out only what politeness allows (max_per_host, rate_limit, Retry-After
// back-offs); a retry goes back into it for later. Requests go to a fetcher and time is read
// from a crawl_clock, so that tests run crawls with neither sockets nor sleeps.
//
// Everything here runs on one thread (the executor's), so the seen-set, the frontier and
// the records need no locks. Only parsing runs elsewhere: a page's body goes to a pool of
// `threads` threads (or, when the event loop is idle, to parse_one_here), and its links come
// back to the executor's thread.

#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "corocrawl/crawl.hpp"
#include "corocrawl/options.hpp"
#include "corocrawl/plan.hpp"
#include "corocrawl/record.hpp"
#include "crawl/fetcher.hpp"
#include "crawl/parse_pool.hpp"
#include "crawl/retry_policy.hpp"
#include "frontier/awaitable_frontier.hpp"
#include "frontier/crawl_clock.hpp"
#include "html/links.hpp"
#include "http/http_client.hpp"
#include "http/request_headers.hpp"
#include "robots/robots_txt.hpp"
#include "sitemap/sitemap_xml.hpp"
#include "store/crawl_store.hpp"
#include "sys/memory_reserve.hpp"
#include "url/http_url.hpp"
#include "url/scope.hpp"
#include "url/url_alias.hpp"

namespace corocrawl {

class link_cache;

/// The HTTP client's settings for a crawl as `plan` says: the plan's, with a connection cap
/// for the file descriptors the process may open now (connection_cap).
http_client_options client_options(const crawl_plan& plan);

/// How a URL is checked: crawled, or `external` (checked only); GET, or `resource` (HEAD
/// first).
struct url_role {
  bool external = false;
  bool resource = false;
};

class crawler {
 public:
  /// Prepares a crawl of `root_urls` (normalised absolute http(s) URLs without userinfo) as
  /// `plan` says (its roots are not read), sending requests to `fetcher` and reading time
  /// from `clock` (both outlive the crawler); the plan's headers and credentials go to
  /// `root_origins` only (the plan's, and those of the directories served for it).
  /// Links and redirects to an alias's `from` are taken as going to its `to`. With a `cache`
  /// (which outlives the crawler), an external URL it holds a young success for is taken from
  /// it instead of fetched, and the successes of the external URLs fetched are remembered in
  /// it.
  crawler(fetcher& fetcher, crawl_clock& clock, crawl_plan plan, std::vector<std::string> root_urls,
          std::vector<root_origin> root_origins, std::vector<url_alias> aliases = {},
          link_cache* cache = nullptr);

  /// Crawls until every URL found has been processed, or until stop() or max_time. An
  /// exception in a worker (the environment failed: memory, descriptors...) stops the others
  /// and ends the crawl with its result's `failure` set.
  boost::asio::awaitable<void> crawl();

  /// Ends the crawl early: requests under way are cancelled and the result is marked
  /// interrupted. Call on the executor's thread.
  void stop();

  /// Ends the crawl because the environment failed it (`error`: memory ran out, no
  /// descriptor was left): as stop(), but the result's `failure` says why. Only the first
  /// failure counts, and none once the crawl is ending. Call on the executor's thread.
  void fail(std::exception_ptr error);

  /// Pages handed to the parse pool whose links have not come back yet (time spent there is
  /// spent outside the executor).
  std::size_t parsing() const { return parsing_; }

  /// Parses one waiting page on the calling thread, the executor's, when the event loop has
  /// nothing else to do; returns whether there was one.
  bool parse_one_here() { return parse_pool_.run_one_here(); }

  /// How far the crawl has got (`elapsed` left zero). Call on the executor's thread.
  crawl_progress progress() const;

  /// What the crawl found; call once, after crawl() has returned.
  crawl_result result();

 private:
  using url_id = url_table::id;
  using work_item = awaitable_frontier::item;
  using origin_id = awaitable_frontier::origin_id;
  using time_point = crawl_clock::time_point;

  /// A coroutine of the crawl's (a worker, or read_sitemaps()): halt() cancels it through
  /// `stop` while it is `present`, from its start until its frame is destroyed.
  struct worker {
    boost::asio::cancellation_signal stop;
    bool present = true;
  };
  /// Counts its worker gone as the worker's frame is destroyed, however that comes: the
  /// worker returned, or Asio destroyed it (see start_worker).
  class worker_presence {
   public:
    worker_presence(crawler& owner, worker& self) : owner_(owner), self_(self) {}
    worker_presence(const worker_presence&) = delete;
    worker_presence& operator=(const worker_presence&) = delete;
    ~worker_presence();

   private:
    crawler& owner_;
    worker& self_;
  };
  /// Runs `task` as a worker on executor_; an exception that leaves it fails the crawl.
  void start_worker(boost::asio::awaitable<void> task);
  boost::asio::awaitable<void> as_worker(worker& self, boost::asio::awaitable<void> task);
  bool any_worker_present() const;
  /// Returns once no worker is present.
  boost::asio::awaitable<void> workers_ended();
  /// Waits until the join counter reaches zero, or max_time, stop() or a failed worker halts
  /// the crawl; then closes the frontier.
  boost::asio::awaitable<void> close_when_done(time_point started);
  boost::asio::awaitable<void> work();
  boost::asio::awaitable<void> fetch(work_item item);
  /// What `record` means: broken, a warning, rate limited or ok.
  verdict verdict_of(const fetch_record& record) const;
  boost::asio::awaitable<void> stop_at(time_point deadline);
  bool retry_later(const work_item& item, const http_client::result& fetched);
  /// `url` as the aliases have it: rewritten into `scratch` when one applies.
  std::string_view unaliased(std::string_view url, std::string& scratch) const {
    for (const url_alias& alias : aliases_)
      if (alias.rewrite(url, scratch)) return scratch;
    return url;
  }
  static failed_try failed_try_of(const http_client::result& fetched);
  /// A request outside the frontier (robots.txt, a sitemap), tried again as retries_ says,
  /// waiting in place; the last answer and how many tries it took. Returns at once when the
  /// crawl stops.
  struct retried {
    http_client::result fetched;
    int tries = 0;
  };
  boost::asio::awaitable<retried> fetch_retrying(const http_target& target, fetch_mode mode);
  void follow_redirect(const work_item& item, const http_response& response, fetch_record& record);
  /// A page's references, and whether a pool thread built them (then parse_pool::free_on_pool
  /// frees them once read).
  struct parsed_page {
    page_links page;
    bool on_pool = false;
  };
  /// Records what `response` is and, for a page of the site, follows its references; an HTML
  /// page parsed completely, when `whole` (its body was read to its end), gives the store its
  /// anchors first, so that its references to itself are checked at once. `read_already`: the
  /// page, when its body went to a page_sink, which read it as it came or whole.
  boost::asio::awaitable<void> read_page(const work_item& item, http_response response,
                                         fetch_record& record, bool whole,
                                         std::optional<parsed_page> read_already);
  /// The references of a page or stylesheet, read on the parse pool; `charset` is its
  /// Content-Type's.
  boost::asio::awaitable<parsed_page> parse(std::string body, const std::string& page_url,
                                            std::string charset, bool stylesheet);
  /// The references of a page read as its body came (page_in_pieces::finish), on the pool.
  boost::asio::awaitable<parsed_page> parse(page_in_pieces page);
  struct parse_job;
  /// Runs `job` on the pool as its weight allows; a stop of the crawl ends it.
  boost::asio::awaitable<parsed_page> run_parse(parse_job job);
  /// Counts a body of `bytes` in bodies_held_ while it lives, pausing and resuming the
  /// frontier as it passes the bounds (see bodies_held_).
  class body_hold {
   public:
    body_hold(crawler& owner, std::size_t bytes);
    ~body_hold();
    body_hold(const body_hold&) = delete;
    body_hold& operator=(const body_hold&) = delete;

   private:
    crawler& owner_;
    std::size_t bytes_;
  };
  /// Takes the body of a big HTML page of the site as it arrives, to be read in pieces
  /// (page_in_pieces) rather than held whole: bodies announced larger than big_page. The
  /// references of each chunk read are taken in as it comes (take_read). An HTML page up to
  /// big_page whose body has all come already it reads whole on a parse thread, with the
  /// page's parse (read_waiting). A body it does not take is counted in bodies_held_ until
  /// the fetch ends, as one it reads whole is.
  class page_sink final : public body_sink {
   public:
    // `item` and `url` (the store's text) outlive the sink.
    page_sink(crawler& owner, const work_item& item, std::string_view url)
        : page_url(url), owner_(owner), item_(item) {}
    bool take(std::string_view content_type, std::uint64_t length) override;
    void add(std::string_view bytes) override;
    bool reads_waiting(std::string_view content_type, std::uint64_t length) override;
    boost::asio::awaitable<bool> read_waiting(std::string first, waiting_body rest) override;
    std::string_view page_url;
    std::optional<page_in_pieces> page;     // once taken
    std::optional<parsed_page> read_whole;  // once read by read_waiting

   private:
    /// Counts a body of announced `length` kept whole (or read whole) in held_.
    void hold(std::uint64_t length);

    crawler& owner_;
    const work_item& item_;
    std::optional<body_hold> held_;  // a body not taken, counted until the fetch ends
    std::string charset_;            // of the body reads_waiting took, by its Content-Type
  };
  /// What fetch_record counts of a page's links.
  struct link_counts {
    std::size_t urls = 0;      // distinct in-scope links
    std::size_t new_urls = 0;  // of those, not seen before
  };
  /// What was taken in of a page read in pieces as its chunks came: kept from its first
  /// fetch until it is finished, since a retry, or a fetch again to read it whole, reads it
  /// again from its start. The references at its tags up to the last place taken were taken
  /// (references in CSS come only with the page's end).
  struct pieces_taken {
    std::unordered_set<url_id> links;                    // noted as linked from the page
    std::unordered_set<std::string> too_deep;            // in scope, counted, not added
    std::pair<std::uint32_t, std::uint32_t> last{0, 0};  // the last place taken (line, column)
    link_counts counts;
  };
  /// Takes in the links and references of `page`, of item `item`: the URLs it references
  /// are added or noted as linked, with the places of their references. With `taken` (a page
  /// read in pieces), a link taken before is not noted again, nor a reference at a place
  /// taken before.
  void take_references(const work_item& item, const page_links& page, link_counts& counts,
                       pieces_taken* taken);
  /// Takes in a link of page `page` (`depth` hops from a root): the id of the URL it
  /// references when that is checked (in scope, or external and checked), else nullopt.
  std::optional<url_id> take_link(const page_link& link, url_id page, int depth, bool too_deep,
                                  link_counts& counts, pieces_taken* taken);
  // robots.txt and sitemaps (crawler_robots.cpp, crawler_sitemaps.cpp).
  struct robots_state {
    enum { unknown, fetching, ready, failed } what = unknown;
    robots_rules rules;   // when ready
    std::string problem;  // when failed: why
    // When failed because the host is unreachable (refused, not found): its URLs fail so too.
    std::optional<fetch_failure> unreachable;
    std::string error;  // (unreachable) the failure, in words
    int tries = 0;
    std::optional<boost::asio::steady_timer> fetched;  // cancelled when no longer fetching
  };
  /// The robots.txt of `origin`, of which `target` is one URL: fetched by the first caller,
  /// waited for by the others.
  boost::asio::awaitable<const robots_state*> robots_for(origin_id origin,
                                                         const http_target& target);
  boost::asio::awaitable<void> fetch_robots(robots_state& state, const http_target& origin);
  boost::asio::awaitable<bool> robots_allow(const work_item& item, const http_target& target);
  bool reads_sitemaps() const;
  boost::asio::awaitable<void> read_sitemaps();
  boost::asio::awaitable<void> read_sitemap(const std::string& url, std::deque<std::string>& more);
  void take_sitemap(const std::string& url, const sitemap& listed, std::deque<std::string>& more);

  /// Whether an out-of-scope `url` is checked: external checks are on and it is not excluded.
  bool checks_external(const http_url& url) const;
  url_id add_url(const http_url& url, int redirects_left, std::optional<url_id> referrer, int depth,
                 url_role role = {});
  /// Finishes external URL `id` with the cache's entry for it, when it holds a young one.
  bool take_from_cache(url_id id);
  void halt();
  /// The headers for requests to `origin`, of which `target` is one, worked out once.
  const std::vector<http_header>& headers_for(origin_id origin, const http_target& target);

  crawl_plan plan_;
  const crawl_options& options_ = plan_.options();  // checked
  std::vector<std::string> roots_;
  std::vector<root_origin> root_origins_;  // where options_' headers and credentials go
  std::vector<url_alias> aliases_;
  std::string aliased_;  // take_link's scratch: a link as an alias rewrote it
  scope scope_;
  fetcher& fetcher_;
  crawl_clock& clock_;
  link_cache* cache_;  // none without --cache
  parse_pool parse_pool_;
  // Pages larger than big_page are parsed one at a time: a parse tree takes about ten times
  // its page's size, so no two of their trees are in memory at once.
  static constexpr std::size_t big_page = 512 * 1024;
  // A page kept whole, up to big_page, is a light job (parse_pool): the event loop's thread
  // may parse it when idle, and a pool thread parsing it writes the loop's requests. That
  // takes under a millisecond for the Python docs' pages of 256 to 512 KiB, and about 60 to
  // 80 ms for 512 KiB of the slowest hostile markup we know (nested MathML), which a
  // request's time limit does not notice. Bounded at 128 KiB, the loop's thread sat idle
  // while the pool parsed larger pages: the Python docs' crawl took 3-5% longer.
  // Pages up to small_page stay in their parse job, to be freed on the loop's thread, which
  // allocated them.
  static constexpr std::size_t small_page = 128 * 1024;
  std::stop_source parse_stop_;  // requested when the crawl stops: parses under way end
  std::size_t parsing_ = 0;
  // The bytes of the page and stylesheet bodies announced (as a Content-Length, not taken
  // by a page_sink) by fetches under way. A server nearby sends pages faster than the cores
  // parse them, and every worker would hold one, max_per_host bodies at once, most of them
  // waiting for the pool: above pause_above the frontier hands out no URL until they fall to
  // resume_at (half, so that the pool catches up rather than the bound being crossed with
  // every page). A fetch under way when the frontier pauses still reads its body.
  static constexpr std::size_t bodies_pause_above = 2 * 1024 * 1024;
  static constexpr std::size_t bodies_resume_at = bodies_pause_above / 2;
  std::size_t bodies_held_ = 0;
  std::unordered_map<url_id, pieces_taken> pieces_taken_;  // by page read in pieces

  // By origin_id; a deque, so that the headers of an origin stay in place as origins come.
  std::deque<std::optional<std::vector<http_header>>> headers_by_origin_;
  std::deque<robots_state> robots_;    // by origin_id
  std::vector<url_id> sitemap_pages_;  // the pages the sitemaps list
  std::size_t root_count_ = 0;         // the roots are the first URLs added

  // The URLs seen, who links to them, and the records; the result shares it.
  std::shared_ptr<crawl_store> store_ = std::make_shared<crawl_store>();
  awaitable_frontier frontier_;
  std::uint64_t admitted_ = 0;     // URLs enqueued to be checked (max_urls bounds them)
  bool told_of_max_urls_ = false;  // the warning that max_urls is reached was logged
  retry_policy retries_;

  std::optional<boost::asio::any_io_executor> executor_;  // the crawl's, once it has started
  std::deque<worker> workers_;  // a deque: they stay in place as they are added
  std::optional<boost::asio::steady_timer> workers_ended_;  // cancelled as the last one goes
  bool stopping_ = false;
  bool interrupted_ = false;
  bool timed_out_ = false;
  std::optional<std::string> failure_;  // why a worker failed, ending the crawl
  // Given back when the crawl fails or its result is made, and a MiB of it by each allocation
  // that fails meanwhile, on any thread (see memory_reserve): 32 MiB let a crawl of a million
  // URLs that failed for memory under an address space limit still stop its workers, and
  // order and list its URLs.
  memory_reserve reserve_{std::size_t{32} << 20};
  reserve_on_allocation_failure reserve_armed_{reserve_};
  std::chrono::duration<double> elapsed_{0};
};

}  // namespace corocrawl
