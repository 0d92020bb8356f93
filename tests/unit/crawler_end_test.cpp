// How a crawl ends before its work is done: its time limit, stop(), and the environment
// failing a worker, with the crawl loop of scripted_crawl.hpp.
#include <gtest/gtest.h>

#include "scripted_crawl.hpp"

namespace corocrawl {
namespace {

namespace asio = boost::asio;
using testing::answer;
using testing::CrawlerTest;
using testing::scripted_fetcher;
using testing::site;
using namespace std::chrono_literals;

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

// A worker whose operation cannot start is gone, and the exception leaving the event loop is
// all the crawler hears of it: the crawl still cancels its other workers and ends, failed, with
// the URLs under way unchecked.
class CrawlerWithAnOperationThatCannotStart : public CrawlerTest {
 protected:
  void crawl_and_expect_a_failure(answer::start starts) {
    fetcher_.add("/", {{.links = {"/vanishes", "/slow", "/slow2"}}});
    fetcher_.add("/vanishes", {{.starts = starts}});
    fetcher_.add("/slow", {{.takes = 10s}});
    fetcher_.add("/slow2", {{.takes = 10s}});
    const auto result = crawl();
    EXPECT_EQ(result.failure, "out of memory");
    EXPECT_FALSE(result.interrupted);
    EXPECT_EQ(result.elapsed.count(), 0);  // "/slow" and "/slow2" were cancelled
    EXPECT_EQ(result.records.size(), 1u);
    EXPECT_EQ(result.unchecked.size(), 3u);
  }
};

TEST_F(CrawlerWithAnOperationThatCannotStart, AwaitedAloneEndsTheCrawlWithAFailure) {
  crawl_and_expect_a_failure(answer::start::fails);
}

TEST_F(CrawlerWithAnOperationThatCannotStart, RacedAgainstAWaitEndsTheCrawlWithAFailure) {
  crawl_and_expect_a_failure(answer::start::fails_beside);
}

// Every worker gone so: the crawl ends, failed, as the last one goes.
TEST_F(CrawlerWithAnOperationThatCannotStart, InEveryWorkerEndsTheCrawlWithAFailure) {
  std::vector<std::string> pages;
  for (int i = 0; i < 8; ++i) {
    pages.push_back("/v" + std::to_string(i));
    fetcher_.add(pages.back(), {{.starts = answer::start::fails}});
  }
  fetcher_.add("/", {{.links = pages}});
  const auto result = crawl();
  EXPECT_EQ(result.failure, "out of memory");
  EXPECT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.unchecked.size(), 8u);
}

}  // namespace
}  // namespace corocrawl
