// HTTPS against TLS servers whose certificates a CA made by the test signed.
#include <gtest/gtest.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <unistd.h>

#include <algorithm>
#include <boost/json.hpp>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "corocrawl/crawl.hpp"
#include "corocrawl/errors.hpp"
#include "crawl_helpers.hpp"
#include "http/openssl_loader.hpp"
#include "process.hpp"
#include "temp_dir.hpp"
#include "test_ca.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

using namespace std::chrono_literals;
using testing::options_for;
using testing::test_ca;
using testing::test_server;

class TlsTest : public ::testing::Test {
 protected:
  TlsTest() : ca_file_(temp_.path() / "ca.pem") { ca_.write_certificate(ca_file_); }

  testing::temp_dir temp_;
  test_ca ca_;
  std::filesystem::path ca_file_;
};

TEST_F(TlsTest, VerifiedCrawlPassesWithTheCaFile) {
  test_server server{ca_.issue({"127.0.0.1"})};
  server.add_page("/", {"/a"});
  server.add_page("/a");
  auto options = options_for({server.url("/")});
  options.ca_file = ca_file_.string();
  const auto result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 2u);
  EXPECT_TRUE(result.records[0].url.starts_with("https://127.0.0.1:"));
  EXPECT_TRUE(passed(result));
}

TEST_F(TlsTest, UnknownCaFailsWithoutRetrying) {
  test_server server{ca_.issue({"127.0.0.1"})};
  server.add_page("/");
  const auto result = run_crawl(options_for({server.url("/")}));
  ASSERT_EQ(result.records.size(), 1u);
  const auto& r = result.records[0];
  EXPECT_EQ(r.status, std::nullopt);
  EXPECT_EQ(r.failure, fetch_failure::tls);
  // The server sends its chain, CA included: an untrusted root in the chain.
  EXPECT_EQ(r.error, "certificate verify failed: self-signed certificate in certificate chain");
  EXPECT_EQ(r.tries, 1);
  EXPECT_EQ(server.requests().size(), 0u);
}

TEST_F(TlsTest, SelfSignedCertificateIsNamed) {
  test_server server{testing::self_signed({"127.0.0.1"})};
  server.add_page("/");
  const auto result = run_crawl(options_for({server.url("/")}));
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].error, "certificate verify failed: self-signed certificate");
}

TEST_F(TlsTest, InsecureSkipsVerification) {
  test_server server{testing::self_signed({"wrong.test"})};
  server.add_page("/");
  auto options = options_for({server.url("/")});
  options.insecure = true;
  const auto result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].status, 200u);
}

TEST_F(TlsTest, HostNameIsVerifiedAndSentWithSni) {
  test_server server{ca_.issue({"site.test"})};
  server.add_page("/");
  auto options = options_for({server.origin("site.test") + "/"});
  options.ca_file = ca_file_.string();
  options.resolve = {{"site.test", server.port(), {"127.0.0.1"}},
                     {"other.test", server.port(), {"127.0.0.1"}}};
  auto result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].status, 200u);

  options.roots = {server.origin("other.test") + "/"};
  result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 1u);
  EXPECT_EQ(result.records[0].error, "certificate verify failed: hostname mismatch");
  EXPECT_EQ(result.records[0].failure, fetch_failure::tls);
}

TEST_F(TlsTest, HttpAndHttpsInOneCrawlWithRedirectsBetween) {
  test_server secure{ca_.issue({"127.0.0.1"})};
  test_server plain;
  // http "/" redirects to https "/home", which links back to http "/about".
  plain.add_redirect("/", secure.url("/home"), 301);
  secure.add_page("/home", {plain.url("/about"), "/"});
  secure.add_page("/");
  plain.add_page("/about");
  auto options = options_for({plain.url("/")});
  options.ca_file = ca_file_.string();
  const auto result = run_crawl(options);
  std::vector<std::string> urls;
  for (const auto& r : result.records)
    urls.push_back(r.url);
  EXPECT_EQ(urls, (std::vector{plain.url("/"), plain.url("/about"), secure.url("/"),
                               secure.url("/home")}));
  EXPECT_TRUE(passed(result));
}

TEST_F(TlsTest, BadCaFileIsAConfigError) {
  test_server server{ca_.issue({"127.0.0.1"})};
  testing::temp_dir dir;
  const auto bogus = dir.write("bogus.pem", "not a certificate");
  auto options = options_for({server.url("/")});
  options.ca_file = bogus.string();
  EXPECT_THROW(run_crawl(options), config_error);
}

TEST_F(TlsTest, SystemStoreIsUsedByDefault) {
  // OpenSSL's default verify paths honour SSL_CERT_FILE: standing in for the system store.
  test_server server{ca_.issue({"127.0.0.1"})};
  server.add_page("/");
  ::setenv("SSL_CERT_FILE", ca_file_.c_str(), 1);
  const auto result = testing::run_process({COROCRAWL_BINARY, "-q", server.url("/")});
  ::unsetenv("SSL_CERT_FILE");
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
}

