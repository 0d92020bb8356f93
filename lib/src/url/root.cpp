// classify_root: what a ROOT typed by a user names (URL, local directory or bare host).

#include "url/root.hpp"

#include <array>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <string>
#include <system_error>

#include "corocrawl/errors.hpp"
#include "text/ascii.hpp"
#include "url/host.hpp"
#include "url/idna.hpp"
#include "url/url.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(std::string_view text, std::string_view problem) {
  throw config_error("root \"" + std::string(text) + "\"" + std::string(problem));
}

/// The index of the '@' that ends the userinfo of `text`, a URL or a bare host: the last '@'
/// before the path. Generous on purpose (a '?' or '#' typed unencoded in a password does not
/// end the search): what it finds is hidden.
std::optional<std::size_t> userinfo_end(std::string_view text) {
  const std::size_t scheme_end = text.find("://");
  const std::size_t authority_begin = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  const std::size_t path = text.find('/', authority_begin);
  const std::size_t at = text.substr(0, path).rfind('@');
  if (at == std::string_view::npos || at < authority_begin) return std::nullopt;
  return at;
}

/// Fails naming a root that is (or was taken for) a URL, without its userinfo.
[[noreturn]] void fail_url(std::string_view text, std::string_view problem) {
  fail(without_userinfo(text), problem);
}

/// The scheme of a root `text` when it is written as a URL, lower-cased. The rule: a
/// syntactically valid scheme (scheme_of) followed by "://" is always a scheme ("ftp://x",
/// "HTTP://x"); a scheme followed by a bare ':' only counts when it is one of a few well-known
/// schemes that are written without "//" (mailto:, javascript:, data:...). Anything else with
/// a ':' is a bare host with a port: a URI parser would read "localhost:8080" as scheme
/// "localhost", which is never what a user means on a command line.
std::optional<std::string> root_scheme(std::string_view text) {
  auto scheme = scheme_of(text);
  if (!scheme) return std::nullopt;
  if (text.substr(scheme->size() + 1).starts_with("//")) return scheme;
  static constexpr std::array known_without_slashes{"http",  "https", "mailto", "javascript",
                                                    "data",  "ftp",   "file",   "tel",
                                                    "about", "urn",   "news",   "sms"};
  for (const char* known : known_without_slashes) {
    if (*scheme == known) return scheme;
  }
  return std::nullopt;
}

/// True when the host part of an absolute URL is non-empty.
bool has_host(std::string_view url) {
  const auto parsed = boost::urls::parse_uri(url);
  return parsed && parsed->has_authority() && !parsed->encoded_host().empty();
}

/// Moves the userinfo of `url` into `into.user`: RFC 3986 userinfo is "user[:password]",
/// percent-encoded, and RFC 7617 forbids a ':' in the user name.
void take_userinfo(std::string_view text, boost::urls::url& url, url_root& into) {
  if (!url.has_userinfo()) return;
  const std::string user = url.user();
  if (user.empty()) fail_url(text, ": the user name before '@' is empty");
  if (user.find(':') != std::string::npos) fail_url(text, ": the user name contains ':'");
  into.user = user + ":" + (url.has_password() ? url.password() : std::string());
  url.remove_userinfo();
}

url_root classify_url(std::string_view text, std::string_view written) {
  const auto ascii = with_ascii_host(written);  // "bücher.test" is "xn--bcher-kva.test"
  if (!ascii) fail_url(text, ": the host is not a valid internationalised domain name");
  const std::string_view as_url = *ascii;
  const auto parsed = boost::urls::parse_uri(as_url);
  if (!parsed) fail_url(text, ": not a valid URL");
  if (!has_host(as_url)) fail_url(text, ": URL has no host");
  if (const auto port = parsed->port(); !port.empty()) {
    // Boost.URL 1.81 accepts any run of digits here (and wraps port_number() around).
    if (const auto number = parse_port(port); !number || *number == 0) {
      // A "port" read from a text with an '@' may be a piece of a mistyped password.
      fail_url(text, userinfo_end(text)
                         ? ": port must be 1..65535"
                         : ": port must be 1..65535, got \"" + std::string(port) + "\"");
    }
  }
  // Boost.URL 1.81 reads "http://host:abc" as an empty port and the path "abc": normalize_url
  // refuses such a path after an authority, as it does for every link.
  auto normal = normalize_url(as_url);
  if (!normal || !has_host(*normal)) fail_url(text, ": not a valid URL");
  const auto normal_view = boost::urls::parse_uri(*normal);
  if (!normal_view) fail_url(text, ": not a valid URL");
  boost::urls::url url(*normal_view);
  url_root result;
  take_userinfo(text, url, result);
  result.url = url.buffer();
  result.setting = std::move(*normal);
  return result;
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

  if (const auto scheme = root_scheme(text)) {
    if (*scheme != "http" && *scheme != "https") {
      fail_url(text, ": unsupported scheme \"" + *scheme + "\" (only http and https)");
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
  const auto ascii = with_ascii_host(as_url);
  if (!ascii || !boost::urls::parse_uri(*ascii) || !has_host(*ascii)) {
    fail_url(text, ": not a URL, an existing directory or a host name");
  }
  return classify_url(text, as_url);
}

std::string without_userinfo(std::string_view text) {
  const auto at = userinfo_end(text);
  if (!at) return std::string(text);
  const std::size_t scheme_end = text.find("://");
  const std::size_t begin = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  return std::string(text.substr(0, begin)) + "***" + std::string(text.substr(*at));
}

}  // namespace corocrawl
