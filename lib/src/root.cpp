// classify_root: what a ROOT typed by a user names (URL, local directory or bare host).

#include "corocrawl/root.hpp"

#include <array>
#include <boost/url/parse.hpp>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <string>
#include <system_error>

#include "ascii.hpp"
#include "corocrawl/errors.hpp"
#include "corocrawl/url.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(std::string_view text, std::string_view problem) {
  throw config_error("root \"" + std::string(text) + "\"" + std::string(problem));
}

bool is_scheme_char(char c) {
  return ascii::is_alpha(c) || ascii::is_digit(c) || c == '+' || c == '-' || c == '.';
}

/// The scheme of `text` when it is written as a URL, lower-cased. The rule: a syntactically
/// valid scheme followed by "://" is always a scheme ("ftp://x", "HTTP://x"); a scheme
/// followed by a bare ':' only counts when it is one of a few well-known schemes that are
/// written without "//" (mailto:, javascript:, data:...). Anything else with a ':' is a bare
/// host with a port: a URI parser would read "localhost:8080" as scheme "localhost", which
/// is never what a user means on a command line.
std::optional<std::string> scheme_of(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0 || !ascii::is_alpha(text[0]))
    return std::nullopt;
  const auto candidate = text.substr(0, colon);
  for (char c : candidate) {
    if (!is_scheme_char(c)) return std::nullopt;
  }
  std::string scheme = ascii::to_lower(candidate);
  if (text.substr(colon + 1).starts_with("//")) return scheme;
  static constexpr std::array known_without_slashes{"http",  "https", "mailto", "javascript",
                                                    "data",  "ftp",   "file",   "tel",
                                                    "about", "urn",   "news",   "sms"};
  for (const char* known : known_without_slashes) {
    if (scheme == known) return scheme;
  }
  return std::nullopt;
}

/// True when the host part of an absolute URL is non-empty.
bool has_host(std::string_view url) {
  const auto parsed = boost::urls::parse_uri(url);
  return parsed && parsed->has_authority() && !parsed->encoded_host().empty();
}

url_root classify_url(std::string_view text, std::string_view as_url) {
  const auto parsed = boost::urls::parse_uri(as_url);
  if (!parsed) fail(text, ": not a valid URL");
  if (!has_host(as_url)) fail(text, ": URL has no host");
  // Boost.URL 1.81 reads "http://host:abc" as an empty port and the path "abc"; a path after
  // an authority must start with '/', so that is not a URL.
  const auto path = parsed->encoded_path();
  if (!path.empty() && !path.starts_with('/')) fail(text, ": not a valid URL");
  if (const auto port = parsed->port(); !port.empty()) {
    // Boost.URL 1.81 accepts any run of digits here (and wraps port_number() around).
    unsigned number = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), number);
    if (ec != std::errc{} || end != port.data() + port.size() || number < 1 || number > 65535) {
      fail(text, ": port must be 1..65535, got \"" + std::string(port) + "\"");
    }
  }
  auto normal = normalize_url(as_url);
  if (!normal || !has_host(*normal)) fail(text, ": not a valid URL");
  return url_root{std::move(*normal)};
}

/// "~" and "~/..." are the user's home directory, as a shell would expand them; a config
/// file is not expanded by a shell. "~user" is left alone (and does not exist).
fs::path expand_home(std::string_view text) {
  if (text == "~" || text.starts_with("~/")) {
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
      return fs::path(home) / std::string(text.substr(text == "~" ? 1 : 2));
    }
  }
  return fs::path(std::string(text));
}

bool looks_like_path(std::string_view text) {
  return text.starts_with('/') || text.starts_with("./") || text.starts_with("../") ||
         text.starts_with('~') || text == "." || text == "..";
}

}  // namespace

root classify_root(std::string_view text, const std::filesystem::path& base_dir) {
  if (text.empty()) throw config_error("root \"\": empty root");

  if (const auto scheme = scheme_of(text)) {
    if (*scheme != "http" && *scheme != "https") {
      fail(text, ": unsupported scheme \"" + *scheme + "\" (only http and https)");
    }
    return classify_url(text, text);
  }

  fs::path path = expand_home(text);
  if (path.is_relative()) path = base_dir / path;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (fs::is_directory(status)) {
    auto canonical = fs::canonical(path, ec);
    if (ec) fail(text, ": cannot open directory: " + ec.message());
    return directory_root{std::move(canonical)};
  }
  if (fs::is_regular_file(status)) fail(text, " is a file: give its directory");
  if (fs::exists(status)) fail(text, " is not a directory");
  if (looks_like_path(text)) fail(text, ": no such directory");

  // A bare host, possibly with a port and a path: "example.com/docs", "localhost:8080".
  const std::string as_url = "http://" + std::string(text);
  if (!boost::urls::parse_uri(as_url) || !has_host(as_url)) {
    fail(text, ": not a URL, an existing directory or a host name");
  }
  return classify_url(text, as_url);
}

}  // namespace corocrawl
