// Values that cannot work are configuration errors of the binary: exit status 2, one line on
// stderr, nothing fetched, and no hang or crash, however large the value or file.
#include <gtest/gtest.h>

#include <string>

#include "binary_test.hpp"

namespace corocrawl {
namespace {

// expect_config_error() runs the binary and checks the one-line error, that it came quickly,
// that the value was not echoed whole and that nothing was fetched.
using CliLimitsTest = testing::binary_test;

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
