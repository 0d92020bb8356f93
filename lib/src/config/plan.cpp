// Checks crawl options as a whole, however they were put together (command line,
// corocrawl.toml or code), with the same rules and messages as the parsers in config.cpp, and
// works them out into a crawl plan on the way: each value is checked and parsed once.

#include "corocrawl/plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "config/baseline_file.hpp"
#include "config/config_detail.hpp"
#include "config/option_paths.hpp"
#include "config/plan_details.hpp"
#include "config/value_parsers.hpp"
#include "corocrawl/config.hpp"
#include "corocrawl/option_table.hpp"
#include "corocrawl/output_file.hpp"
#include "corocrawl/version.hpp"
#include "text/ascii.hpp"
#include "url/proxy_url.hpp"
#include "url/root.hpp"
#include "url/url_pattern.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

using namespace detail;  // the helpers config_detail.hpp shares

/// A duration as the parsers' seconds_range allows it; the upper bound also keeps timer
/// arithmetic far from overflow.
void check_duration(std::string_view name, std::chrono::milliseconds value, seconds_range range) {
  if (value.count() < 0 || (value.count() == 0 && !range.allow_zero)) {
    fail(name_of(name) + "expected a " + (range.allow_zero ? "non-negative" : "positive") +
         " number of seconds, got " + std::to_string(value.count()) + " ms");
  }
  if (value > std::chrono::duration<double>(range.max_seconds)) {
    fail(name_of(name) + "at most " + std::to_string(static_cast<std::int64_t>(range.max_seconds)) +
         " seconds, got " + std::to_string(value.count()) + " ms");
  }
}

std::size_t header_lines_size(const std::vector<http_header>& headers) {
  std::size_t size = 0;
  for (const http_header& h : headers)
    size += header_line_size(h.name, h.value.size());
  return size;
}

/// The header lines the settings can put into one request: the User-Agent, user's
/// Authorization, [headers] and the largest [hosts."NAME"] table, counted as if none replaced
/// another. Each line was checked on its own already.
void check_request_headers(const crawl_options& c) {
  std::size_t size = header_lines_size(c.headers);
  if (!c.user_agent.empty())
    size += header_line_size("User-Agent", ascii::trim(c.user_agent).size());
  if (c.user) size += header_line_size("Authorization", basic_credentials_size(c.user->size()));
  std::size_t largest_host = 0;
  for (const auto& [host, headers] : c.host_headers)
    largest_host = std::max(largest_host, header_lines_size(headers));
  size += largest_host;
  if (size > max_request_headers) {
    fail("headers: user_agent, user, headers and hosts add " + std::to_string(size) +
         " bytes of header lines to a request, more than the " +
         std::to_string(max_request_headers) + " allowed");
  }
}

/// A proxy setting parsed, as parse_proxy_url checks it; none for "".
std::optional<proxy_endpoint> proxy_of(std::string_view name, const std::string& url) {
  if (url.empty()) return std::nullopt;
  proxy_endpoint proxy = parse_proxy(name, url);
  if (proxy.authorization) {
    check_header_line(name, "the Proxy-Authorization header line its credentials become",
                      header_line_size("Proxy-Authorization", proxy.authorization->size()));
  }
  return proxy;
}

/// One value within the range its descriptor gives; unset optional values pass.
void check_range(const option_spec& spec, const option_value& value) {
  if (std::holds_alternative<std::monostate>(value)) return;
  const std::string_view key = spec.key;
  switch (spec.kind) {
    case option_kind::count:
      check_count(key, std::get<int>(value), spec.counts);
      break;
    case option_kind::large_count:
      if (std::get<std::uint64_t>(value) < 1)
        fail(name_of(key) + "expected a positive integer, got 0");
      break;
    case option_kind::seconds:
    case option_kind::duration:
      check_duration(key, std::get<std::chrono::milliseconds>(value), spec.seconds);
      break;
    case option_kind::byte_size:
      check_byte_size(key, std::get<std::uint64_t>(value), spec.max_bytes);
      break;
    case option_kind::rate: {
      // 0 is "unlimited"; a positive rate goes through the same check as the parsers'.
      const double rate = std::get<double>(value);
      if (!std::isfinite(rate) || rate < 0) {
        fail(name_of(key) + "expected a non-negative number of requests per second, got " +
             shown_number(rate));
      }
      if (rate > 0) checked_rate(key, rate, shown_number(rate));
      break;
    }
    default:
      break;  // checked as a whole below
  }
}

