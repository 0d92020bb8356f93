#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <optional>

#include "cache/link_cache.hpp"
#include "config/plan_details.hpp"
#include "corocrawl/crawl.hpp"
#include "corocrawl/plan.hpp"
#include "crawl/crawler.hpp"
#include "serve/static_site_server.hpp"
#include "url/url.hpp"

namespace corocrawl {

namespace asio = boost::asio;

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
  // Directory roots are served on 127.0.0.1 for as long as the crawl runs; their origins
  // get the crawl's headers as the URL roots' do.
  std::vector<std::unique_ptr<static_site_server>> servers;
  std::vector<std::string> root_urls;
  std::vector<root_origin> root_origins = plan.get().root_origins;
  for (const auto& given : plan.get().roots) {
    if (!given.directory) {
      root_urls.push_back(given.url);
      continue;
    }
    const auto& directory = *given.directory;
    servers.push_back(std::make_unique<static_site_server>(directory));
    root_urls.push_back(servers.back()->url());
    spdlog::info("serving {} at {}", directory.string(), servers.back()->url());
    if (const auto target = split_http_url(root_urls.back())) {
      root_origins.push_back({target->https, target->host, target->port, std::nullopt});
    }
  }

  const auto cache = load_cache(plan.options());
  asio::io_context context{1};
  http_fetcher fetcher{context.get_executor(), client_options(plan)};
  steady_crawl_clock clock;
  crawler crawl{fetcher, clock, plan, std::move(root_urls), std::move(root_origins), cache.get()};
  std::optional<asio::signal_set> signals;
  if (plan.options().stop_on_signals) {
    signals.emplace(context, SIGINT, SIGTERM);
    stop_on_signal(*signals, crawl);
  }
  asio::co_spawn(context, crawl.crawl(), [&signals](std::exception_ptr error) {
    if (signals) signals->cancel();
    if (error) std::rethrow_exception(error);
  });
  context.run();
  // Whatever the crawl's outcome, the successes it found stand: they are kept.
  if (cache) {
    if (const auto problem = cache->save(std::chrono::system_clock::now()))
      spdlog::warn("the cache was not saved: {}", *problem);
  }
  return crawl.result();
}

}  // namespace corocrawl
