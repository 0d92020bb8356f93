// The option table's HTTP, Politeness, TLS, Identity and Proxy groups (see option_table.cpp).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/option_descriptors.hpp"
#include "config/value_parsers.hpp"
#include "corocrawl/version.hpp"
#include "text/ascii.hpp"

namespace corocrawl::option_descriptors {
namespace {

// A check that keeps a text value with its surrounding whitespace trimmed.
std::string trimmed(std::string_view, std::string_view text) {
  return std::string(ascii::trim(text));
}

}  // namespace

void add_network_options(std::vector<option<crawl_options>>& t) {
  using k = option_kind;
  std::string_view group = "HTTP";
  t.push_back(member<&crawl_options::timeout>(
      {.flag = "--timeout",
       .key = "timeout",
       .kind = k::seconds,
       .group = group,
       .value_name = "SECONDS",
       .help = "Time limit per request, may be a fraction\n(default: 30)",
       .default_text = "30",
       .meaning =
           "time limit per request: DNS, connect, TLS, request and response; fractions allowed",
       .seconds = timeout_range}));
  t.push_back(member<&crawl_options::max_redirect>(
      {.flag = "--max-redirect",
       .key = "max_redirect",
       .kind = k::count,
       .group = group,
       .value_name = "N",
       .help = "Redirects followed in one chain, 0 for none\n(default: 10)",
       .default_text = "10",
       .meaning = "redirects followed in one chain; 0 follows none",
       .counts = max_redirect_range}));
  t.push_back(member<&crawl_options::max_tries>(
      {.flag = "--max-tries",
       .key = "max_tries",
       .kind = k::count,
       .group = group,
       .value_name = "N",
       .help = "Attempts per URL on network errors, 429 and 503\n(default: 4)",
       .default_text = "4",
       .meaning = "attempts per URL on network errors (with a back-off), 429 and 503",
       .counts = max_tries_range}));
  t.push_back(member<&crawl_options::max_body>(
      {.flag = "--max-body",
       .key = "max_body",
       .kind = k::byte_size,
       .group = group,
       .value_name = "BYTES",
       .help = "Largest decoded body: bytes, or with a unit K, M,\n"
               "G or KiB, MiB, GiB (powers of 1024) as in 10MiB\n"
               "(default: 10MiB = 10485760)",
       .default_text = "10MiB",
       .meaning = "largest decoded body (bytes, or `K`/`M`/`G`, `KiB`/`MiB`/`GiB`: powers of 1024)",
       .file_note = " (a number or a string such as \"10MiB\")",
       .max_bytes = max_body_limit}));
  t.push_back(member<&crawl_options::resolve>(
      {.flag = "--resolve",
       .key = "resolve",
       .kind = k::resolves,
       .group = group,
       .value_name = "HOST:PORT:ADDR[,ADDR...]",
       .help = "Connect to ADDR (IPv4 or [IPv6]) for HOST:PORT,\n"
               "like curl's --resolve; several ADDRs are tried in\n"
               "order. Repeatable (default: none)",
       .default_text = "none",
       .meaning = "connect to these addresses (IPv4, or IPv6 in brackets), tried in order, for "
                  "HOST:PORT, like curl's `--resolve`",
       .file_note = " = [...]"}));

  group = "Politeness (per host:port)";
  t.push_back(member<&crawl_options::max_per_host>(
      {.flag = "--max-per-host",
       .key = "max_per_host",
       .kind = k::count,
       .group = group,
       .value_name = "N",
       .help = "Concurrent requests to one host:port\n(default: 16)",
       .default_text = "16",
       .meaning = "concurrent requests, and so connections, to one host:port; the other workers go "
                  "on with other hosts. A page keeps its place until it is parsed, which bounds "
                  "the memory of pages waiting for a parse thread",
       .counts = max_per_host_range}));
  t.push_back(member<&crawl_options::rate_limit>(
      {.flag = "--rate-limit",
       .key = "rate_limit",
       .kind = k::rate,
       .group = group,
       .value_name = "R",
       .help = "Requests per second to one host:port, may be a\n"
               "fraction such as 0.5 (default: unlimited)",
       .default_text = "unlimited",
       .meaning = "requests per second to one host:port; fractions allowed (`0.5`)"}));
  t.push_back(member<&crawl_options::max_retry_wait>(
      {.flag = "--max-retry-wait",
       .key = "max_retry_wait",
       .kind = k::seconds,
       .group = group,
       .value_name = "SECONDS",
       .help = "Longest wait a Retry-After header gets; 0: do\n"
               "not wait for Retry-After (default: 60)",
       .default_text = "60",
       .meaning = "the longest wait a `Retry-After` gets; 0: 429 and 503 are not retried",
       .seconds = retry_wait_range}));
  t.push_back(member<&crawl_options::fail_on_rate_limit>(
      {.flag = "--fail-on-rate-limit",
       .key = "fail_on_rate_limit",
       .kind = k::flag,
       .group = group,
       .help = "Fail the crawl when URLs still answer 429 (Too\n"
               "Many Requests) after every try (default: off)",
       .default_text = "off",
       .meaning = "URLs still answering 429 at the end fail the crawl"}));

  group = "TLS";
  t.push_back(member<&crawl_options::insecure>(
      {.flag = "--insecure",
       .key = "insecure",
       .kind = k::flag,
       .group = group,
       .help = "Do not verify certificates or host names\n(default: verify)",
       .default_text = "off",
       .meaning = "do not verify certificates and host names"}));
  t.push_back(member<&crawl_options::ca_file>(
      {.flag = "--ca-file",
       .key = "ca_file",
       .kind = k::input_file,
       .group = group,
       .value_name = "FILE",
       .help = "PEM file of CA certificates to trust besides the\nsystem's (default: none)",
       .default_text = "none",
       .meaning = "PEM file of CA certificates to trust besides the system's"}));

  group = "Identity";
  t.push_back(member<&crawl_options::user_agent>(
      {.flag = "--user-agent",
       .key = "user_agent",
       .kind = k::text,
       .group = group,
       .value_name = "STRING",
       .help = std::string("User-Agent header (default: corocrawl/") + version + "\n(+" +
               project_url + "))",
       .default_text = "`corocrawl/<version> (+<project URL>)`",
       .meaning = "the User-Agent header",
       .check = parse_user_agent}));
  t.push_back(member<&crawl_options::headers>(
      {.flag = "--header",
       .key = "headers",
       .kind = k::headers,
       .group = group,
       .value_name = "\"NAME: VALUE\"",
       .help = "Header for the roots' origins; replaces a config\n"
               "file header of that name. Repeatable\n(default: none)",
       .default_text = "none",
       .meaning = "headers for the roots' origins (scheme, host and port) only, see [where "
                  "credentials go](usage.md#where-credentials-go)",
       .secret = option_secret::header_values}));
  t.push_back(member<&crawl_options::host_headers>(
      {.key = "hosts",
       .kind = k::host_headers,
       .group = group,
       .default_text = "none",
       .meaning = "headers for that one host on any port; over plain http only when the crawl "
                  "itself goes over plain http",
       .secret = option_secret::header_values}));
  t.push_back(member<&crawl_options::user>(
      {.flag = "--user",
       .key = "user",
       .kind = k::text,
       .group = group,
       .value_name = "USER:PASSWORD",
       .help = "Basic authentication for the roots' origins\n(default: none)",
       .default_text = "none",
       .meaning = "basic authentication for the roots' origins only, sent with the first request; "
                  "a root's own `USER:PASS@` wins on its origin",
       .check = parse_user,
       .secret = option_secret::whole}));

  group = "Proxy (see below)";
  t.push_back({{.flag = "--proxy",
                .key = "proxy",
                .kind = k::text,
                .group = group,
                .value_name = "URL",
                .help = "HTTP proxy for http and https URLs, as\n"
                        "http://[USER:PASS@]HOST[:PORT] (https through\n"
                        "CONNECT); \"\" for none (default: $http_proxy and\n"
                        "$https_proxy, see below)",
                .default_text = "`$http_proxy`, `$https_proxy`",
                .meaning = "HTTP proxy `http://[USER:PASS@]HOST[:PORT]` for http and https URLs "
                           "(https through `CONNECT`); `\"\"` for none",
                .check = parse_proxy_url,
                .secret = option_secret::url_userinfo},
               // One proxy for both schemes; "" means none, whatever the environment says.
               [](crawl_options& c, option_value&& v) {
                 c.proxy.http_proxy = c.proxy.https_proxy = std::get<std::string>(std::move(v));
               },
               [](const crawl_options& c) { return option_value(c.proxy.http_proxy); }});
  t.push_back({{.flag = "--no-proxy",
                .key = "no_proxy",
                .kind = k::text,
                .group = group,
                .value_name = "LIST",
                .help = "Hosts reached directly: comma-separated names\n"
                        "(with their subdomains), IP addresses, or *\n"
                        "(default: $no_proxy)",
                .default_text = "`$no_proxy`",
                .meaning = "hosts reached directly: comma-separated names (with their subdomains), "
                           "IP addresses, IPv4 CIDR blocks, or `*`",
                .check = trimmed},
               [](crawl_options& c, option_value&& v) {
                 c.proxy.no_proxy = std::get<std::string>(std::move(v));
               },
               [](const crawl_options& c) { return option_value(c.proxy.no_proxy); }});
}

}  // namespace corocrawl::option_descriptors
