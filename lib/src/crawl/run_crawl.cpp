#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>

#include "cache/link_cache.hpp"
#include "config/plan_details.hpp"
#include "corocrawl/crawl.hpp"
#include "corocrawl/errors.hpp"
#include "corocrawl/plan.hpp"
#include "crawl/crawler.hpp"
#include "report/baseline.hpp"
#include "serve/static_site_server.hpp"
#include "url/http_url.hpp"
#include "url/url.hpp"
#include "url/url_alias.hpp"

namespace corocrawl {

namespace asio = boost::asio;
namespace fs = std::filesystem;

namespace {

// The first SIGINT/SIGTERM stops the crawl cleanly; a second one ends the process at once.
void stop_on_signal(asio::signal_set& signals, crawler& crawl) {
  signals.async_wait([&signals, &crawl](const boost::system::error_code& ec, int signal) {
    if (ec) return;
    spdlog::warn("interrupted by signal {}: stopping (again to quit at once)", signal);
    crawl.stop();
    signals.async_wait([](const boost::system::error_code& again, int) {
      if (!again) std::_Exit(128 + SIGINT);
    });
  });
}

// Tells `listener` how far `crawl` has got at once and every `listener.every`, until `done` is set
// (and `timer` cancelled, so that the wait under way ends at once).
asio::awaitable<void> report_progress(const crawler& crawl, const progress_listener& listener,
                                      asio::steady_timer& timer, const bool& done) {
  const auto started = std::chrono::steady_clock::now();
  for (;;) {  // at once, then every `every`
    crawl_progress now = crawl.progress();
    now.elapsed = std::chrono::steady_clock::now() - started;
    listener.on_progress(now);
    timer.expires_after(listener.every);
    co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
    if (done) co_return;
  }
}

// The crawl's event loop, whose handlers and coroutine frames refer to the crawler and the
// objects around it. io_context's destructor destroys the ones still pending, which it finds
// only when the loop ended by an exception (a crawl that ends has none), and it runs after
// those objects are gone; pending_ended_first destroys them while the objects still live.
class event_loop : public asio::io_context {
 public:
  event_loop() : asio::io_context(1) {}
  /// Destroys the pending handlers and frames; the loop runs no more. I/O objects may still
  /// be destroyed after it, as Asio allows once its services are shut down.
  void end_pending() { shutdown(); }
};

// Declared after everything the loop's handlers refer to, so destroyed before it.
class pending_ended_first {
 public:
  explicit pending_ended_first(event_loop& loop) : loop_(loop) {}
  pending_ended_first(const pending_ended_first&) = delete;
  pending_ended_first& operator=(const pending_ended_first&) = delete;
  ~pending_ended_first() { loop_.end_pending(); }

