#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <optional>

#include "corocrawl/config.hpp"
#include "corocrawl/crawl.hpp"
#include "corocrawl/root.hpp"
#include "crawl/crawler.hpp"
#include "serve/static_site_server.hpp"

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

}  // namespace

crawl_result run_crawl(const crawl_options& options) {
  validate(options);

  // Directory roots are served on 127.0.0.1 for as long as the crawl runs.
  std::vector<std::unique_ptr<static_site_server>> servers;
  // Root URLs without userinfo, so that no output shows it; the credentials it named go
  // beside them, to their origins only.
  std::vector<url_root> roots;
  for (const auto& text : options.roots) {
    const auto classified = classify_root(text);
    if (const auto* url = std::get_if<url_root>(&classified)) {
      roots.push_back(*url);
    } else {
      const auto& directory = std::get<directory_root>(classified).path;
      servers.push_back(std::make_unique<static_site_server>(directory));
      roots.push_back({.url = servers.back()->url()});
      spdlog::info("serving {} at {}", directory.string(), servers.back()->url());
    }
  }

  asio::io_context context{1};
  std::vector<std::string> root_urls;
  for (const auto& root_url : roots)
    root_urls.push_back(root_url.url);
  http_fetcher fetcher{context.get_executor(), client_options(options)};
  steady_crawl_clock clock;
  crawler crawl{fetcher, clock, options, std::move(root_urls), origins_of(roots)};
  std::optional<asio::signal_set> signals;
  if (options.stop_on_signals) {
    signals.emplace(context, SIGINT, SIGTERM);
    stop_on_signal(*signals, crawl);
  }
  asio::co_spawn(context, crawl.crawl(), [&signals](std::exception_ptr error) {
    if (signals) signals->cancel();
    if (error) std::rethrow_exception(error);
  });
  context.run();
  return crawl.result();
}

}  // namespace corocrawl
