#pragma once
// Serving a local directory of built HTML over HTTP on 127.0.0.1, so it can be crawled.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace corocrawl {

/// Maps a request target ("/docs/a%20b.html?x") to a path relative to the site's root
/// ("docs/a b.html"; "" for the root itself): the query is ignored, percent-escapes decoded,
/// "." and ".." segments resolved on the URL path. Returns nullopt for a target that would
/// climb above the root, holds a NUL byte or a malformed escape, or is not origin-form. The
/// file system is not consulted: the server opens the result with one call that refuses to
/// leave the root (see confined_directory), so no symlink swapped in meanwhile can.
std::optional<std::string> target_to_relative_path(std::string_view target);

enum class server_trouble : int { none, out_of_memory, out_of_descriptors };

/// The trouble in words: "out of memory while serving the folder" ...
std::string_view trouble_text(server_trouble trouble);

/// The process's own limit a failed system call (`ec`) ran into, if it did, rather than
/// something the folder or a client did: descriptors (EMFILE, ENFILE) or memory (ENOMEM,
/// ENOBUFS).
server_trouble trouble_of(const std::error_code& ec);

/// Serves `folder` on 127.0.0.1 at an ephemeral port, on a thread of its own, until destroyed:
/// GET and HEAD, keep-alive, Content-Type by extension, "index.html" for a directory (a
/// directory requested without a trailing slash is redirected to it with 301), 404 for
/// anything missing, outside `folder` or not a regular file, 405 for other methods. Symlinks
/// are followed while they stay inside `folder`. With a `mount` path ("/docs/") the site is
/// served below it: "/docs" is redirected to "/docs/", anything outside is 404.
class static_site_server {
 public:
  /// Starts serving. Throws std::system_error when `folder` is not a directory that can be
  /// opened, or the socket cannot be opened. `mount` starts and ends with '/'.
  explicit static_site_server(std::filesystem::path folder, std::string mount = "/");
  ~static_site_server();
  static_site_server(const static_site_server&) = delete;
  static_site_server& operator=(const static_site_server&) = delete;

  std::uint16_t port() const;
  /// "http://127.0.0.1:PORT/", with the mount path.
  std::string url() const;
  /// The first time the server's own limits failed it, which makes a crawl of the site
  /// untrustworthy: memory ran out on its thread (the connection at hand was dropped), or no
  /// descriptor was left (a connection waiting to be accepted was closed, a file answered
  /// 503). The server goes on. Thread-safe.
  server_trouble trouble() const;
  /// An eventfd that becomes readable when trouble() is first set, for an event loop to
  /// watch (-1 when none could be made). Owned by the server.
  int trouble_event() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// ---- For tests -----------------------------------------------------------------------------

/// target_to_relative_path(target) under `root` (absolute and canonical), or nullopt when the
/// path, as the file system resolves it now, would leave `root` through a symlink. The path
/// returned may not exist. A check at one moment, for the tests of the mapping: the server
/// does not rely on it.
std::optional<std::filesystem::path> map_target_to_path(const std::filesystem::path& root,
                                                        std::string_view target);

}  // namespace corocrawl
