// Many origins, few file descriptors: the connections open at once stay under a cap (idle
// keep-alive ones are closed to make room), and running out of descriptors makes the crawl
// wait, never fail a URL.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <string>
#include <vector>

#include "corocrawl/crawl.hpp"
#include "crawl_helpers.hpp"
#include "http/http_client.hpp"
#include "process.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;
using testing::reply;
using testing::request;
using testing::response;
using testing::test_server;

/// h1.site.test ... hN.site.test, every one a page of `server` (one port, 127.0.0.1).
struct many_origins {
  many_origins(test_server& server, int count) {
    for (int i = 0; i <= count; ++i) {
      const auto host = "h" + std::to_string(i) + ".site.test";
      resolve.push_back({host, server.port(), {"127.0.0.1"}});
      urls.push_back(server.origin(host) + "/");
    }
    // h0's page links to all the others; the server answers every host alike.
    server.add_page("/", std::vector<std::string>(urls.begin() + 1, urls.end()));
  }
  std::vector<resolve_override> resolve;
  std::vector<std::string> urls;  ///< the root (h0) first
};

TEST(ConnectionLimit, IdleConnectionsToOtherOriginsAreClosedUnderTheCap) {
  test_server server;
  const many_origins site{server, 40};
  auto options = testing::options_for({site.urls[0]});
  options.strict = false;  // *.site.test are all in scope
  options.resolve = site.resolve;
  options.max_tasks = 4;  // the cap: never more connections than requests at once
  const auto result = run_crawl(options);
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(result.records.size(), 41u);
  EXPECT_LE(server.peak_connections(), 4u);
  EXPECT_EQ(server.connections(), 41u);
}

// Links to more origins than there are connections, each origin's links far apart (as on a
// page linking to many sites): a worker goes on with the origin its connection is open to.
// With origins taking turns alone, each idle connection was closed for the next origin before
// its own came round again: a connection per request (201 here).
TEST(ConnectionLimit, AWorkerKeepsToTheOriginItsConnectionIsOpenTo) {
  test_server server;
  constexpr int hosts = 20;
  constexpr int paths = 10;
  std::vector<resolve_override> resolve;
  std::vector<std::string> links;
  for (int path = 0; path < paths; ++path) {
    server.add_page("/p" + std::to_string(path));
    for (int host = 1; host <= hosts; ++host)
      links.push_back(server.origin("h" + std::to_string(host) + ".site.test") + "/p" +
                      std::to_string(path));
  }
  for (int host = 0; host <= hosts; ++host)
    resolve.push_back({"h" + std::to_string(host) + ".site.test", server.port(), {"127.0.0.1"}});
  server.add_page("/", links);
  auto options = testing::options_for({server.origin("h0.site.test") + "/"});
  options.strict = false;  // *.site.test are all in scope
  options.resolve = resolve;
  options.max_tasks = 4;  // the cap
  const auto result = run_crawl(options);
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(result.records.size(), 1u + hosts * paths);
  EXPECT_LE(server.peak_connections(), 4u);
  // An origin's requests (robots.txt, then its pages) go over one or two connections.
  EXPECT_LE(server.connections(), 2u * (hosts + 1));
}

asio::awaitable<void> fetch(http_client& client, std::string host, std::uint16_t port,
                            unsigned& status) {
  const http_target target{false, std::move(host), port, "/"};  // (GCC 12: no temporaries
  const auto fetched = co_await client.get(target, {});         // in a co_await expression)
  status = fetched.ec ? 0 : fetched.response.status;
}

TEST(ConnectionLimit, RequestsWaitForAConnectionWhenNoneIsIdle) {
  test_server server;
  server.add_handler("/", [](const request&) -> asio::awaitable<reply> {
    co_await testing::sleep_for(50ms);  // all requests overlap
    co_return response{};
  });
  http_client_options options;
  options.max_connections = 3;
  constexpr int count = 8;
  for (int i = 0; i < count; ++i)
    options.resolve.push_back({"h" + std::to_string(i) + ".test", server.port(), {"127.0.0.1"}});
  asio::io_context context;
  http_client client{context.get_executor(), options};
  std::vector<unsigned> statuses(count);
  for (int i = 0; i < count; ++i)
    asio::co_spawn(context,
                   fetch(client, "h" + std::to_string(i) + ".test", server.port(), statuses[i]),
                   asio::detached);
  context.run();
  EXPECT_EQ(statuses, std::vector<unsigned>(count, 200));
  EXPECT_LE(server.peak_connections(), 3u);
  EXPECT_EQ(client.connections(), static_cast<std::uint64_t>(count));
}

/// Runs the binary on `site` with --json - in a shell that first runs `prelude` (to lower
/// `ulimit -n`, say).
testing::process_result crawl_in_shell(const many_origins& site, const std::string& prelude) {
  std::vector<std::string> argv = {COROCRAWL_BINARY, "--json", "-",
                                   "--report",       "none",   "--lenient"};
  for (const auto& fixed : site.resolve)
    argv.push_back("--resolve=" + fixed.host + ":" + std::to_string(fixed.port) + ":127.0.0.1");
  argv.push_back(site.urls[0]);
  return testing::run_in_shell(prelude + "; exec \"$@\"", argv, {}, 60s);
}

void expect_every_url_healthy(const testing::process_result& run, std::size_t count) {
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto summary = json::parse(run.out).as_object();
  const auto& urls = summary.at("urls").as_array();
  EXPECT_EQ(urls.size(), count);
  for (const auto& url : urls)
    EXPECT_EQ(url.at("status"), 200) << url.at("url") << ": " << url.at("error");
}

TEST(ConnectionLimit, BinaryUnderASmallDescriptorLimitReportsEveryUrlHealthy) {
  test_server server;
  const many_origins site{server, 150};
  const auto run = crawl_in_shell(site, "ulimit -n 64");
  expect_every_url_healthy(run, 151);
  EXPECT_LE(server.peak_connections(), 16u);  // (64 - 32) / 2
}

TEST(ConnectionLimit, RunningOutOfDescriptorsIsBackPressureNotABrokenLink) {
  if (testing::sanitized_build) GTEST_SKIP() << "the sanitizers' runtimes need descriptors too";
  // Descriptors the cap does not know of (inherited ones, here) leave fewer than it allows.
  test_server server;
  const many_origins site{server, 150};
  const auto run = crawl_in_shell(
      site, "ulimit -n 64; for fd in $(seq 10 52); do eval \"exec $fd</dev/null\"; done");
  expect_every_url_healthy(run, 151);
  EXPECT_NE(run.err.find("out of file descriptors"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace corocrawl
