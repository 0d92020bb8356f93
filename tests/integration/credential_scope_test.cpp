// Credentials and custom headers go only to the roots' origins (scheme, host and port), never
// in cleartext when they were given for https, and a root URL's userinfo is used as its
// origin's credentials without ever being shown.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "corocrawl/crawl.hpp"
#include "crawl_helpers.hpp"
#include "process.hpp"
#include "temp_dir.hpp"
#include "test_ca.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

namespace json = boost::json;
using testing::options_for;
using testing::test_server;

constexpr auto kSecret = "s3cret-pw";
constexpr auto kBasicCiSecret = "Basic Y2k6czNjcmV0LXB3";  // ci:s3cret-pw

/// Checks that no request `server` received carries the crawl's credentials or headers.
void expect_nothing_sent(const test_server& server) {
  const auto requests = server.requests();
  ASSERT_FALSE(requests.empty());
  for (const auto& r : requests) {
    EXPECT_EQ(r.header("Authorization"), std::nullopt) << r.target;
    EXPECT_EQ(r.header("X-Team"), std::nullopt) << r.target;
    EXPECT_EQ(r.header("X-Host-Key"), std::nullopt) << r.target;
  }
}

/// Checks that every request `server` received carries `authorization`.
void expect_authorization(const test_server& server, const std::string& authorization) {
  const auto requests = server.requests();
  ASSERT_FALSE(requests.empty());
  for (const auto& r : requests)
    EXPECT_EQ(r.header("Authorization"), authorization) << r.target;
}

crawl_options with_identity(crawl_options options) {
  options.user = std::string("ci:") + kSecret;
  options.headers = {{"X-Team", "docs"}};
  return options;
}

class CredentialScopeTest : public ::testing::Test {
 protected:
  CredentialScopeTest() : ca_file_(temp_.path() / "ca.pem") { ca_.write_certificate(ca_file_); }

  testing::temp_dir temp_;
  testing::test_ca ca_;
  std::filesystem::path ca_file_;
  test_server other_port_;  // plain http on another port of 127.0.0.1
};

TEST_F(CredentialScopeTest, HttpsRootSendsNothingOverHttpToAnotherPortOfItsHost) {
  test_server https_root{ca_.issue({"127.0.0.1"})};
  https_root.add_page("/", {other_port_.url("/plain")});
  other_port_.add_page("/plain");
  auto options = with_identity(options_for({https_root.url("/")}));
  options.ca_file = ca_file_.string();
  EXPECT_TRUE(passed(run_crawl(options)));
  expect_authorization(https_root, kBasicCiSecret);
  EXPECT_EQ(https_root.requests().at(0).header("X-Team"), "docs");
  expect_nothing_sent(other_port_);
}

TEST_F(CredentialScopeTest, HttpRootSendsNothingToAnotherPortOfItsHost) {
  test_server root;
  root.add_page("/", {"/a", other_port_.url("/b")});
  root.add_page("/a");
  other_port_.add_page("/b");
  EXPECT_TRUE(passed(run_crawl(with_identity(options_for({root.url("/")})))));
  expect_authorization(root, kBasicCiSecret);
  ASSERT_EQ(root.requests().size(), 2u);
  expect_nothing_sent(other_port_);
}

TEST_F(CredentialScopeTest, RedirectToAnotherOriginCarriesNothing) {
  test_server root;
  root.add_redirect("/", "/moved");  // same origin: credentials stay
  root.add_redirect("/moved", other_port_.url("/landing"));
  other_port_.add_page("/landing", {"/next"});
  other_port_.add_page("/next");
  EXPECT_TRUE(passed(run_crawl(with_identity(options_for({root.url("/")})))));
  expect_authorization(root, kBasicCiSecret);
  ASSERT_EQ(root.requests().size(), 2u);
  expect_nothing_sent(other_port_);
}

TEST_F(CredentialScopeTest, EveryRootOriginGetsTheCredentials) {
  test_server root;
  root.add_page("/");
  other_port_.add_page("/");
  EXPECT_TRUE(passed(run_crawl(with_identity(options_for({root.url("/"), other_port_.url("/")})))));
  expect_authorization(root, kBasicCiSecret);
  expect_authorization(other_port_, kBasicCiSecret);
}

TEST_F(CredentialScopeTest, HostTableIsNeverSentOverHttpWhenTheHostIsCrawledOverHttps) {
  test_server https_root{ca_.issue({"127.0.0.1"})};
  test_server https_other{ca_.issue({"127.0.0.1"})};
  https_root.add_page("/", {other_port_.url("/plain"), https_other.url("/tls")});
  other_port_.add_page("/plain");
  https_other.add_page("/tls");
  auto options = options_for({https_root.url("/")});
  options.ca_file = ca_file_.string();
  options.host_headers["127.0.0.1"] = {{"X-Host-Key", "k1"}};
  EXPECT_TRUE(passed(run_crawl(options)));
  EXPECT_EQ(https_root.requests().at(0).header("X-Host-Key"), "k1");
  EXPECT_EQ(https_other.requests().at(0).header("X-Host-Key"), "k1");  // any port over https
  expect_nothing_sent(other_port_);
}

TEST_F(CredentialScopeTest, HostTableGoesToEveryPortWhenTheHostIsCrawledOverHttp) {
  test_server root;
  root.add_page("/", {other_port_.url("/b")});
  other_port_.add_page("/b");
  auto options = options_for({root.url("/")});
  options.host_headers["127.0.0.1"] = {{"X-Host-Key", "k1"}};
  EXPECT_TRUE(passed(run_crawl(options)));
  EXPECT_EQ(root.requests().at(0).header("X-Host-Key"), "k1");
  EXPECT_EQ(other_port_.requests().at(0).header("X-Host-Key"), "k1");
}

