// The crawler against servers that misbehave on purpose, byte by byte: a table of cases (as
// curl's tests/data), each the bytes a server sends for one URL and the record, the verdict
// and the time the crawl must end in (hostile_cases.hpp), run through the library and, for
// some, the binary. Then sequences of answers no single case shows.
#include "hostile_server.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "binary_test.hpp"
#include "corocrawl/crawl.hpp"
#include "crawl_helpers.hpp"
#include "hostile_cases.hpp"
#include "process.hpp"

namespace corocrawl {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;
using testing::record;
using testing::hostile::hostile_case;
using testing::hostile::hostile_server;
using testing::hostile::page;
using testing::hostile::script;
using testing::hostile::step;

constexpr auto slack = 3s;

bool matches(const std::string& pattern, const std::optional<std::string>& actual) {
  if (!actual) return false;
  if (pattern.ends_with('*')) return actual->starts_with(pattern.substr(0, pattern.size() - 1));
  return *actual == pattern;
}

void expect_error(const std::optional<std::string>& want, const std::optional<std::string>& got) {
  if (want)
    EXPECT_TRUE(matches(*want, got)) << "error: " << got.value_or("(none)") << ", want " << *want;
  else
    EXPECT_EQ(got, std::nullopt);
}

/// Every field of `o`, to compare options whole (crawl_options has no operator==). The
/// structured binding stops compiling when crawl_options gains a field: add it here too.
auto fields(const crawl_options& o) {
  const auto& [roots, max_tasks, threads, max_redirect, max_tries, exclude, strict, resolve,
               timeout, max_time, max_urls, max_depth, trap_rules, max_body, external, cache,
               cache_max_age, fragments, base_url, baseline, robots, sitemaps, accept, warn, rules,
               max_per_host, rate_limit, max_retry_wait, fail_on_rate_limit, insecure, ca_file,
               user_agent, headers, host_headers, user, proxy, stop_on_signals] = o;
  return std::tie(roots, max_tasks, threads, max_redirect, max_tries, exclude, strict, resolve,
                  timeout, max_time, max_urls, max_depth, trap_rules, max_body, external, cache,
                  cache_max_age, fragments, base_url, baseline, robots, sitemaps, accept, warn,
                  rules, max_per_host, rate_limit, max_retry_wait, fail_on_rate_limit, insecure,
                  ca_file, user_agent, headers, host_headers, user, proxy, stop_on_signals);
}

/// The binary's arguments for a crawl with `options`: the options cases adjust, as flags, and
/// the roots. Fails the test when `options` differs from `base` (where every case starts) in
/// an option these flags do not carry: the binary would crawl otherwise than asked, silently.
std::vector<std::string> binary_args(const crawl_options& base, const crawl_options& options) {
  std::vector<std::string> args = {"--json", "-", "--report", "none"};
  const auto pass = [&args](const std::string& flag, const std::string& value) {
    args.insert(args.end(), {flag, value});
  };
  crawl_options carried = base;  // what the binary is told: each option passed on is copied
  carried.max_tasks = options.max_tasks;
  pass("--max-tasks", std::to_string(options.max_tasks));
  carried.max_per_host = options.max_per_host;
  pass("--max-per-host", std::to_string(options.max_per_host));
  carried.max_tries = options.max_tries;
  pass("--max-tries", std::to_string(options.max_tries));
  carried.max_redirect = options.max_redirect;
  pass("--max-redirect", std::to_string(options.max_redirect));
  carried.timeout = options.timeout;
  pass("--timeout", std::to_string(static_cast<double>(options.timeout.count()) / 1000));
  carried.max_body = options.max_body;
  pass("--max-body", std::to_string(options.max_body));
  carried.max_urls = options.max_urls;
  if (options.max_urls) pass("--max-urls", std::to_string(*options.max_urls));
  carried.max_depth = options.max_depth;
  if (options.max_depth) pass("--max-depth", std::to_string(*options.max_depth));
  carried.trap_rules = options.trap_rules;
  if (!options.trap_rules) args.push_back("--no-trap-rules");
  carried.rate_limit = options.rate_limit;
  if (options.rate_limit != 0) pass("--rate-limit", std::to_string(options.rate_limit));
  carried.roots = options.roots;
  args.insert(args.end(), options.roots.begin(), options.roots.end());
  if (fields(carried) != fields(options))
    ADD_FAILURE() << "the case changes an option that binary_args() does not pass on";
  return args;
}

class HostileServer : public ::testing::TestWithParam<hostile_case> {
 protected:
  void SetUp() override {
    const auto& c = GetParam();
    server_.add("/", script{step::write(page({"/case", "/after"}))});
    server_.add("/case", c.steps);
    if (c.setup) c.setup(server_);
  }

