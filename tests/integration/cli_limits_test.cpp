// Values that cannot work are configuration errors of the binary: exit status 2, one line on
// stderr, nothing fetched, and no hang or crash, however large the value or file.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "process.hpp"
#include "temp_dir.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class CliLimitsTest : public ::testing::Test {
 protected:
  /// Runs the binary with `args` and checks it stops with a one-line configuration error
  /// that contains `mentions`, quickly and without a request.
  void expect_config_error(std::vector<std::string> args, const std::string& mentions) {
    std::string shown;
    for (const auto& a : args)
      shown += a.substr(0, 60) + " ";
    SCOPED_TRACE(shown);
    args.insert(args.begin(), COROCRAWL_BINARY);
    const auto result = testing::run_process(args, dir_, 20s);
    EXPECT_FALSE(result.timed_out);
    EXPECT_EQ(result.exit_code, 2) << result.err.substr(0, 300);
    EXPECT_EQ(result.out, "");
    EXPECT_TRUE(result.err.starts_with("corocrawl: error: ")) << result.err.substr(0, 300);
    EXPECT_NE(result.err.find(mentions), std::string::npos) << result.err.substr(0, 300);
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1)
        << result.err.substr(0, 300);
    EXPECT_LT(result.err.size(), 300u) << "the value is not echoed";
    EXPECT_EQ(server_.requests().size(), 0u);
  }

  testing::test_server server_;
  testing::temp_dir temp_;
  const fs::path dir_ = temp_.path();
};

TEST_F(CliLimitsTest, EndlessOrHugeConfigFileIsAConfigError) {
  expect_config_error({"--config", "/dev/zero", server_.url("/")}, "too large for a config file");
  // Comments only: valid TOML, just too much of it.
  const std::string line = "# " + std::string(1022, 'x') + "\n";
  std::string big;
  for (int i = 0; i < 1025; ++i)
    big += line;
  temp_.write("big.toml", big);
  expect_config_error({"--config", "big.toml", server_.url("/")}, "big.toml: more than 1048576");
}

TEST_F(CliLimitsTest, HeaderValuesNoServerAcceptsAreConfigErrors) {
  const std::string huge(100'000, 'a');
  expect_config_error({"--user-agent", huge, server_.url("/")}, "--user-agent: the User-Agent");
  expect_config_error({"--header", "X-Big: " + huge, server_.url("/")}, "--header: the \"X-Big\"");
  expect_config_error({"--user", "me:" + huge, server_.url("/")}, "--user: the Authorization");
  // Just over what Apache and nginx accept, far under what the HTTP library refuses.
  expect_config_error({"--user-agent", std::string(9'000, 'a'), server_.url("/")}, "8190");
  temp_.write("corocrawl.toml", "user_agent = \"" + std::string(500'000, 'a') + "\"\n");
  expect_config_error({server_.url("/")}, "corocrawl.toml:1: user_agent: the User-Agent");
}

TEST_F(CliLimitsTest, CountsAndSizesThatCannotWorkAreConfigErrors) {
  expect_config_error({"--max-tasks", "2147483647", server_.url("/")},
                      "--max-tasks: \"2147483647\" is too large (at most 10000)");
  expect_config_error({"--threads", "100000", server_.url("/")}, "--threads: \"100000\"");
  expect_config_error({"--max-per-host", "2147483647", server_.url("/")}, "--max-per-host");
  expect_config_error({"--max-redirect", "2147483647", server_.url("/")}, "--max-redirect");
  expect_config_error({"--max-tries", "2147483647", server_.url("/")}, "--max-tries");
  expect_config_error({"--max-body", "16000000000G", server_.url("/")}, "--max-body");
  expect_config_error({"--max-body", "2G", server_.url("/")}, "at most 1GiB");
}

}  // namespace
}  // namespace corocrawl
