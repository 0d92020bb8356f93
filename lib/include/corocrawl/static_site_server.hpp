#pragma once
// Serving a local directory of built HTML over HTTP on 127.0.0.1, so it can be crawled.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace corocrawl {

/// Maps a request target ("/docs/a%20b.html?x") to a path under `root` (absolute and
/// canonical). The query is ignored and percent-escapes decoded. Returns nullopt when the
/// target would leave `root` (".." segments, symlinks pointing outside, NUL bytes) or is not
/// an origin-form target. The path returned may not exist.
std::optional<std::filesystem::path> map_target_to_path(const std::filesystem::path& root,
                                                        std::string_view target);

/// Serves `root` on 127.0.0.1 at an ephemeral port, on a thread of its own, until destroyed:
/// GET and HEAD, keep-alive, Content-Type by extension, "index.html" for a directory (a
/// directory requested without a trailing slash is redirected to it with 301), 404 for
/// anything missing or outside `root`, 405 for other methods.
class static_site_server {
 public:
  /// Starts serving. Throws std::system_error when the socket cannot be opened.
  explicit static_site_server(std::filesystem::path root);
  ~static_site_server();
  static_site_server(const static_site_server&) = delete;
  static_site_server& operator=(const static_site_server&) = delete;

  std::uint16_t port() const;
  /// "http://127.0.0.1:PORT/"
  std::string url() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace corocrawl
