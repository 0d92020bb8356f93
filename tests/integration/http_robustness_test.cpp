// HTTP as real servers speak it: compression, chunked and close-delimited bodies, HTTP/1.0,
// idle keep-alive time-outs, several addresses per host, and a bound on the whole crawl.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "compression.hpp"
#include "corocrawl/crawl.hpp"
#include "crawl_helpers.hpp"
#include "http/fetch_error.hpp"
#include "temp_dir.hpp"
#include "test_ca.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

using namespace std::chrono_literals;
using testing::options_for;
using testing::raw_bytes;
using testing::record;
using testing::reply;
using testing::request;
using testing::response;
using testing::test_server;

/// Serves `path` with `body` encoded as `coding` says (Content-Encoding header `coding`).
void add_encoded_page(test_server& server, const std::string& path, const std::string& coding,
                      std::string encoded) {
  server.add_handler(path, [coding, encoded](const request&) -> boost::asio::awaitable<reply> {
    co_return response{200, "text/html", encoded, {{"Content-Encoding", coding}}};
  });
}

TEST(HttpRobustness, GzipAndDeflateBodiesAreDecoded) {
  test_server server;
  const std::string gz = "<a href=/deflated>next</a> " + std::string(5000, ' ');
  add_encoded_page(server, "/", "gzip", testing::gzip(gz));
  add_encoded_page(server, "/deflated", "deflate", testing::zlib_deflate("<a href=/raw>x</a>"));
  add_encoded_page(server, "/raw", "deflate", testing::raw_deflate("<a href=/plain>y</a>"));
  server.add_page("/plain");
  const auto result = run_crawl(options_for({server.url("/")}));
  EXPECT_EQ(result.records.size(), 4u);
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(record(result, server.url("/")).size, gz.size());  // the decoded size
  EXPECT_EQ(record(result, server.url("/plain")).status, 200u);
  EXPECT_EQ(server.requests().at(0).header("Accept-Encoding"), "gzip, deflate");
}

TEST(HttpRobustness, GzipBombStopsAtTheLimit) {
  test_server server;
  server.add_page("/", {"/bomb"});
  add_encoded_page(server, "/bomb", "gzip", testing::gzip_bomb(200 * 1024 * 1024));
  auto options = options_for({server.url("/")});
  options.max_body = 1024 * 1024;
  const auto result = run_crawl(options);
  const auto& bomb = record(result, server.url("/bomb"));
  EXPECT_EQ(bomb.status, 200u);
  EXPECT_EQ(bomb.error, "body too large");
  EXPECT_EQ(bomb.num_urls, 0u);  // not parsed
  EXPECT_EQ(bomb.tries, 1);
  EXPECT_TRUE(passed(result));  // the link works; the page is only too big to read
}

TEST(HttpRobustness, CorruptGzipIsAFailure) {
  test_server server;
  add_encoded_page(server, "/", "gzip", "this is not gzip at all");
  const auto result = run_crawl(options_for({server.url("/")}));
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].failure, fetch_failure::protocol);
  EXPECT_EQ(result.records[0].tries, 1);
  EXPECT_EQ(result.broken.size(), 1u);
}

TEST(HttpRobustness, ChunkedBody) {
  test_server server;
  server.add_handler("/", [](const request&) -> boost::asio::awaitable<reply> {
    co_return raw_bytes{
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
        "7\r\n<a href\r\n"
        "a\r\n=/chunked>\r\n"
        "0\r\n\r\n"};
  });
  server.add_page("/chunked");
  const auto result = run_crawl(options_for({server.url("/")}));
  EXPECT_EQ(record(result, server.url("/")).size, 17u);
  EXPECT_EQ(record(result, server.url("/chunked")).status, 200u);
}

TEST(HttpRobustness, Http10ServerWithCloseDelimitedBody) {
  test_server server;
  server.add_handler("/", [](const request&) -> boost::asio::awaitable<reply> {
    co_return raw_bytes{"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=/next>n</a>"};
  });
  server.add_handler("/next", [](const request&) -> boost::asio::awaitable<reply> {
    co_return raw_bytes{
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\nno length"};
  });
  const auto result = run_crawl(options_for({server.url("/")}));
  EXPECT_EQ(record(result, server.url("/")).status, 200u);
  EXPECT_EQ(record(result, server.url("/next")).size, 9u);
  EXPECT_TRUE(passed(result));
}

TEST(HttpRobustness, IdleConnectionClosedByTheServerCostsNoTry) {
  test_server server;
  server.set_keep_alive_timeout(30ms);
  server.add_page("/", {"/a", "/b", "/c"});
  for (const auto* path : {"/a", "/b", "/c"})
    server.add_page(path);
  auto options = options_for({server.url("/")});
  options.max_tasks = 1;
  options.max_tries = 1;
  options.rate_limit = 8;  // 125 ms between requests: longer than the server waits
  const auto result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 4u);
  for (const auto& r : result.records) {
    EXPECT_EQ(r.status, 200u) << r.url;
    EXPECT_EQ(r.tries, 1) << r.url;
  }
  EXPECT_EQ(server.connections(), 4u);
}

