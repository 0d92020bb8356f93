// Checks settings as a whole, however they were put together (command line, corocrawl.toml or
// code), with the same rules and messages as the parsers in config.cpp.

#include <cmath>
#include <filesystem>
#include <string>
#include <string_view>

#include "ascii.hpp"
#include "config_detail.hpp"
#include "corocrawl/config.hpp"
#include "corocrawl/root.hpp"
#include "corocrawl/scope.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

using namespace detail;  // the helpers config_detail.hpp shares

}  // namespace

void validate(const crawl_options& c) {
  if (c.roots.empty()) {
    fail("no root to crawl: give a URL or a directory, or roots = [...] in corocrawl.toml");
  }
  for (const std::string& r : c.roots)
    classify_root(r);
  compile_patterns(c.exclude, "exclude");
  if (c.max_tasks < 1)
    fail("max_tasks: expected a positive integer, got " + std::to_string(c.max_tasks));
  if (c.threads < 0) {
    fail("threads: expected a non-negative integer (0: one per core), got " +
         std::to_string(c.threads));
  }
  if (c.max_tries < 1)
    fail("max_tries: expected a positive integer, got " + std::to_string(c.max_tries));
  if (c.max_redirect < 0) {
    fail("max_redirect: expected a non-negative integer, got " + std::to_string(c.max_redirect));
  }
  if (c.timeout.count() <= 0) {
    fail("timeout: expected a positive number of seconds, got " +
         std::to_string(c.timeout.count()) + " ms");
  }
  if (c.max_time && c.max_time->count() <= 0) {
    fail("max_time: expected a positive number of seconds, got " +
         std::to_string(c.max_time->count()) + " ms");
  }
  if (c.max_body < 1) fail("max_body: expected a size in bytes >= 1, got 0");
  if (c.max_per_host < 1) {
    fail("max_per_host: expected a positive integer, got " + std::to_string(c.max_per_host));
  }
  // 0 is "unlimited"; a positive rate goes through the same check as the parsers'.
  if (!std::isfinite(c.rate_limit) || c.rate_limit < 0) {
    fail("rate_limit: expected a non-negative number of requests per second, got " +
         shown_number(c.rate_limit));
  }
  if (c.rate_limit > 0) checked_rate("rate_limit", c.rate_limit, shown_number(c.rate_limit));
  if (c.max_retry_wait.count() < 0) {
    fail("max_retry_wait: expected a non-negative number of seconds, got " +
         std::to_string(c.max_retry_wait.count()) + " ms");
  }
  for (const resolve_override& r : c.resolve) {
    if (r.addresses.empty()) {
      fail("resolve: no address for " + r.host + ":" + std::to_string(r.port));
    }
  }
  if (!c.user_agent.empty()) parse_user_agent("user_agent", c.user_agent);
  for (const http_header& h : c.headers)
    checked_header("headers", h.name, h.value);
  for (const auto& [host, headers] : c.host_headers) {
    if (host.empty()) fail("hosts: a host name is empty");
    // Lookups use the request's lower-case host: another spelling would silently never match.
    if (host != ascii::to_lower(host)) {
      fail("hosts: host names must be lower-case, got " + quoted(std::string_view(host)));
    }
    for (const http_header& h : headers)
      checked_header("hosts." + quoted(std::string_view(host)) + ".headers", h.name, h.value);
  }
  if (c.user) parse_user("user", *c.user);
  parse_proxy_url("proxy.http_proxy", c.proxy.http_proxy);
  parse_proxy_url("proxy.https_proxy", c.proxy.https_proxy);
  if (!c.ca_file.empty()) parse_ca_file("ca_file", c.ca_file, fs::current_path());
}

void validate(const settings& s) {
  validate(s.crawl);
  if (s.json_path && s.json_path->empty()) fail("json: expected a file name or \"-\", got \"\"");
}

}  // namespace corocrawl
