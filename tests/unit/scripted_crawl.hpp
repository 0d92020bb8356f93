#pragma once
// The crawl loop with neither sockets nor sleeps: pages are served from memory by a scripted
// fetcher (the network's stand-in; the crawler under test is the real one), and time is
// virtual: it jumps to the next moment something waits for whenever the io_context has
// nothing else to run. Pages are parsed for real, on the parse pool's threads.

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <functional>
#include <map>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "corocrawl/plan.hpp"
#include "crawl/crawler.hpp"
#include "manual_clock.hpp"

namespace corocrawl::testing {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using boost::system::error_code;
using time_point = crawl_clock::time_point;

inline const std::string site = "http://site.test";

// One answer of the scripted site.
struct answer {
  unsigned status = 200;
  std::vector<std::string> links;  // the page's body links to these
  std::string location;
  std::string retry_after;
  error_code network_error;  // set: no response
  bool throws = false;       // the environment fails: get() throws
  // The environment fails as get() starts an operation: awaited alone, or (`beside`) raced
  // against a wait by an awaitable operator, which runs it in a coroutine of its own.
  enum class start { ok, fails, fails_beside } starts = start::ok;
  crawl_clock::duration takes{0};
  // A GET's body announced this long as its response begins (told to the crawler's sink, as
  // the HTTP client tells it a Content-Length), before the `takes` the body takes to come.
  std::uint64_t announced = 0;
};

// An operation whose start fails, as an operation's does when memory runs out as Asio
// allocates it: Asio 1.81 destroys the awaiting coroutine without resuming it, and the
// exception leaves the handler that was running, on the event loop.
inline asio::awaitable<void> operation_that_cannot_start() {
  co_await asio::async_initiate<const asio::use_awaitable_t<>, void()>(
      [](auto&&) { throw std::bad_alloc(); }, asio::use_awaitable);
}

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
    if (given.starts == answer::start::fails) co_await operation_that_cannot_start();
    if (given.starts == answer::start::fails_beside) {
      using namespace asio::experimental::awaitable_operators;
      co_await (operation_that_cannot_start() || clock_.wait_until(clock_.now() + 1s));
    }
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
      try {
        if (io_.poll() > 0) continue;
        if (c.parsing() > 0) {
          io_.run_one();  // a parse ends in real time, on another thread
          continue;
        }
      } catch (const std::exception&) {  // as in run_crawl: a handler's exception fails the crawl
        c.fail(std::current_exception());
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

}  // namespace corocrawl::testing