/// The counts, sizes, rates and times within the ranges the option table gives them.
void check_ranges(const crawl_options& c) {
  for (const option<crawl_options>& o : crawl_option_table())
    check_range(o.spec, o.read(c));
  for (const resolve_override& r : c.resolve) {
    if (r.addresses.empty()) {
      fail("resolve: no address for " + r.host + ":" + std::to_string(r.port));
    }
  }
}

/// The identity a request carries: user agent, headers and credentials well-formed.
void check_identity(const crawl_options& c) {
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
  check_request_headers(c);
}

/// The cache file, as option_kind::state_file takes it: named, not stdout, and in a
/// directory where it can be replaced (and its lock file made).
void check_cache(const std::optional<std::string>& cache) {
  if (!cache) return;
  state_path("cache", *cache, {.dir = fs::current_path()});
  try {
    check_output_path(*cache);
  } catch (const output_error& e) {
    fail("cache: cannot write " + quoted(std::string_view(*cache)) + ": " + e.code().message());
  }
}

}  // namespace

crawl_plan make_plan(const crawl_options& c) {
  auto plan = std::make_shared<crawl_plan::details>();
  plan->options = c;
  if (c.roots.empty()) {
    fail("no root to crawl: give a URL or a directory, or roots = [...] in corocrawl.toml");
  }
  std::vector<url_root> url_roots;
  for (const std::string& text : c.roots) {
    const root classified = classify_root(text);
    if (const auto* url = std::get_if<url_root>(&classified)) {
      plan->roots.push_back({.url = url->url});
      url_roots.push_back(*url);
    } else {
      plan->roots.push_back({.directory = std::get<directory_root>(classified).path});
    }
  }
  if (c.base_url) {
    const auto folders =
        std::ranges::count_if(plan->roots, [](const auto& r) { return r.directory.has_value(); });
    if (folders != 1) {
      fail("base_url: stands for one local folder among the roots, and " + std::to_string(folders) +
           " are given");
    }
    std::ranges::find_if(plan->roots, [](const auto& r) {
      return r.directory.has_value();
    })->published_at = parse_base_url("base_url", *c.base_url);
  }
  if (c.baseline) plan->baseline = read_baseline("baseline", *c.baseline);
  plan->exclude = compile_patterns(c.exclude, "exclude");
  for (const std::string& sitemap : c.sitemaps) {
    std::string normal = normalized_sitemap("sitemaps", sitemap);
    if (normal == "robots") {
      plan->sitemaps_from_robots = true;
    } else if (std::find(plan->sitemap_urls.begin(), plan->sitemap_urls.end(), normal) ==
               plan->sitemap_urls.end()) {
      plan->sitemap_urls.push_back(std::move(normal));
    }
  }
  plan->status = status_judge(c.accept, c.warn, c.rules);
  check_ranges(c);
  check_identity(c);
  check_cache(c.cache);
  plan->http = {
      .timeout = c.timeout,
      .max_body = c.max_body,
      .resolve = c.resolve,
      .user_agent = c.user_agent.empty()
                        ? std::string("corocrawl/") + version + " (+" + project_url + ")"
                        : c.user_agent,
      .insecure = c.insecure,
      .ca_file = c.ca_file,
      .http_proxy = proxy_of("proxy.http_proxy", c.proxy.http_proxy),
      .https_proxy = proxy_of("proxy.https_proxy", c.proxy.https_proxy),
      .no_proxy = c.proxy.no_proxy,
  };
  if (!c.ca_file.empty()) parse_ca_file("ca_file", c.ca_file, fs::current_path());
  plan->root_origins = origins_of(url_roots);
  // The event loop's thread parses too when idle (parse_pool::run_one_here): one core is its.
  plan->threads = c.threads ? static_cast<unsigned>(*c.threads)
                            : std::max(2U, std::thread::hardware_concurrency()) - 1;
  return crawl_plan(std::move(plan));
}

const crawl_options& crawl_plan::options() const {
  return details_->options;
}

void validate(const crawl_options& options) {
  make_plan(options);
}

}  // namespace corocrawl