  /// The options every case starts from (hostile_case::adjust says which).
  crawl_options base_options() const {
    auto options = testing::options_for({server_.url("/")});
    options.max_tasks = 1;
    options.max_per_host = 1;
    options.max_tries = 2;
    options.timeout = 2s;
    return options;
  }

  /// The options of the case's crawl.
  crawl_options options() const {
    auto options = base_options();
    if (GetParam().adjust) GetParam().adjust(options);
    return options;
  }

  /// How long the case's crawl may take at most.
  std::chrono::milliseconds bound() const {
    const auto o = options();
    return o.max_tries * o.timeout + std::chrono::duration_cast<std::chrono::milliseconds>(slack);
  }

  hostile_server server_;
};

TEST_P(HostileServer, Crawl) {
  const auto& c = GetParam();
  auto crawl = options();
  crawl.max_time = bound() + 5s;  // a safety net: reaching it fails the case below
  const auto result = run_crawl(crawl);
  EXPECT_FALSE(result.timed_out);
  EXPECT_LT(result.elapsed, bound());
  EXPECT_EQ(passed(result), c.passed);
  EXPECT_EQ(record(result, server_.url("/")).status, 200u);
  const auto after = record(result, server_.url("/after"));
  EXPECT_EQ(after.status, 200u) << "/after: " << after.error.value_or("");

  const auto got = record(result, server_.url("/case"));
  EXPECT_EQ(got.status, c.want.status);
  expect_error(c.want.error, got.error);
  EXPECT_EQ(got.failure ? std::optional<std::string>(failure_name(*got.failure)) : std::nullopt,
            c.want.failure);
  EXPECT_EQ(got.tries, c.want.tries);
  if (c.want.size) {
    EXPECT_EQ(got.size, *c.want.size);
  }
  if (c.want.encoding) {
    EXPECT_EQ(got.encoding, c.want.encoding);
  }
  EXPECT_EQ(server_.requests_for("/after"), 1u);
  if (c.check) c.check(result, server_);
}

/// The cases also run through the binary.
class HostileServerBinary : public HostileServer {};

TEST_P(HostileServerBinary, Crawl) {
  const auto& c = GetParam();
  const auto args = binary_args(base_options(), options());
  const auto started = std::chrono::steady_clock::now();
  const auto run = testing::run_corocrawl(args, {}, bound() + 10s);
  EXPECT_LT(std::chrono::steady_clock::now() - started, bound() + 2s);
  ASSERT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, c.passed ? 0 : 1) << run.err;
  const auto summary = json::parse(run.out).as_object();
  EXPECT_EQ(summary.at("passed").as_bool(), c.passed);
  const json::object* found = nullptr;
  for (const auto& url : summary.at("urls").as_array())
    if (url.at("url") == json::value(server_.url("/case"))) found = &url.as_object();
  ASSERT_NE(found, nullptr);
  if (c.want.status)
    EXPECT_EQ(found->at("status"), *c.want.status);
  else
    EXPECT_TRUE(found->at("status").is_null());
  expect_error(c.want.error, found->at("error").is_null()
                                 ? std::nullopt
                                 : std::optional(json::value_to<std::string>(found->at("error"))));
  EXPECT_EQ(found->at("tries"), c.want.tries);
}

std::string case_name(const ::testing::TestParamInfo<hostile_case>& test) {
  return test.param.name;
}

std::vector<hostile_case> binary_ones(std::vector<hostile_case> all) {
  std::erase_if(all, [](const hostile_case& c) { return !c.binary; });
  return all;
}

