#pragma once
// What the HTTP client is told: its part of a crawl plan, every value already checked and
// parsed (config/plan.cpp makes it).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "corocrawl/options.hpp"
#include "http/proxy.hpp"

namespace corocrawl {

struct http_client_options {
  std::chrono::milliseconds timeout{30'000};  ///< connect + request + response
  std::uint64_t max_body = 10 * 1024 * 1024;  ///< decoded bytes
  std::vector<resolve_override> resolve;
  std::string user_agent;
  bool insecure = false;
  std::string ca_file;
  std::optional<proxy_endpoint> http_proxy;   ///< for http:// URLs; none: direct
  std::optional<proxy_endpoint> https_proxy;  ///< for https:// URLs, through CONNECT
  std::string no_proxy;                       ///< hosts reached directly; see bypasses_proxy
  /// Connections open at once, across all origins and proxies; 0: no limit. See
  /// connection_cap().
  std::size_t max_connections = 0;
  /// Requests on plain connections wait in a request_batch until the event loop sends them
  /// (http_client::send_gathered_requests): only for a loop that does.
  bool gather_requests = false;
};

}  // namespace corocrawl
