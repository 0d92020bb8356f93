#pragma once
// An HTTP proxy on 127.0.0.1 for the crawler's proxy tests. It runs on a thread of its own,
// like test_server, and sends every request to 127.0.0.1 whatever host it names, so tests
// can use made-up host names:
// - "CONNECT host:port" opens a tunnel to 127.0.0.1:port ("200 Connection established", then
//   bytes both ways until either side closes); 502 when that port does not answer;
// - absolute-form requests ("GET http://host:port/path HTTP/1.1") are forwarded to
//   127.0.0.1:port as "GET /path" with Host kept and Proxy-* headers dropped, and the
//   response is sent back; the client connection is kept alive as HTTP/1.1 says;
// - anything else is answered 400.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace corocrawl::testing {

class test_proxy {
 public:
  /// Binds 127.0.0.1 at an ephemeral port and starts serving.
  test_proxy();
  /// Stops at once, open tunnels and all.
  ~test_proxy();
  test_proxy(const test_proxy&) = delete;
  test_proxy& operator=(const test_proxy&) = delete;

  std::uint16_t port() const;
  /// "http://127.0.0.1:PORT"
  std::string url() const;

  /// The request line of every request received so far, in order of arrival, e.g.
  /// "CONNECT site.test:8443 HTTP/1.1" or "GET http://site.test:8080/a HTTP/1.1".
  std::vector<std::string> requests() const;
  /// The Proxy-Authorization header of each of requests(), in the same order.
  std::vector<std::optional<std::string>> proxy_authorizations() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace corocrawl::testing
