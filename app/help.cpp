// The prose of --help. The config file paragraph lists the keys of the option table, so a
// new option appears in it with no change here.

#include "help.hpp"

#include <array>
#include <sstream>
#include <string>
#include <vector>

namespace corocrawl::cli {
namespace {

constexpr std::size_t footer_width = 79;

constexpr std::string_view config_file_start =
    "Config file: TOML with one key per option, named with '_' for '-': ";

constexpr std::string_view config_file_end =
    ". Headers go in a [headers] table of \"Name\" = \"value\" lines; headers for one host only "
    "in a [hosts.\"HOST\".headers] table; status rules in [[rules]] tables of match = \"REGEX\" "
    "and accept, warn or skip = true. Relative paths are taken from the file's directory; "
    "the file may have at most 1 MiB.";

constexpr std::string_view proxies =
    R"(Proxies: unless --proxy or the proxy key is given, http:// URLs use
$http_proxy and https:// URLs $https_proxy (or HTTP_PROXY, HTTPS_PROXY), and
unless --no-proxy or no_proxy is given, $no_proxy (or NO_PROXY) lists the hosts
reached directly. --proxy "" ignores the proxy variables. Loopback hosts
(localhost, 127.0.0.0/8, ::1) never use a proxy.
)";

constexpr std::array<exit_status_doc, 5> statuses{{
    {0, "nothing broken"},
    {1, "at least one broken URL, --max-time ran out, or --max-urls left URLs\nunchecked"},
    {2, "usage or configuration error"},
    {3,
     "the crawl could not run (e.g. a local directory could not be served) or\n"
     "go on (out of file descriptors), or\n"
     "a report or summary could not be written"},
    {130, "interrupted (Ctrl-C or SIGTERM)"},
}};

/// The exit statuses as --help lists them: the code, then the meaning's lines indented.
std::string exit_status_list() {
  std::string out = "Exit status:\n";
  for (const exit_status_doc& status : statuses) {
    std::string code = std::to_string(status.code);
    code.resize(5, ' ');
    out += "  " + code;
    for (const char c : status.meaning)
      out += c == '\n' ? std::string("\n       ") : std::string(1, c);
    out += "\n";
  }
  return out;
}

/// `text` in lines of at most `width` columns, broken at spaces.
std::string wrapped(std::string_view text, std::size_t width) {
  std::istringstream words{std::string(text)};
  std::string out;
  std::string line;
  for (std::string word; words >> word;) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + line + "\n";
}

}  // namespace

const std::string_view help_description =
    R"(corocrawl crawls a website and checks its links. Starting from each ROOT it
fetches every page of the site once, many requests at a time, follows the links
that stay on the site's hosts, and reports every URL that is broken (an HTTP
error status, a network error on every try, or a redirect chain that is too
long) together with the pages that link to it.

A ROOT is an http:// or https:// URL; a bare host with an optional port and
path, such as example.com/docs or localhost:8080 (http:// is assumed); or a
local directory of built HTML, which corocrawl serves itself on 127.0.0.1
while it checks it. Settings come from the defaults, then the environment
(proxies), then the config file, then the options given here; a list given
here (ROOTs, --exclude, --resolve, --sitemap, --output) replaces the config
file's.
)";

std::span<const exit_status_doc> exit_statuses() {
  return statuses;
}

std::string config_file_text(std::span<const option_spec* const> specs) {
  return std::string(config_file_start) + config_key_list(specs) + std::string(config_file_end);
}

std::string help_footer(std::span<const option<settings>> table) {
  std::vector<const option_spec*> specs;
  for (const option<settings>& o : table)
    specs.push_back(&o.spec);
  return wrapped(config_file_text(specs), footer_width) + "\n" + std::string(proxies) + "\n" +
         exit_status_list();
}

}  // namespace corocrawl::cli
