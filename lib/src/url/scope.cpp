// The chapter's host rules (crawling.py's host_okay) plus exclusion patterns.

#include "url/scope.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "text/ascii.hpp"
#include "text/string_hash.hpp"
#include "url/host.hpp"
#include "url/url.hpp"

namespace corocrawl {
namespace {

namespace urls = boost::urls;

// A host as compared: lower-case, without IPv6 brackets or a trailing root dot.
std::string comparable_host(std::string_view host) {
  if (const auto address = without_brackets(host); address.size() != host.size())
    return ascii::to_lower(address);
  if (host.size() > 1 && host.back() == '.') host.remove_suffix(1);
  return ascii::to_lower(host);
}

// The chapter's test for a host that has no registrable domain to be lenient about: IPv6
// literals contain ':', and hosts made of digits and dots count as IPv4 (well-formed or not,
// "1.2.3" included). Not a parse of an address: see http_client.cpp's is_ip_address.
bool is_numeric_host(std::string_view host) {
  if (host.find(':') != std::string_view::npos) return true;
  return !host.empty() && host.find_first_not_of("0123456789.") == std::string_view::npos;
}

// The chapter's lenient_host, joined with '.' so that "ab.c" and "a.bc" stay apart.
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

}  // namespace

// The URLs each exclude pattern gave up on, so that a URL linked from every page costs one
// search that gives up, not one per page.
struct scope::give_up_record {
  static constexpr std::size_t max_bytes = 4 * 1024 * 1024;

  explicit give_up_record(std::size_t patterns) : gave_up_on(patterns), warned(patterns) {}

  // Whether `pattern` gave up on `url` before.
  bool known(std::size_t pattern, std::string_view url) const {
    if (!any.load(std::memory_order_acquire)) return false;  // the usual case: no lock
    const std::lock_guard lock(mutex);
    return gave_up_on[pattern].contains(url);
  }

  void note(std::size_t pattern, const url_pattern& exclude, std::string_view url) {
    const std::lock_guard lock(mutex);
    ++count;
    if (bytes + url.size() <= max_bytes && gave_up_on[pattern].emplace(url).second) {
      bytes += url.size();
      any.store(true, std::memory_order_release);
    }
    const bool first = !warned[pattern];
    warned[pattern] = true;
    spdlog::log(first ? spdlog::level::warn : spdlog::level::debug,
                "exclude pattern \"{}\" gave up on {}: the search took too many steps, so the URL "
                "is not excluded{}",
                shortened_for_message(exclude.text()), shortened_for_message(url, 200),
                first ? " (nested repetitions such as \"(a*)*\" cause this; later URLs this "
                        "pattern gives up on are logged at debug level)"
                      : "");
  }

  mutable std::mutex mutex;
  std::atomic<bool> any{false};
  std::vector<std::unordered_set<std::string, string_hash, std::equal_to<>>> gave_up_on;
  std::vector<bool> warned;  // per pattern: its first give-up was logged
  std::size_t bytes = 0;
  std::size_t count = 0;
};

scope::scope(std::span<const std::string> root_urls, bool strict, std::vector<url_pattern> exclude)
    : strict_(strict),
      exclude_(std::move(exclude)),
      give_ups_(std::make_unique<give_up_record>(exclude_.size())) {
  for (const std::string& root_url : root_urls) {
    const auto parsed = urls::parse_uri(root_url);
    if (!parsed) continue;
    const auto host = host_of(*parsed);
    if (!host) continue;
    const std::string h = comparable_host(*host);
    root_hosts_.insert(strict_ || is_numeric_host(h) ? h : last_two_labels(h));
  }
}

scope::~scope() = default;
scope::scope(scope&&) noexcept = default;
scope& scope::operator=(scope&&) noexcept = default;

bool scope::host_allowed(std::string_view host) const {
  const std::string h = comparable_host(host);
  if (h.empty()) return false;
  if (root_hosts_.contains(h)) return true;
  if (is_numeric_host(h)) return false;
  if (!strict_) {
    // A name's last two labels are never an IP root ("x.1.2" must not match root "1.2").
    const std::string key = last_two_labels(h);
    return !is_numeric_host(key) && root_hosts_.contains(key);
  }
  // Strict: equal modulo one leading "www.".
  const std::string other = h.starts_with("www.") ? h.substr(4) : "www." + h;
  return !is_numeric_host(other) && root_hosts_.contains(other);
}

bool scope::allows(std::string_view url) const {
  // Its host read from its normal form, its text searched as given.
  const auto normal = normalize_url(url);
  const auto parts = normal ? http_url::of(*normal) : std::nullopt;
  return parts && url.size() <= max_url_length && host_allowed(parts->host()) && !excluded(url);
}

bool scope::allows(const http_url& url) const {
  return url.text().size() <= max_url_length && host_allowed(url.host()) && !excluded(url.text());
}

bool scope::excluded(std::string_view url) const {
  for (std::size_t i = 0; i < exclude_.size(); ++i) {
    if (give_ups_->known(i, url)) continue;
    switch (exclude_[i].search(url)) {
      case search_outcome::match:
        return true;
      case search_outcome::no_match:
        break;
      case search_outcome::gave_up:
        give_ups_->note(i, exclude_[i], url);
        break;
    }
  }
  return false;
}

std::size_t scope::give_ups() const {
  const std::lock_guard lock(give_ups_->mutex);
  return give_ups_->count;
}

}  // namespace corocrawl
