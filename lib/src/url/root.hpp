#pragma once
// What a ROOT argument names: a URL to crawl or a local directory to serve and crawl.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace corocrawl {

/// A directory of built HTML that corocrawl serves itself on 127.0.0.1.
struct directory_root {
  std::filesystem::path path;  ///< absolute, canonical
};

/// The normalised absolute http(s) URL of a root, and the credentials its userinfo names.
struct url_root {
  std::string url;  ///< without userinfo: the URL crawled, recorded and shown
  /// "USER:PASSWORD" from the URL's userinfo (RFC 3986 3.2.1), percent-decoded; "USER:" when
  /// it has no password. Basic credentials for the URL's origin (scheme, host and port) only.
  std::optional<std::string> user;
  /// `url` with its userinfo: the text settings keep for the root, so that the credentials
  /// reach run_crawl when it classifies the root again. Holds the password: never show it.
  std::string setting;
};

using root = std::variant<url_root, directory_root>;

/// Classifies a ROOT as typed by a user. An "http://" or "https://" URL is a URL; an existing
/// directory is a directory; other text without a scheme that does not look like a path is a
/// bare host (and path) and gets "http://". Relative directories are taken from `base_dir`.
/// Throws config_error (naming the root and the problem) for an unsupported scheme, a
/// malformed URL, a userinfo with an empty user name or a ':' in it, a path that does not
/// exist or a file that is not a directory. A URL's userinfo is never in the message.
root classify_root(std::string_view text,
                   const std::filesystem::path& base_dir = std::filesystem::current_path());

/// `text`, a URL or a bare host as a user typed it (a root, a proxy), with its userinfo, user
/// name and password alike, shown as "***": "https://***@a.test/". The userinfo ends at the
/// last '@' before the path, so a '?' or '#' typed unencoded in a password is hidden too.
/// Text without a userinfo is returned unchanged.
std::string without_userinfo(std::string_view text);

}  // namespace corocrawl
