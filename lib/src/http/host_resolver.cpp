#include "http/host_resolver.hpp"

#include <netdb.h>

#include <array>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/address.hpp>

#include "http/fetch_error.hpp"
#include "sys/use_tuple.hpp"

namespace corocrawl {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;
using namespace asio::experimental::awaitable_operators;

namespace {

// glibc 2.36 allocates its name service state on a process's first lookup of any kind, and
// dereferences the null it gets should that allocation fail (__nss_database_get): a crawl
// whose first host name comes after its memory ran out would crash in getaddrinfo. A lookup
// of a service name, which /etc/services answers without the network, makes that state while
// memory is plentiful.
void make_name_service_state() {
  servent entry{};
  servent* found = nullptr;
  std::array<char, 1024> buffer{};
  getservbyname_r("http", "tcp", &entry, buffer.data(), buffer.size(), &found);
}

}  // namespace

host_resolver::host_resolver(asio::any_io_executor executor, std::vector<resolve_override> fixed)
    : executor_(std::move(executor)), fixed_(std::move(fixed)) {
  static const bool made = (make_name_service_state(), true);
  (void)made;
}

asio::awaitable<error_code> host_resolver::resolve(const std::string& host, std::uint16_t port,
                                                   deadline until, endpoints& out) {
  for (const auto& fixed : fixed_) {
    if (fixed.host != host || fixed.port != port) continue;
    out.clear();
    for (const auto& text : fixed.addresses) {
      error_code ec;
      const auto address = asio::ip::make_address(text, ec);
      if (ec) co_return make_error_code(fetch_errc::bad_address);
      out.emplace_back(address, port);
    }
    co_return error_code{};
  }
  if (error_code ec; true) {
    const auto literal = asio::ip::make_address(host, ec);
    if (!ec) {
      out = {tcp::endpoint{literal, port}};
      co_return error_code{};
    }
  }

  // One lookup per host:port and crawl; requests that arrive meanwhile wait for its answer.
  const auto key = host + ":" + std::to_string(port);
  auto [it, first] = resolutions_.try_emplace(key);
  if (first) {
    it->second = std::make_shared<resolution>();
    it->second->ready =
        std::make_unique<asio::steady_timer>(executor_, asio::steady_timer::time_point::max());
  }
  const auto lookup = it->second;  // keeps it alive should the entry be dropped below
  if (first) {
    tcp::resolver resolver{executor_};
    asio::steady_timer timer{executor_, until};
    auto answer = co_await (resolver.async_resolve(host, std::to_string(port), use_tuple) ||
                            timer.async_wait(use_tuple));
    if (answer.index() == 0) {
      auto& [ec, results] = std::get<0>(answer);
      lookup->ec = ec;
      for (const auto& entry : results)
        lookup->addresses.push_back(entry.endpoint());
      if (!ec && lookup->addresses.empty()) lookup->ec = asio::error::host_not_found;
      // Out of descriptors is the process's trouble, and EAI_AGAIN the resolver's, not the
      // host's: ask again later.
      if (is_out_of_descriptors(lookup->ec) || lookup->ec == asio::error::host_not_found_try_again)
        resolutions_.erase(key);
    } else {
      lookup->ec = asio::error::timed_out;
      resolutions_.erase(key);  // a slow lookup is worth another go later
    }
    lookup->done = true;
    lookup->ready->cancel();
  }
  while (!lookup->done)
    co_await lookup->ready->async_wait(use_tuple);
  if (lookup->ec) co_return lookup->ec;
  out = lookup->addresses;
  co_return error_code{};
}

}  // namespace corocrawl
