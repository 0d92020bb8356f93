// The crawl loop with neither sockets nor sleeps: pages are served from memory by a scripted
// fetcher (the network's stand-in; the crawler under test is the real one), and time is
// virtual: it jumps to the next moment something waits for whenever the io_context has
// nothing else to run. Pages are parsed for real, on the parse pool's threads.
#include "crawl/crawler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <map>
#include <stdexcept>

#include "corocrawl/plan.hpp"
#include "manual_clock.hpp"

namespace corocrawl {
namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using boost::system::error_code;
using time_point = crawl_clock::time_point;
using testing::manual_clock;

const std::string site = "http://site.test";

// One answer of the scripted site.
struct answer {
  unsigned status = 200;
  std::vector<std::string> links;  // the page's body links to these
  std::string location;
  std::string retry_after;
  error_code network_error;  // set: no response
  bool throws = false;       // the environment fails: get() throws
  crawl_clock::duration takes{0};
  // A GET's body announced this long as its response begins (told to the crawler's sink, as
  // the HTTP client tells it a Content-Length), before the `takes` the body takes to come.
  std::uint64_t announced = 0;
};

// A site in memory. A path's answers are given in turn, the last one again and again; paths
// without answers are 404. It records when each request came and how many were under way.
class scripted_fetcher final : public fetcher {
 public:
  explicit scripted_fetcher(crawl_clock& clock) : clock_(clock) {}

  void add(const std::string& path, std::vector<answer> answers) {
    answers_[site + path] = std::move(answers);
  }

  asio::awaitable<http_client::result> get(const http_target& target, std::span<const http_header>,
                                           fetch_mode mode, body_sink* sink) override {
    modes_.push_back(mode);
    const std::string url = (target.https ? "https://" : "http://") + target.host + target.target;
    requests_[url].push_back(clock_.now());
    arrivals_.push_back({clock_.now(), in_flight_});
    ++in_flight_;
    peak_in_flight_ = std::max(peak_in_flight_, in_flight_);
    const auto& script = answers_[url];
    const answer given = script.empty()
                             ? answer{.status = 404}
                             : script[std::min(requests_[url].size(), script.size()) - 1];
    if (given.throws) throw std::runtime_error("no file descriptor left");
    if (sink != nullptr && given.announced > 0 && mode != fetch_mode::head) {
      EXPECT_FALSE(sink->take("text/html", given.announced));  // kept whole, not taken
    }
    const bool whole =
        given.takes.count() == 0 || co_await clock_.wait_until(clock_.now() + given.takes);
    --in_flight_;
    http_client::result result;
    if (!whole) {
      result.ec = asio::error::operation_aborted;
      result.error = "cancelled";
    } else if (given.network_error) {
      result.ec = given.network_error;
      result.error = given.network_error.message();
    } else {
      result.response.status = given.status;
      result.response.location = given.location;
      result.response.retry_after = given.retry_after;
      result.response.content_type = "text/html";
      if (mode != fetch_mode::head) {
        for (const auto& link : given.links)
          result.response.body += "<a href=\"" + link + "\">x</a>\n";
      }
    }
    co_return result;
  }

  std::uint64_t requests() const override {
    std::uint64_t n = 0;
    for (const auto& [url, times] : requests_)
      n += times.size();
    return n;
  }
  std::uint64_t connections() const override { return 0; }

  /// When the requests for `path` came.
  std::vector<time_point> requests_for(const std::string& path) const {
    const auto it = requests_.find(site + path);
    return it == requests_.end() ? std::vector<time_point>{} : it->second;
  }
  int peak_in_flight() const { return peak_in_flight_; }
  /// When each request came, and how many others were under way then, in the order they came.
  struct arrival {
    time_point when;
    int under_way;
  };
  const std::vector<arrival>& arrivals() const { return arrivals_; }
  /// The mode of each request, in the order they came.
  const std::vector<fetch_mode>& modes() const { return modes_; }

 private:
  std::vector<fetch_mode> modes_;
  crawl_clock& clock_;
  std::map<std::string, std::vector<answer>> answers_;
  std::map<std::string, std::vector<time_point>> requests_;
  std::vector<arrival> arrivals_;
  int in_flight_ = 0;
  int peak_in_flight_ = 0;
};

class CrawlerTest : public ::testing::Test {
 protected:
  CrawlerTest() {
    options_.max_tasks = 4;
    options_.threads = 1;
  }

