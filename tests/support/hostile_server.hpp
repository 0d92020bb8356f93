#pragma once
// A server on 127.0.0.1 that says exactly what a test scripts, byte for byte, on plain
// sockets: slow or trickled writes, resets and closes at any point, bytes nobody asked for.
// It reads each request as HTTP (and records it) but writes no HTTP of its own beyond a
// default answer for unscripted paths. It runs on a thread of its own.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "request_log.hpp"

namespace corocrawl::testing::hostile {

/// One thing the server does on a connection after reading a request.
struct step {
  enum class kind {
    write,    ///< write `bytes` at once
    trickle,  ///< write `bytes` one byte at a time, `pause` between bytes
    pause,    ///< wait `pause`
    reset,    ///< abort the connection: RST (SO_LINGER 0), no more steps
    close,    ///< close the connection: FIN, no more steps
    hold,     ///< keep the connection open, silent, until the client closes it
  };
  kind what = kind::write;
  std::string bytes;
  std::chrono::milliseconds pause{0};

  static step write(std::string bytes) { return {kind::write, std::move(bytes), {}}; }
  static step trickle(std::string bytes, std::chrono::milliseconds gap) {
    return {kind::trickle, std::move(bytes), gap};
  }
  static step wait(std::chrono::milliseconds duration) { return {kind::pause, {}, duration}; }
  static step reset() { return {kind::reset, {}, {}}; }
  static step close() { return {kind::close, {}, {}}; }
  static step hold() { return {kind::hold, {}, {}}; }
};

/// What the server does for one request. When the steps end without reset, close or hold,
/// the connection stays open and the next request on it is read.
using script = std::vector<step>;

/// A request as the server read it, and where it came.
struct recorded_request : testing::request {
  std::size_t connection = 0;     ///< 1 for the first connection accepted, 2 for the next...
  std::size_t on_connection = 0;  ///< 1 for a connection's first request, 2 for its next...
};

using script_maker = std::function<script(const recorded_request&)>;

/// "HTTP/1.1 " + `status_line`, the `headers` lines, a Content-Length for `body`, and `body`.
std::string response(std::string_view status_line, const std::vector<std::string>& headers,
                     std::string_view body);
/// A 200 text/html page with Content-Length linking to `links`.
std::string page(const std::vector<std::string>& links = {});

class hostile_server {
 public:
  /// Binds 127.0.0.1 at an ephemeral port and starts serving.
  hostile_server();
  ~hostile_server();
  hostile_server(const hostile_server&) = delete;
  hostile_server& operator=(const hostile_server&) = delete;

  std::uint16_t port() const;
  /// "http://127.0.0.1:PORT" followed by `path`.
  std::string url(std::string_view path = "/") const;
  /// "http://HOST:PORT", for a made-up host name that the test maps to 127.0.0.1.
  std::string origin(std::string_view host) const;

  /// Answers requests for `path` (query ignored) with `steps`.
  void add(const std::string& path, script steps);
  /// Answers requests for `path` with what `make` returns for each request.
  void add(const std::string& path, script_maker make);
  /// Answers unscripted paths with what `make` returns; by default, page() with no links.
  void set_default(script_maker make);

  /// Every request read so far, in order of arrival.
  std::vector<recorded_request> requests() const;
  /// Requests read for `path` (query ignored), and connections accepted, so far.
  std::size_t requests_for(std::string_view path) const;
  std::size_t connections() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace corocrawl::testing::hostile
