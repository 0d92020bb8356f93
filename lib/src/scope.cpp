// The seed's host rules (crawling.py host_okay) plus exclusion patterns.

#include "corocrawl/scope.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <optional>

#include "ascii.hpp"
#include "corocrawl/errors.hpp"

namespace corocrawl {
namespace {

namespace urls = boost::urls;

// A host as compared: lower-case, without IPv6 brackets or a trailing root dot.
std::string comparable_host(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  } else if (host.size() > 1 && host.back() == '.') {
    host.remove_suffix(1);
  }
  return ascii::to_lower(host);
}

// IPv6 literals contain ':'; the seed treats hosts made of digits and dots as IPv4.
bool is_ip_literal(std::string_view host) {
  if (host.find(':') != std::string_view::npos) return true;
  return !host.empty() && host.find_first_not_of("0123456789.") == std::string_view::npos;
}

// The seed's lenient_host, joined with '.' so that "ab.c" and "a.bc" stay apart.
std::string last_two_labels(std::string_view host) {
  const std::size_t last_dot = host.rfind('.');
  if (last_dot == std::string_view::npos || last_dot == 0) return std::string(host);
  const std::size_t previous_dot = host.rfind('.', last_dot - 1);
  return std::string(previous_dot == std::string_view::npos ? host : host.substr(previous_dot + 1));
}

// The host of an absolute URL as written (IPv6 without brackets); nullopt when it has none.
std::optional<std::string> host_of(urls::url_view u) {
  if (!u.has_authority() || u.encoded_host().empty()) return std::nullopt;
  if (u.host_type() == urls::host_type::ipv6) return std::string(u.encoded_host_address());
  return std::string(u.encoded_host());
}

bool is_http(urls::url_view u) {
  const std::string scheme = ascii::to_lower(u.scheme());
  return scheme == "http" || scheme == "https";
}

// libstdc++ 12 reads the number of a repetition count ("a{N}", "a{M,N}") or a back-reference
// ("\N") into a long without an overflow check (undefined behaviour), then into an int, so
// "a{4294967297}" would be taken as "a{1}". A number of more than 9 digits there (maybe also
// in a character class, where it would be text) is refused instead.
bool has_too_large_number(std::string_view pattern) {
  const auto digits_after = [&](std::size_t i) {
    std::size_t n = 0;
    while (i + 1 + n < pattern.size() && ascii::is_digit(pattern[i + 1 + n]))
      ++n;
    return n;
  };
  bool in_braces = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\') {
      if (digits_after(i) > 9) return true;
      ++i;  // the escaped character
    } else if (c == '{' || (c == ',' && in_braces)) {
      in_braces = true;
      if (digits_after(i) > 9) return true;
    } else if (c == '}') {
      in_braces = false;
    }
  }
  return false;
}

}  // namespace

scope::scope(std::span<const std::string> root_urls, bool strict, std::vector<std::regex> exclude)
    : strict_(strict), exclude_(std::move(exclude)) {
  for (const std::string& root : root_urls) {
    const auto parsed = urls::parse_uri(root);
    if (!parsed) continue;
    const auto host = host_of(*parsed);
    if (!host) continue;
    const std::string h = comparable_host(*host);
    root_hosts_.insert(strict_ || is_ip_literal(h) ? h : last_two_labels(h));
  }
}

bool scope::host_allowed(std::string_view host) const {
  const std::string h = comparable_host(host);
  if (h.empty()) return false;
  if (root_hosts_.contains(h)) return true;
  if (is_ip_literal(h)) return false;
  if (!strict_) {
    // A name's last two labels are never an IP root ("x.1.2" must not match root "1.2").
    const std::string key = last_two_labels(h);
    return !is_ip_literal(key) && root_hosts_.contains(key);
  }
  // Strict: equal modulo one leading "www.".
  const std::string other = h.starts_with("www.") ? h.substr(4) : "www." + h;
  return !is_ip_literal(other) && root_hosts_.contains(other);
}

bool scope::allows(std::string_view url) const {
  if (url.size() > max_url_length) return false;
  const auto parsed = urls::parse_uri(url);
  if (!parsed || !is_http(*parsed)) return false;
  const auto host = host_of(*parsed);
  return host && host_allowed(*host) && !excluded(url);
}

bool scope::excluded(std::string_view url) const {
  for (const std::regex& pattern : exclude_) {
    if (std::regex_search(url.begin(), url.end(), pattern)) return true;
  }
  return false;
}

std::vector<std::regex> compile_patterns(std::span<const std::string> patterns,
                                         std::string_view option) {
  std::vector<std::regex> compiled;
  compiled.reserve(patterns.size());
  for (const std::string& pattern : patterns) {
    if (has_too_large_number(pattern)) {
      throw config_error(std::string(option) + ": invalid regular expression \"" +
                         ascii::escape_controls(pattern) +
                         "\": number too large in a repetition count or back-reference");
    }
    try {
      compiled.emplace_back(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw config_error(std::string(option) + ": invalid regular expression \"" +
                         ascii::escape_controls(pattern) +
                         "\": " + ascii::escape_controls(e.what()));
    }
  }
  return compiled;
}

}  // namespace corocrawl