INSTANTIATE_TEST_SUITE_P(Http, HostileServer, ::testing::ValuesIn(testing::hostile::http_cases()),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Http, HostileServerBinary,
                         ::testing::ValuesIn(binary_ones(testing::hostile::http_cases())),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Crawl, HostileServer, ::testing::ValuesIn(testing::hostile::crawl_cases()),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Crawl, HostileServerBinary,
                         ::testing::ValuesIn(binary_ones(testing::hostile::crawl_cases())),
                         case_name);

// --- Beyond one URL -------------------------------------------------------------------------

// Early Hints before every answer on keep-alive connections: each URL gets its own status.
TEST(HostileServerSequences, EarlyHintsOnEveryAnswerKeepStatusesOnTheirUrls) {
  hostile_server server;
  std::vector<std::string> links;
  for (int i = 0; i < 30; ++i)
    links.push_back("/p" + std::to_string(i));
  const std::string hints = "HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n";
  server.set_default([&](const testing::hostile::recorded_request& request) {
    if (request.target == "/") return script{step::write(hints + page(links))};
    const int n = std::stoi(request.target.substr(2));
    const std::string type = "Content-Type: text/html";
    return script{step::write(
        hints + (n % 3 == 0 ? testing::hostile::response("404 Not Found", {type}, request.target)
                            : testing::hostile::response("200 OK", {type}, request.target)))};
  });
  auto options = testing::options_for({server.url("/")});
  options.max_tasks = 4;
  options.max_per_host = 4;
  const auto result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 31u);
  for (int i = 0; i < 30; ++i) {
    const auto url = server.url("/p" + std::to_string(i));
    const auto r = record(result, url);
    EXPECT_EQ(r.status, i % 3 == 0 ? 404u : 200u) << url;
    EXPECT_EQ(r.size, ("/p" + std::to_string(i)).size()) << url;  // its own body
  }
  EXPECT_EQ(result.broken.size(), 10u);
  EXPECT_LT(server.connections(), 10u);  // the connections were kept alive
}

// The server closes a kept-alive connection just as the next request arrives (an idle
// time-out racing the request): the request goes again on a new connection, without a try.
TEST(HostileServerSequences, ConnectionClosedAsTheRequestArrivesIsReplacedWithoutATry) {
  hostile_server server;
  server.set_default([](const testing::hostile::recorded_request& request) {
    if (request.on_connection > 1) return script{step::close()};
    return script{step::write(request.target == "/" ? page({"/a", "/b"}) : page())};
  });
  auto options = testing::options_for({server.url("/")});
  options.max_tasks = 1;
  options.max_tries = 1;
  const auto result = run_crawl(options);
  ASSERT_EQ(result.records.size(), 3u);
  for (const auto& r : result.records) {
    EXPECT_EQ(r.status, 200u) << r.url;
    EXPECT_EQ(r.tries, 1) << r.url;
  }
  EXPECT_EQ(server.connections(), 3u);
  EXPECT_EQ(server.requests().size(), 5u);  // "/a" and "/b" each sent twice
}

// What a server says reaches the terminal only as text. Header values cannot hold C0 controls
// (the parser refuses them), but they can hold UTF-8: a C1 control (U+009B, CSI, which
// terminals act on like ESC [) and a right-to-left override, here in a Location header that
// cannot be followed, are neither in the log on stderr nor in the report on stdout.
TEST(HostileServerSequences, ControlSequencesFromAServerNeverReachTheTerminal) {
  hostile_server server;
  const std::string csi = "\xc2\x9b";
  const std::string override = "\xe2\x80\xae";
  server.add("/", script{step::write(page({"/case"}))});
  server.add("/case", script{step::write(testing::hostile::response(
                          "302 Found", {"Location: http://[" + csi + "2J" + override}, ""))});
  const auto run = testing::run_corocrawl({"-v", server.url("/")}, {}, 30s);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("bad Location header"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("bad Location header"), std::string::npos) << run.out;
  for (const auto* output : {&run.out, &run.err}) {
    EXPECT_EQ(output->find(csi), std::string::npos) << *output;
    EXPECT_EQ(output->find(override), std::string::npos) << *output;
  }
}

}  // namespace
}  // namespace corocrawl