  /// Crawls the site from "/" in virtual time; `during` runs beside the crawl.
  crawl_result crawl(std::function<asio::awaitable<void>(crawler&)> during = {}) {
    crawl_options options = options_;
    options.roots = {site + "/"};  // what a plan needs; the crawler takes its roots apart
    crawler c{fetcher_, clock_, make_plan(options), {site + "/"}, {}};
    bool done = false;
    std::exception_ptr error;
    asio::co_spawn(io_, c.crawl(), [&](std::exception_ptr e) {
      done = true;
      error = e;
    });
    if (during) asio::co_spawn(io_, during(c), asio::detached);
    while (!done) {
      io_.restart();
      if (io_.poll() > 0) continue;
      if (c.parsing() > 0) {
        io_.run_one();  // a parse ends in real time, on another thread
        continue;
      }
      if (!clock_.advance()) throw std::logic_error("the crawl waits for nothing and never ends");
    }
    if (error) std::rethrow_exception(error);
    return c.result();
  }

  /// The record of `path`, if it was fetched.
  static std::optional<fetch_record> find(const crawl_result& result, const std::string& path) {
    for (const auto& record : result.records)
      if (record.url == site + path) return record;
    return std::nullopt;
  }

  asio::io_context io_{1};
  manual_clock clock_;
  scripted_fetcher fetcher_{clock_};
  crawl_options options_;
};

TEST_F(CrawlerTest, LinksAreFollowedAndTheJoinEndsTheCrawl) {
  fetcher_.add("/", {{.links = {"/a", "/b"}}});
  fetcher_.add("/a", {{.links = {"/b", "/c", "/"}}});
  fetcher_.add("/b", {{}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 4u);
  ASSERT_EQ(result.broken.size(), 1u);
  EXPECT_EQ(result.broken[0].url, site + "/c");
  EXPECT_EQ(result.broken[0].referrers, std::vector{site + "/a"});
  for (const auto* path : {"/", "/a", "/b", "/c"})
    EXPECT_EQ(fetcher_.requests_for(path).size(), 1u) << path;
  EXPECT_EQ(result.elapsed.count(), 0);  // nothing waited
  EXPECT_FALSE(result.interrupted || result.timed_out || result.failure);
  EXPECT_TRUE(result.unchecked.empty());
}

// A server nearby sends pages faster than they are parsed. Once the bodies announced by the
// fetches under way pass 2 MiB, no request starts until they are down to 1 MiB (two pages of
// 400 KiB here): requests come in bursts, each begun when at most two pages are under way.
TEST_F(CrawlerTest, NoRequestStartsWhileTheBodiesUnderWayAreTooMany) {
  options_.max_tasks = 16;
  options_.max_per_host = 16;
  std::vector<std::string> pages;
  for (int i = 0; i < 48; ++i) {
    pages.push_back("/p" + std::to_string(i));
    fetcher_.add(pages.back(),
                 {{.takes = std::chrono::milliseconds(1 + i % 7), .announced = 400 * 1024}});
  }
  fetcher_.add("/", {{.links = pages}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 49u);
  EXPECT_TRUE(result.broken.empty());
  const auto& arrivals = fetcher_.arrivals();  // /robots.txt, /, then the pages
  ASSERT_EQ(arrivals.size(), 50u);
  EXPECT_EQ(fetcher_.peak_in_flight(), 16);  // the first burst: its bodies were not announced
  int bursts = 0;
  for (std::size_t i = 3; i < arrivals.size(); ++i) {
    if (arrivals[i].when == arrivals[i - 1].when) continue;  // the same burst
    ++bursts;
    EXPECT_LE(arrivals[i].under_way, 2) << "request " << i;
  }
  EXPECT_GE(bursts, 2);
}

TEST_F(CrawlerTest, NetworkErrorsAreRetriedAfterGrowingBackOffs) {
  const answer refused{.network_error = asio::error::connection_refused};
  fetcher_.add("/", {{.links = {"/flaky"}}});
  fetcher_.add("/flaky", {refused, refused, {}});
  const auto result = crawl();
  ASSERT_TRUE(find(result, "/flaky"));
  EXPECT_EQ(find(result, "/flaky")->status, 200u);
  EXPECT_EQ(find(result, "/flaky")->tries, 3);
  const auto times = fetcher_.requests_for("/flaky");
  ASSERT_EQ(times.size(), 3u);
  // Each wait is between half the nominal delay (250 ms, then 500 ms) and all of it.
  EXPECT_GE(times[1] - times[0], 125ms);
  EXPECT_LE(times[1] - times[0], 250ms);
  EXPECT_GE(times[2] - times[1], 250ms);
  EXPECT_LE(times[2] - times[1], 500ms);
}

TEST_F(CrawlerTest, NetworkErrorsEndAfterMaxTries) {
  options_.max_tries = 2;
  fetcher_.add("/", {{.network_error = asio::error::connection_reset}});
  const auto result = crawl();
  ASSERT_TRUE(find(result, "/"));
  EXPECT_EQ(find(result, "/")->tries, 2);
  EXPECT_FALSE(find(result, "/")->status);
  EXPECT_EQ(fetcher_.requests_for("/").size(), 2u);
}

TEST_F(CrawlerTest, A503WithRetryAfterBacksOffTheWholeOrigin) {
  options_.max_per_host = 1;  // "/busy" is asked before "/other"
  fetcher_.add("/", {{.links = {"/busy", "/other"}}});
  fetcher_.add("/busy", {{.status = 503, .retry_after = "3"}, {}});
  fetcher_.add("/other", {{}});
  const auto result = crawl();
  EXPECT_EQ(find(result, "/busy")->status, 200u);
  EXPECT_EQ(find(result, "/busy")->tries, 2);
  const auto busy = fetcher_.requests_for("/busy");
  ASSERT_EQ(busy.size(), 2u);
  EXPECT_EQ(busy[1] - busy[0], 3s);
  // The origin was left alone for those 3 s: "/other" waited too.
  ASSERT_EQ(fetcher_.requests_for("/other").size(), 1u);
  EXPECT_GE(fetcher_.requests_for("/other")[0] - busy[0], 3s);
}

TEST_F(CrawlerTest, A429ToTheLastTryIsLeftRateLimited) {
  fetcher_.add("/", {{.links = {"/limited"}}});
  fetcher_.add("/limited", {{.status = 429, .retry_after = "2"}});
  const auto result = crawl();
  EXPECT_EQ(find(result, "/limited")->status, 429u);
  EXPECT_EQ(find(result, "/limited")->tries, options_.max_tries);
  ASSERT_EQ(result.rate_limited.size(), 1u);
  EXPECT_EQ(result.rate_limited[0].url, site + "/limited");
  EXPECT_EQ(result.rate_limited[0].referrers, std::vector{site + "/"});
  EXPECT_TRUE(result.broken.empty());
  EXPECT_EQ(result.elapsed, 2s * (options_.max_tries - 1));
}

TEST_F(CrawlerTest, RedirectsAreRecordedAndTheirTargetsFetched) {
  fetcher_.add("/", {{.links = {"/old", "/older"}}});
  fetcher_.add("/older", {{.status = 301, .location = "/old"}});
  fetcher_.add("/old", {{.status = 302, .location = "/new"}});
  fetcher_.add("/new", {{}});
  const auto result = crawl();
  EXPECT_EQ(find(result, "/old")->next_url, site + "/new");
  EXPECT_EQ(find(result, "/older")->next_url, site + "/old");
  EXPECT_EQ(find(result, "/new")->status, 200u);
  for (const auto* path : {"/old", "/older", "/new"})  // chains that meet: fetched once
    EXPECT_EQ(fetcher_.requests_for(path).size(), 1u) << path;
  EXPECT_TRUE(result.broken.empty());
}

TEST_F(CrawlerTest, RedirectLoopsAndTheRedirectLimitAreBroken) {
  options_.max_redirect = 1;
  fetcher_.add("/", {{.links = {"/x", "/r1"}}});
  fetcher_.add("/x", {{.status = 302, .location = "/y"}});
  fetcher_.add("/y", {{.status = 302, .location = "/x"}});
  fetcher_.add("/r1", {{.status = 302, .location = "/r2"}});
  fetcher_.add("/r2", {{.status = 302, .location = "/r3"}});
  const auto result = crawl();
  EXPECT_EQ(find(result, "/y")->error, "redirect loop");
  EXPECT_EQ(fetcher_.requests_for("/x").size(), 1u);
  EXPECT_EQ(find(result, "/r2")->error, "redirect limit reached");
  EXPECT_TRUE(fetcher_.requests_for("/r3").empty());
}

TEST_F(CrawlerTest, MaxDepthBoundsTheLinksFollowed) {
  options_.max_depth = 1;
  fetcher_.add("/", {{.links = {"/1"}}});
  fetcher_.add("/1", {{.links = {"/2"}}});
  fetcher_.add("/2", {{}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 2u);
  EXPECT_EQ(find(result, "/1")->num_urls, 1u);
  EXPECT_EQ(find(result, "/1")->num_new_urls, 0u);
  EXPECT_TRUE(fetcher_.requests_for("/2").empty());
}

TEST_F(CrawlerTest, MaxUrlsLeavesTheRestUnchecked) {
  options_.max_urls = 2;
  fetcher_.add("/", {{.links = {"/a", "/b", "/c"}}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 2u);
  ASSERT_EQ(result.unchecked.size(), 2u);
  EXPECT_EQ(result.unchecked[0].url, site + "/b");
  EXPECT_EQ(result.unchecked[1].url, site + "/c");
  EXPECT_EQ(result.unchecked[0].referrer, site + "/");
}

// A chain of pages each taking a second to come.
void add_slow_chain(scripted_fetcher& fetcher, int length) {
  fetcher.add("/", {{.links = {"/p1"}, .takes = 1s}});
  for (int i = 1; i < length; ++i)
    fetcher.add("/p" + std::to_string(i), {{.links = {"/p" + std::to_string(i + 1)}, .takes = 1s}});
}

TEST_F(CrawlerTest, MaxTimeStopsTheCrawlWithTheRestUnchecked) {
  options_.max_time = 3500ms;
  add_slow_chain(fetcher_, 10);
  const auto result = crawl();
  EXPECT_TRUE(result.timed_out);
  EXPECT_FALSE(result.interrupted);
  EXPECT_EQ(result.elapsed, 3500ms);
  EXPECT_EQ(result.records.size(), 3u);  // "/", "/p1", "/p2"; "/p3" was under way
  ASSERT_EQ(result.unchecked.size(), 1u);
  EXPECT_EQ(result.unchecked[0].url, site + "/p3");
}

TEST_F(CrawlerTest, StopEndsTheCrawlInterrupted) {
  add_slow_chain(fetcher_, 10);
  const auto result = crawl([this](crawler& c) -> asio::awaitable<void> {
    co_await clock_.wait_until(clock_.start + 2500ms);
    c.stop();
  });
  EXPECT_TRUE(result.interrupted);
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.elapsed, 2500ms);
  EXPECT_EQ(result.records.size(), 2u);
  ASSERT_EQ(result.unchecked.size(), 1u);
  EXPECT_EQ(result.unchecked[0].url, site + "/p2");
}

TEST_F(CrawlerTest, AFetcherThatThrowsEndsTheCrawlWithAFailure) {
  fetcher_.add("/", {{.links = {"/boom", "/slow"}}});
  fetcher_.add("/boom", {{.throws = true}});
  fetcher_.add("/slow", {{.takes = 10s}});
  const auto result = crawl();
  EXPECT_EQ(result.failure, "no file descriptor left");
  EXPECT_FALSE(result.interrupted);
  EXPECT_EQ(result.elapsed.count(), 0);  // "/slow" was cancelled
  EXPECT_EQ(result.records.size(), 1u);
}

TEST_F(CrawlerTest, RateLimitSpacesTheRequestsToAnOrigin) {
  options_.rate_limit = 2;
  fetcher_.add("/", {{.links = {"/1", "/2", "/3", "/4"}}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 5u);
  std::vector<time_point> times;
  for (const auto* path : {"/", "/1", "/2", "/3", "/4"})
    times.push_back(fetcher_.requests_for(path).at(0));
  std::sort(times.begin(), times.end());
  for (std::size_t i = 1; i < times.size(); ++i)
    EXPECT_EQ(times[i] - times[i - 1], 500ms) << i;
}

TEST_F(CrawlerTest, MaxPerHostBoundsTheRequestsUnderWay) {
  options_.max_tasks = 8;
  options_.max_per_host = 2;
  std::vector<std::string> links;
  for (int i = 0; i < 6; ++i)
    links.push_back("/" + std::to_string(i));
  fetcher_.add("/", {{.links = links}});
  for (const auto& link : links)
    fetcher_.add(link, {{.takes = 1s}});
  const auto result = crawl();
  EXPECT_EQ(result.records.size(), 7u);
  EXPECT_EQ(fetcher_.peak_in_flight(), 2);
  EXPECT_EQ(result.elapsed, 3s);  // six pages, two at a time
}

}  // namespace
}  // namespace corocrawl