TEST_F(CredentialScopeTest, RootUserinfoIsThatOriginsBasicAuthAndIsNeverShown) {
  test_server root;
  root.add_page("/", {"/a", other_port_.url("/b")});
  root.add_page("/a");
  other_port_.add_page("/b");
  // "al@ce" and "p:ss" percent-encoded, as RFC 3986 userinfo must be.
  const auto with_userinfo = "http://al%40ce:p%3Ass@127.0.0.1:" + std::to_string(root.port()) + "/";
  const auto result = run_crawl(options_for({with_userinfo}));
  EXPECT_TRUE(passed(result));
  expect_authorization(root, "Basic YWxAY2U6cDpzcw==");  // al@ce:p:ss
  ASSERT_EQ(root.requests().size(), 2u);
  expect_nothing_sent(other_port_);
  EXPECT_EQ(result.roots, std::vector<std::string>{root.url("/")});
  for (const auto& record : result.records)
    EXPECT_EQ(record.url.find('@'), std::string::npos) << record.url;
}

TEST_F(CredentialScopeTest, RootUserinfoWinsOverUserOnItsOriginOnly) {
  test_server root;
  root.add_page("/");
  other_port_.add_page("/");
  auto options = options_for(
      {"http://alice:wonder@127.0.0.1:" + std::to_string(root.port()) + "/", other_port_.url("/")});
  options.user = std::string("ci:") + kSecret;
  EXPECT_TRUE(passed(run_crawl(options)));
  expect_authorization(root, "Basic YWxpY2U6d29uZGVy");  // alice:wonder
  expect_authorization(other_port_, kBasicCiSecret);
}

TEST_F(CredentialScopeTest, UserinfoInALinkIsNeverSent) {
  test_server root;
  const auto port = std::to_string(root.port());
  const auto other = std::to_string(other_port_.port());
  root.add_page("/", {"http://page:linkpw@127.0.0.1:" + other + "/b",
                      "http://page:linkpw@127.0.0.1:" + port + "/a"});
  root.add_page("/a");
  other_port_.add_page("/b");
  EXPECT_TRUE(passed(run_crawl(with_identity(options_for({root.url("/")})))));
  // The root's origin gets the crawl's own credentials, never the link's; another origin none.
  expect_authorization(root, kBasicCiSecret);
  ASSERT_EQ(root.requests().size(), 2u);
  expect_nothing_sent(other_port_);
}

// ---- the binary: the password of a root's userinfo appears in no output ------------------

class RootUserinfoOutputTest : public ::testing::Test {
 protected:
  testing::process_result run(std::vector<std::string> args) const {
    args.insert(args.begin(), COROCRAWL_BINARY);
    return testing::run_process(args, temp_.path());
  }

  /// Checks that neither the password nor the user name is in `result`'s output or the
  /// JSON summary, and that the summary's roots are the URL without its userinfo.
  void expect_no_secret(const testing::process_result& result) const {
    for (const std::string& text : {result.out, result.err, temp_.read("summary.json")}) {
      EXPECT_EQ(text.find(kSecret), std::string::npos) << text;
      EXPECT_EQ(text.find("ci-user"), std::string::npos) << text;
    }
  }

  std::string root_with_userinfo(std::string_view path = "/") const {
    return "http://ci-user:" + std::string(kSecret) +
           "@127.0.0.1:" + std::to_string(server_.port()) + std::string(path);
  }

  testing::temp_dir temp_;
  test_server server_;
};

TEST_F(RootUserinfoOutputTest, NotInTheSummaryTheReportOrTheLog) {
  server_.add_page("/", {"/missing"});
  server_.add_redirect("/missing", "/gone");
  const auto result = run({"-vv", "--json", "summary.json", root_with_userinfo()});
  EXPECT_EQ(result.exit_code, 1) << result.err;  // /gone is broken: the report names the root
  expect_no_secret(result);
  const auto summary = json::parse(temp_.read("summary.json")).as_object();
  EXPECT_EQ(summary.at("roots"), json::array{json::string(server_.url("/"))});
  EXPECT_EQ(server_.requests().at(0).header("Authorization"), "Basic Y2ktdXNlcjpzM2NyZXQtcHc=");
}

TEST_F(RootUserinfoOutputTest, NotInTheSummaryWhenTheRootComesFromTheConfigFile) {
  server_.add_page("/");
  temp_.write("corocrawl.toml", "roots = [\"" + root_with_userinfo() + "\"]\n");
  const auto result = run({"-vv", "--json", "summary.json"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  expect_no_secret(result);
  EXPECT_EQ(server_.requests().at(0).header("Authorization"), "Basic Y2ktdXNlcjpzM2NyZXQtcHc=");
}

TEST_F(RootUserinfoOutputTest, NotInAnErrorMessage) {
  const std::string userinfo = "ci-user:" + std::string(kSecret) + "@";
  for (const std::string& bad :
       {root_with_userinfo("x"), "http://" + userinfo + "127.0.0.1:99999/",
        "ftp://" + userinfo + "127.0.0.1/", userinfo + "127.0.0.1:1x", "http://" + userinfo}) {
    const auto result = run({bad});
    EXPECT_EQ(result.exit_code, 2) << bad << ": " << result.err;
    EXPECT_NE(result.err.find("error: "), std::string::npos) << result.err;
    expect_no_secret(result);
  }
  temp_.write("corocrawl.toml", "roots = [\"" + root_with_userinfo("x") + "\"]\n");
  const auto from_file = run({});
  EXPECT_EQ(from_file.exit_code, 2) << from_file.err;
  expect_no_secret(from_file);
}

}  // namespace
}  // namespace corocrawl
