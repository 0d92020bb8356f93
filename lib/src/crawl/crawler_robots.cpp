// robots.txt (RFC 9309): each origin the crawl crawls is asked for it once, before its first
// URL is fetched; the other workers with URLs of that origin wait for the answer. Part of
// crawler (see crawler.hpp); fetch() in crawler.cpp calls these.

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "config/plan_details.hpp"
#include "corocrawl/utf8.hpp"
#include "crawl/crawler.hpp"
#include "url/host.hpp"
#include "url/url.hpp"

namespace corocrawl {

namespace asio = boost::asio;

namespace {

// RFC 9309 2.3.1.2: at least five redirects are followed.
constexpr int kRobotsRedirects = 5;

std::string robots_url(const http_target& target) {
  const bool default_port = target.port == (target.https ? 443 : 80);
  return std::string(target.https ? "https://" : "http://") +
         (default_port ? bracketed(target.host) : host_and_port(target.host, target.port)) +
         "/robots.txt";
}

}  // namespace

asio::awaitable<const crawler::robots_state*> crawler::robots_for(origin_id origin,
                                                                  const http_target& target) {
  if (origin >= robots_.size()) robots_.resize(origin + 1);  // a deque: states stay in place
  auto& state = robots_[origin];
  if (state.what == robots_state::fetching) {
    co_await state.fetched->async_wait(asio::as_tuple(asio::use_awaitable));  // cancel() wakes it
  } else if (state.what == robots_state::unknown) {
    state.what = robots_state::fetching;
    state.fetched.emplace(co_await asio::this_coro::executor,
                          asio::steady_timer::time_point::max());
    co_await fetch_robots(state, target);
    state.fetched->cancel();
  }
  co_return &state;
}

// Asks for robots.txt, following redirects and retrying as any URL. A 2xx answer gives the
// rules, a 4xx one allows everything; a 5xx answer or no answer after every try means the
// origin is not crawled (RFC 9309 2.3.1.4), and the crawl says why.
asio::awaitable<void> crawler::fetch_robots(robots_state& state, const http_target& origin) {
  std::string url = robots_url(origin);
  http_target target = origin;
  target.target = "/robots.txt";
  for (int redirects = 0;;) {
    const auto [fetched, tries] = co_await fetch_retrying(target, fetch_mode::get);
    if (stopping_) {
      state.what = robots_state::failed;
      state.problem = "the crawl stopped";
      co_return;
    }
    const unsigned status = fetched.response.status;
    const bool answered = !fetched.ec || (fetched.ec == fetch_errc::body_too_large && status != 0);
    if (answered && status / 100 == 2) {
      state.rules = robots_rules::parse(fetched.response.body, plan_.get().http.user_agent);
      state.what = robots_state::ready;
      spdlog::debug("{}: read", url);
      co_return;
    }
    if (answered && is_redirect_status(status) && redirects < kRobotsRedirects) {
      const auto next = resolve_link(url, fetched.response.location);
      const auto next_url = next ? http_url::of(*next) : std::nullopt;
      if (next_url) {
        url = *next;
        target = next_url->request();
        ++redirects;
        continue;
      }
    }
    if (answered && status / 100 != 5 && status != 429) {  // 4xx, or a redirect gone wrong
      state.what = robots_state::ready;                    // allows everything
      spdlog::debug("{}: answered {}: everything is allowed", url, status);
      co_return;
    }
    state.what = robots_state::failed;
    state.tries = tries;
    state.problem = answered ? url + " answered " + std::to_string(status)
                             : url + " could not be fetched: " + fetched.error;
    if (!answered) {
      const auto kind = failure_kind(fetched.ec);
      if (kind == fetch_failure::refused || kind == fetch_failure::dns) {
        state.unreachable = kind;  // the pages would fail alike: they do, without a request
        state.error = fetched.error;
        if (options_.robots)
          spdlog::warn("{}: {}: the origin's URLs fail alike", url, fetched.error);
        co_return;
      }
    }
    if (options_.robots) {
      spdlog::error("{}: the origin is not crawled (RFC 9309: robots.txt unavailable)",
                    state.problem);
    } else {
      spdlog::warn("{}: its Sitemap: lines are not read", state.problem);
    }
    co_return;
  }
}

// Whether robots.txt lets the crawl fetch `item` (of the site, with request `target`); when it
// does not, the URL is finished here: failed like its unreachable host, left unchecked (a
// robots.txt unavailable, a root disallowed), or skipped.
asio::awaitable<bool> crawler::robots_allow(const work_item& item, const http_target& target) {
  const std::string url = store_->url(item.url).str();
  const auto* robots = co_await robots_for(item.origin, target);
  if (stopping_) co_return false;
  if (robots->what == robots_state::failed && robots->unreachable) {
    const fetch_record record{
        .url = url, .error = robots->error, .failure = robots->unreachable, .tries = robots->tries};
    store_->finish(item.url, record, verdict::broken);
    co_return false;
  }
  if (robots->what == robots_state::failed) {
    store_->hold(item.url, robots->problem);
    co_return false;
  }
  if (!robots->rules.allows(target.target)) {
    // As the file has it, so made safe for a terminal before it is logged.
    const auto rule = robots->rules.deciding_rule(target.target);
    const auto shown_rule = to_terminal_text(rule.value_or(""));
    if (item.url < root_count_) {  // a root the user asked for: not checking it fails
      spdlog::warn("{}: robots.txt disallows it ({}): not crawled (--ignore-robots crawls it)", url,
                   shown_rule);
      store_->hold(item.url, "robots.txt disallows it (" + rule.value_or("") + ")");
    } else {
      spdlog::debug("not fetching {}: robots.txt ({})", url, shown_rule);
      store_->skip(item.url, "robots.txt");
    }
    co_return false;
  }
  co_return true;
}

}  // namespace corocrawl
