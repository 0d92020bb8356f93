#pragma once
// Running the corocrawl binary as users and CI do, for the integration tests (the only target
// COROCRAWL_BINARY is defined for): the run itself, the checks every configuration error must
// pass, and a fixture with a server to crawl and a fresh working directory.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "process.hpp"
#include "temp_dir.hpp"
#include "test_server.hpp"

namespace corocrawl::testing {

/// Runs the corocrawl binary with `args` in `cwd` to completion; it is killed after `timeout`.
inline process_result run_corocrawl(std::vector<std::string> args, const std::filesystem::path& cwd,
                                    std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
  args.insert(args.begin(), COROCRAWL_BINARY);
  return run_process(args, cwd, timeout);
}

/// Checks that `result` is a configuration error naming `mentions`: exit status 2 before the
/// time limit, nothing on stdout, and on stderr one line "corocrawl: error: ..." of fewer than
/// `shorter_than` bytes (a huge value is shortened, not echoed whole).
inline void expect_config_error(const process_result& result, std::string_view mentions,
                                std::size_t shorter_than = 300) {
  const auto shown = result.err.substr(0, 300);
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 2) << shown;
  EXPECT_EQ(result.out, "");
  EXPECT_TRUE(result.err.starts_with("corocrawl: error: ")) << shown;
  EXPECT_NE(result.err.find(mentions), std::string::npos) << shown;
  EXPECT_EQ(std::ranges::count(result.err, '\n'), 1) << shown;
  EXPECT_LT(result.err.size(), shorter_than) << "the value is not echoed: " << shown;
}

/// A test of the binary: a server for it to crawl, and a fresh directory it runs in.
class binary_test : public ::testing::Test {
 protected:
  /// Runs the binary with `args` in dir_.
  process_result run(std::vector<std::string> args,
                     std::chrono::milliseconds timeout = std::chrono::seconds(60)) const {
    return run_corocrawl(std::move(args), dir_, timeout);
  }

  /// Runs the binary with `args` in dir_ and checks that it stops quickly with a configuration
  /// error naming `mentions` (testing::expect_config_error), without a request to server_.
  void expect_config_error(const std::vector<std::string>& args, std::string_view mentions) const {
    std::string shown;
    for (const auto& a : args)
      shown += a.substr(0, 60) + " ";
    SCOPED_TRACE(shown);
    testing::expect_config_error(run(args, std::chrono::seconds(20)), mentions);
    EXPECT_EQ(server_.requests().size(), 0u);
  }

  test_server server_;
  temp_dir temp_;
  const std::filesystem::path dir_ = temp_.path();
};

}  // namespace corocrawl::testing
