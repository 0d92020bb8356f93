// Identity, custom headers and credentials (only to the hosts they are for), and proxies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "corocrawl/crawl.hpp"
#include "crawl_helpers.hpp"
#include "process.hpp"
#include "temp_dir.hpp"
#include "test_ca.hpp"
#include "test_proxy.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

using namespace std::chrono_literals;
using testing::options_for;
using testing::request;
using testing::test_proxy;
using testing::test_server;

/// The requests `server` received for `host` (by their Host header, port stripped).
std::vector<request> requests_to(const test_server& server, const std::string& host) {
  std::vector<request> found;
  for (const auto& r : server.requests()) {
    const auto header = r.header("Host").value_or("");
    if (header.substr(0, header.rfind(':')) == host) found.push_back(r);
  }
  return found;
}

TEST(Identity, DefaultAndCustomUserAgent) {
  test_server server;
  server.add_page("/");
  run_crawl(options_for({server.url("/")}));
  auto options = options_for({server.url("/")});
  options.user_agent = "docs-checker/2.0";
  run_crawl(options);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  const auto first = requests[0].header("User-Agent").value_or("");
  EXPECT_TRUE(first.starts_with("corocrawl/")) << first;
  EXPECT_NE(first.find("(+http"), std::string::npos) << first;
  EXPECT_EQ(requests[1].header("User-Agent"), "docs-checker/2.0");
}

class HeaderScopeTest : public ::testing::Test {
 protected:
  HeaderScopeTest() {
    // site.test/start redirects to www.site.test/ (in scope, strict mode), which links to
    // /docs. Both names reach this one server.
    server_.add_redirect("/start", server_.origin("www.site.test") + "/");
    server_.add_page("/", {"/docs"});
    server_.add_page("/docs");
  }
  crawl_options options() const {
    auto o = options_for({server_.origin("site.test") + "/start"});
    for (const auto* host : {"site.test", "www.site.test"})
      o.resolve.push_back({host, server_.port(), {"127.0.0.1"}});
    return o;
  }
  test_server server_;
};

TEST_F(HeaderScopeTest, HeadersAndCredentialsGoOnlyToTheRootHost) {
  auto o = options();
  o.headers = {{"X-Team", "docs"}};
  o.user = "ci:s3cret";
  EXPECT_TRUE(passed(run_crawl(o)));
  const auto to_root = requests_to(server_, "site.test");
  const auto to_www = requests_to(server_, "www.site.test");
  ASSERT_EQ(to_root.size(), 1u);
  ASSERT_EQ(to_www.size(), 2u);
  EXPECT_EQ(to_root[0].header("X-Team"), "docs");
  EXPECT_EQ(to_root[0].header("Authorization"), "Basic Y2k6czNjcmV0");
  for (const auto& r : to_www) {
    EXPECT_EQ(r.header("X-Team"), std::nullopt) << r.target;
    EXPECT_EQ(r.header("Authorization"), std::nullopt) << r.target;
  }
}

TEST_F(HeaderScopeTest, PerHostHeadersGoOnlyToThatHost) {
  auto o = options();
  o.host_headers["www.site.test"] = {{"X-Only-Www", "yes"}};
  run_crawl(o);
  for (const auto& r : requests_to(server_, "site.test"))
    EXPECT_EQ(r.header("X-Only-Www"), std::nullopt);
  const auto to_www = requests_to(server_, "www.site.test");
  ASSERT_FALSE(to_www.empty());
  for (const auto& r : to_www)
    EXPECT_EQ(r.header("X-Only-Www"), "yes") << r.target;
}

TEST(Proxy, PlainHttpGoesThroughTheProxyInAbsoluteForm) {
  test_server server;
  test_proxy proxy;
  server.add_page("/", {"/a"});
  server.add_page("/a");
  auto options = options_for({server.origin("site.test") + "/"});  // only the proxy knows it
  options.proxy.http_proxy = proxy.url();
  const auto result = run_crawl(options);
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(result.records.size(), 2u);
  const auto seen = proxy.requests();
  const auto port = std::to_string(server.port());
  EXPECT_EQ(seen, (std::vector<std::string>{"GET http://site.test:" + port + "/ HTTP/1.1",
                                            "GET http://site.test:" + port + "/a HTTP/1.1"}));
}

TEST(Proxy, HttpsIsTunnelledWithConnect) {
  testing::temp_dir dir;
  testing::test_ca ca;
  ca.write_certificate(dir.path() / "ca.pem");
  test_server server{ca.issue({"site.test"})};
  test_proxy proxy;
  server.add_page("/", {"/a"});
  server.add_page("/a");
  auto options = options_for({server.origin("site.test") + "/"});
  options.proxy.https_proxy = "http://user:p%40ss@127.0.0.1:" + std::to_string(proxy.port());
  options.ca_file = (dir.path() / "ca.pem").string();
  const auto result = run_crawl(options);
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(result.records.size(), 2u);
  const auto seen = proxy.requests();
  ASSERT_FALSE(seen.empty());
  for (const auto& line : seen)
    EXPECT_EQ(line, "CONNECT site.test:" + std::to_string(server.port()) + " HTTP/1.1");
  EXPECT_EQ(proxy.proxy_authorizations().at(0), "Basic dXNlcjpwQHNz");  // user:p@ss
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(Proxy, NoProxyAndLoopbackGoDirect) {
  test_server server;
  test_proxy proxy;
  server.add_page("/");
  auto options = options_for({server.origin("site.test") + "/", server.url("/")});
  options.resolve = {{"site.test", server.port(), {"127.0.0.1"}}};
  options.proxy.http_proxy = proxy.url();
  options.proxy.no_proxy = "example.com, .site.test";
  const auto result = run_crawl(options);
  EXPECT_TRUE(passed(result));
  EXPECT_EQ(result.records.size(), 2u);
  EXPECT_TRUE(proxy.requests().empty());
}

TEST(Proxy, RefusedConnectIsAFailure) {
  test_proxy proxy;
  // Nothing listens on port 1 of 127.0.0.1: the proxy answers 502.
  auto options = options_for({"https://site.test:1/"});
  options.proxy.https_proxy = proxy.url();
  const auto result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].failure, fetch_failure::proxy);
  EXPECT_TRUE(result.records[0].error->starts_with("the proxy refused CONNECT site.test:1: 502"))
      << *result.records[0].error;
}

TEST(Proxy, EnvironmentVariablesAreHonouredByTheCommandLine) {
  test_server server;
  test_proxy proxy;
  server.add_page("/");
  ::setenv("http_proxy", proxy.url().c_str(), 1);
  auto result = testing::run_process({COROCRAWL_BINARY, "-q", server.origin("site.test") + "/"});
  ::setenv("no_proxy", "site.test", 1);
  const auto bypassed =
      testing::run_process({COROCRAWL_BINARY, "-q", "--resolve",
                            "site.test:" + std::to_string(server.port()) + ":127.0.0.1",
                            server.origin("site.test") + "/"});
  ::unsetenv("http_proxy");
  ::unsetenv("no_proxy");
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_EQ(bypassed.exit_code, 0) << bypassed.out << bypassed.err;
  // The first crawl's two requests (robots.txt, then the page); none of the second's.
  EXPECT_EQ(proxy.requests().size(), 2u);
}

}  // namespace
}  // namespace corocrawl