TEST_F(TlsTest, CommandLineFlags) {
  test_server server{ca_.issue({"127.0.0.1"})};
  server.add_page("/");
  auto result = testing::run_process({COROCRAWL_BINARY, "-q", server.url("/")});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.out.find("certificate verify failed"), std::string::npos) << result.out;
  result = testing::run_process(
      {COROCRAWL_BINARY, "-q", "--ca-file", ca_file_.string(), server.url("/")});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  result = testing::run_process({COROCRAWL_BINARY, "-q", "--insecure", server.url("/")});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
}

// The shared libraries process `pid` has mapped, as /proc lists them.
std::string mapped_files(pid_t pid) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  std::ostringstream text;
  text << maps.rdbuf();
  return text.str();
}

// Whether the program has libssl or libcrypto mapped while its one request to `server` waits
// for an answer that does not come.
bool maps_openssl_while_waiting_on(test_server& server) {
  server.add_handler("/", testing::never_answers());
  testing::child_process crawl({COROCRAWL_BINARY, "-q", "--insecure", server.url("/")});
  EXPECT_TRUE(server.wait_for_requests("/", 1, 20s));
  const std::string maps = mapped_files(crawl.pid());
  crawl.send_signal(SIGKILL);
  EXPECT_NE(maps.find("libc.so"), std::string::npos) << maps;  // the maps were read
  const bool ssl = maps.find("/libssl.so") != std::string::npos;
  const bool crypto = maps.find("/libcrypto.so") != std::string::npos;
  EXPECT_EQ(ssl, crypto) << maps;  // libssl needs libcrypto, and nothing else loads it
  return ssl;
}

TEST_F(TlsTest, ProgramLoadsOpenSslForItsFirstHttpsUrlOnly) {
  test_server plain;
  EXPECT_FALSE(maps_openssl_while_waiting_on(plain));
  test_server secure{ca_.issue({"127.0.0.1"})};
  EXPECT_TRUE(maps_openssl_while_waiting_on(secure));
}

// The file this process has libssl mapped from (the test links it), or empty.
std::string libssl_file() {
  std::istringstream maps(mapped_files(::getpid()));
  for (std::string line; std::getline(maps, line);) {
    const std::size_t path = line.find('/');
    if (path != std::string::npos && line.find("/libssl.so") != std::string::npos)
      return line.substr(path);
  }
  return {};
}

TEST_F(TlsTest, WithoutLibsslAnHttpsUrlFailsAndTheCrawlGoesOn) {
  // In a mount namespace of its own (root only), the program sees /dev/null where libssl is.
  // (robots.txt is not asked for: its origin's URLs would be left unchecked, for the same
  // reason.)
  const std::string libssl = libssl_file();
  ASSERT_FALSE(libssl.empty());
  if (testing::run_process({"/usr/bin/unshare", "-m", "true"}).exit_code != 0)
    GTEST_SKIP() << "unshare -m is not allowed here";
  test_server secure{ca_.issue({"127.0.0.1"})};
  secure.add_page("/");
  test_server plain;
  plain.add_page("/", {"/ok", secure.url("/")});
  plain.add_page("/ok");
  const auto result = testing::run_process(
      {"/usr/bin/unshare", "-m", "sh", "-c", "mount --bind /dev/null \"$0\" && exec \"$@\"", libssl,
       COROCRAWL_BINARY, "-q", "--ignore-robots", "--json", "-", plain.url("/")});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  const auto summary = boost::json::parse(result.out).as_object();
  std::string https_error;
  int ok = 0;
  for (const auto& record : summary.at("urls").as_array()) {
    const auto& fields = record.as_object();
    if (fields.at("url") == boost::json::string(secure.url("/")) && fields.at("error").is_string())
      https_error = std::string(fields.at("error").as_string());
    if (fields.at("status") == 200) ++ok;
  }
  EXPECT_EQ(ok, 2);  // the plain pages
  EXPECT_TRUE(https_error.starts_with("cannot load libssl.so.")) << https_error << result.out;
  // Reached, but no handshake could follow. The server's thread counts the connection when it
  // accepts it, which on a busy machine may come after the crawl has ended.
  for (int waited = 0; waited < 500 && secure.connections() == 0; ++waited)
    std::this_thread::sleep_for(10ms);
  EXPECT_EQ(secure.connections(), 1U);
}

TEST(OpensslLoader, FindsTheFunctionsOfTheLibraryTheHeadersDescribe) {
  // This test links OpenSSL, as a library user would: loading finds it mapped already.
  EXPECT_EQ(load_openssl(), std::nullopt);
  EXPECT_EQ(std::string(openssl_library_name()),
            "libssl.so." + std::to_string(OPENSSL_VERSION_MAJOR));
  EXPECT_EQ(openssl_function("SSL_read"), reinterpret_cast<void*>(&::SSL_read));
  EXPECT_EQ(openssl_function("ERR_get_error"),
            reinterpret_cast<void*>(&::ERR_get_error));  // libcrypto's
}

}  // namespace
}  // namespace corocrawl