 private:
  event_loop& loop_;
};

// The crawl's roots: its folders served on 127.0.0.1 for as long as the crawl runs, their
// origins getting the crawl's headers as the URL roots' do.
struct served_roots {
  std::vector<std::unique_ptr<static_site_server>> servers;
  std::vector<std::string> urls;
  std::vector<served_folder> folders;
  std::vector<url_alias> aliases;
  std::vector<root_origin> origins;
};

served_roots serve_roots(const crawl_plan& plan) {
  served_roots roots;
  roots.origins = plan.get().root_origins;
  for (const auto& given : plan.get().roots) {
    if (!given.directory) {
      roots.urls.push_back(given.url);
      continue;
    }
    const auto& directory = *given.directory;
    // Published at a path, the folder is served at that path too, so that its root-relative
    // links ("/docs/a.html") resolve as they will once deployed.
    const auto published = http_url::of(given.published_at);
    roots.servers.push_back(std::make_unique<static_site_server>(
        directory, published ? std::string(published->path()) : std::string("/")));
    const std::string& url = roots.urls.emplace_back(roots.servers.back()->url());
    if (published) roots.aliases.emplace_back(given.published_at, url);
    roots.folders.push_back({url, directory});
    spdlog::info("serving {} at {}", directory.string(), url);
    if (const auto target = split_http_url(url))
      roots.origins.push_back({target->https, target->host, target->port, std::nullopt});
  }
  return roots;
}

// The cache --cache names, read; none without --cache. A file that cannot be used is only
// worth a warning: the crawl fetches what the cache would have given.
std::unique_ptr<link_cache> load_cache(const crawl_options& options) {
  if (!options.cache) return nullptr;
  auto cache = std::make_unique<link_cache>(*options.cache, options.cache_max_age);
  if (const auto problem = cache->load())
    spdlog::warn("the cache is not used: {}; it is replaced at the end", *problem);
  return cache;
}

}  // namespace

crawl_result run_crawl(const crawl_options& options) {
  return run_crawl(make_plan(options));
}

crawl_result run_crawl(const crawl_plan& plan) {
  return run_crawl(plan, {});
}

crawl_result run_crawl(const crawl_plan& plan, const progress_listener& listener) {
  event_loop context;
  served_roots roots = serve_roots(plan);
  const auto cache = load_cache(plan.options());
  http_client_options gathering = client_options(plan);
  gathering.gather_requests = true;  // the loop below sends them
  http_fetcher fetcher{context.get_executor(), std::move(gathering)};
  steady_crawl_clock clock;
  crawler crawl{fetcher,
                clock,
                plan,
                std::move(roots.urls),
                std::move(roots.origins),
                std::move(roots.aliases),
                cache.get()};
  std::optional<asio::signal_set> signals;
  if (plan.options().stop_on_signals) {
    signals.emplace(context, SIGINT, SIGTERM);
    stop_on_signal(*signals, crawl);
  }
  // The progress timer runs beside the crawl and is cancelled when it ends, so it never
  // keeps the context running.
  asio::steady_timer progress_timer{context};
  bool crawled = false;
  const pending_ended_first end_pending{context};
  if (listener.on_progress) {
    asio::co_spawn(context, report_progress(crawl, listener, progress_timer, crawled),
                   asio::detached);
  }
  // A folder's server that its own limits fail fails the crawl at once: the crawl would
  // otherwise wait on answers that server cannot give, holding the memory it lacks.
  std::vector<asio::posix::stream_descriptor> troubles;
  troubles.reserve(roots.servers.size());  // the waits' descriptors stay where they are
  for (const auto& server : roots.servers) {
    const int event = server->trouble_event() < 0 ? -1 : ::dup(server->trouble_event());
    if (event < 0) continue;  // the crawl is failed when it ends instead
    auto& watch = troubles.emplace_back(context, event);
    watch.async_wait(asio::posix::descriptor_base::wait_read,
                     [&crawl, &server](const boost::system::error_code& ec) {
                       if (ec) return;
                       crawl.fail(std::make_exception_ptr(
                           std::runtime_error(std::string(trouble_text(server->trouble())))));
                     });
  }
  // Once the crawl is over, nothing else may keep the loop waiting.
  const auto crawl_over = [&] {
    crawled = true;
    if (signals) signals->cancel();
    progress_timer.cancel();
    for (auto& watch : troubles)
      watch.cancel();
  };
  asio::co_spawn(context, crawl.crawl(), [&](std::exception_ptr error) {
    crawl_over();
    if (error) std::rethrow_exception(error);
  });
  // Like context.run(), but the event loop's thread parses a waiting light page when no
  // handler is ready, rather than sleeping while the page waits for a parse thread; and the
  // requests the client gathered go out then, or once they have waited their longest.
  for (;;) {
    try {
      if (context.poll_one() > 0) {
        fetcher.send_overdue_requests();
        continue;
      }
      fetcher.send_gathered_requests();
      if (context.stopped()) break;
      if (!crawl.parse_one_here() && context.run_one() == 0) break;
    } catch (const config_error&) {
      throw;  // the settings' failure, not the environment's: exit status 2
    } catch (const std::exception&) {
      // The environment failed a handler: memory ran out in Beast's parser, Asio could not
      // start its resolver's thread or an operation inside a coroutine (Asio then destroys
      // the coroutine; crawler::start_worker says how a worker's end is still counted), or
      // the crawl's own coroutine failed (rethrown above). The crawl fails as when a worker
      // fails. The operation whose handler threw never completes, so the crawl's coroutine
      // may never return: the crawl is over now, and the loop runs until nothing is left to
      // run. The result says what was done until then.
      crawl.fail(std::current_exception());
      crawl_over();
    }
  }
  // Whatever the crawl's outcome, the successes it found stand: they are kept.
  if (cache) {
    if (const auto problem = cache->save(std::chrono::system_clock::now()))
      spdlog::warn("the cache was not saved: {}", *problem);
  }
  crawl_result result = crawl.result();
  // A folder's server that its own limits failed dropped connections or answered 503, which
  // the crawl took for the site's failures: the crawl failed, not the site.
  for (const auto& server : roots.servers) {
    if (server->trouble() != server_trouble::none && !result.failure)
      result.failure = std::string(trouble_text(server->trouble()));
  }
  result.folders = std::move(roots.folders);
  if (plan.get().baseline) {
    result.baseline = compare_with_baseline(result, *plan.get().baseline, fs::current_path());
    result.baseline->file = *plan.options().baseline;
  }
  return result;
}

}  // namespace corocrawl