TEST(HttpRobustness, TlsConnectionsAreKeptAlive) {
  // A pooled TLS connection is reused only when nothing waits on it, decrypted or not: the
  // session tickets TLS 1.3 servers send must not count as bytes nobody asked for.
  testing::test_ca ca;
  testing::temp_dir temp;
  ca.write_certificate(temp.path() / "ca.pem");
  test_server server{ca.issue({"127.0.0.1"})};
  server.add_page("/", {"/a", "/b", "/c"});
  for (const auto* path : {"/a", "/b", "/c"})
    server.add_page(path);
  auto options = options_for({server.url("/")});
  options.ca_file = (temp.path() / "ca.pem").string();
  options.max_tasks = 1;
  const auto result = run_crawl(options);
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(result.records.size(), 4u);
  EXPECT_EQ(server.connections(), 1u);
}

TEST(HttpRobustness, EveryAddressOfAHostIsTried) {
  test_server server;  // listens on 127.0.0.1 only: ::1 refuses (or is unreachable)
  server.add_page("/");
  auto options = options_for({server.origin("site.test") + "/"});
  options.resolve = {{"site.test", server.port(), {"::1", "127.0.0.1"}}};
  options.max_tries = 1;
  const auto result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].status, 200u);
}

TEST(HttpRobustness, HostNamesAreLookedUpOnceAndShared) {
  // Four roots on one host name: four workers ask for it at once; the first looks it up and
  // the others wait for its answer. localhost may also give ::1, where nothing listens.
  test_server server;
  std::vector<std::string> roots;
  for (const auto* path : {"/a", "/b", "/c", "/d"}) {
    server.add_page(path);
    roots.push_back(server.origin("localhost") + path);
  }
  auto options = options_for(roots);
  options.max_tasks = 4;
  options.max_tries = 1;
  const auto result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 4u);
  for (const auto& r : result.records)
    EXPECT_EQ(r.status, 200u) << r.url << " " << r.error.value_or("");
}

TEST(HttpRobustness, MaxTimeEndsTheCrawl) {
  test_server server;
  server.add_page("/", {"/slow"});
  server.add_handler("/slow", testing::never_answers());
  auto options = options_for({server.url("/")});
  options.max_time = 300ms;
  const auto result = run_crawl(options);
  EXPECT_TRUE(result.timed_out);
  EXPECT_FALSE(result.interrupted);
  EXPECT_FALSE(passed(result));
  EXPECT_EQ(record(result, server.url("/")).status, 200u);
  EXPECT_LT(result.elapsed, 30s);
}

TEST(HttpRobustness, ATemporaryLookupFailureIsRetriedAPermanentOneIsNot) {
  // EAI_AGAIN says the resolver could not answer now; EAI_NONAME that the name does not exist.
  EXPECT_TRUE(is_retryable(boost::asio::error::host_not_found_try_again));
  EXPECT_EQ(failure_kind(boost::asio::error::host_not_found_try_again), fetch_failure::dns);
  EXPECT_EQ(describe(boost::asio::error::host_not_found_try_again), "host lookup failed for now");
  EXPECT_FALSE(is_retryable(boost::asio::error::host_not_found));
  EXPECT_EQ(describe(boost::asio::error::host_not_found), "host not found");
}

TEST(HttpRobustness, AnErrorCodeEqualsTheConditionOfItsFailureKind) {
  const boost::system::error_code reset = boost::asio::error::connection_reset;
  EXPECT_EQ(failure_kind(reset), fetch_failure::reset);
  EXPECT_TRUE(reset == fetch_failure::reset);
  EXPECT_FALSE(reset == fetch_failure::closed);
  EXPECT_TRUE(make_error_code(fetch_errc::proxy_refused) == fetch_failure::proxy);
  EXPECT_FALSE(boost::system::error_code{} == fetch_failure::network);
  EXPECT_EQ(make_error_condition(fetch_failure::body_too_large).message(), "body_too_large");
}

}  // namespace
}  // namespace corocrawl
