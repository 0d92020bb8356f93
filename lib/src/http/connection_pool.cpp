#include "http/connection_pool.hpp"

#include <openssl/bio.h>
#include <openssl/ssl.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <cerrno>
#include <limits>
#include <utility>

#include "http/request_batch.hpp"
#include "sys/use_tuple.hpp"

namespace corocrawl {

namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;

/// What the pool and its slots share: the count against the cap, and a timer that never
/// expires whose waits are cancelled to wake whoever waits for a connection to close or
/// become idle.
struct connection_slot::counter {
  counter(const asio::any_io_executor& executor, std::size_t max)
      : max_open(max), changed(executor, asio::steady_timer::time_point::max()) {}
  std::size_t open = 0;
  std::size_t max_open;
  asio::steady_timer changed;
};

connection_slot& connection_slot::operator=(connection_slot&& other) noexcept {
  if (this != &other) {
    release();
    owner_ = std::move(other.owner_);
  }
  return *this;
}

connection_slot::~connection_slot() {
  release();
}

void connection_slot::release() {
  if (const auto owner = std::exchange(owner_, {}).lock()) {
    --owner->open;
    owner->changed.cancel();
  }
}

http_connection::~http_connection() {
  if (queued_in != nullptr) queued_in->forget(*this);
}

bool http_connection::nothing_held() {
  if (queued_in != nullptr) queued_in->settle(*this);
  if (buffer.size() > 0 || queued_in != nullptr) return false;
  if (auto* tls = std::get_if<1>(&stream)) {
    SSL* session = tls->native_handle();
    if (SSL_pending(session) > 0 || BIO_ctrl_pending(SSL_get_rbio(session)) > 0) return false;
  }
  return tcp().socket().is_open();
}

bool http_connection::quiet() {
  if (!nothing_held()) return false;
  auto& socket = tcp().socket();
  // A byte waiting, or 0 for a close by the server, or an error: either way not quiet.
  char byte = 0;
  const auto peeked = ::recv(socket.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return peeked < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

std::size_t connection_cap(int max_tasks) {
  // Standard streams, the event loop's own, files written, DNS lookups, the folder server's
  // listening socket: a few dozen at most.
  constexpr rlim_t reserve = 32;
  std::size_t by_descriptors = std::numeric_limits<std::size_t>::max();
  if (rlimit limit{}; getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    by_descriptors = limit.rlim_cur > reserve ? (limit.rlim_cur - reserve) / 2 : 1;
  return std::clamp<std::size_t>(by_descriptors, 1,
                                 static_cast<std::size_t>(std::max(max_tasks, 1)));
}

connection_pool::connection_pool(const asio::any_io_executor& executor, std::size_t max_open)
    : counter_(std::make_shared<connection_slot::counter>(executor, max_open)) {}

connection_pool::~connection_pool() = default;

std::unique_ptr<http_connection> connection_pool::take_idle(const std::string& route) {
  for (;;) {
    const auto found = by_route_.find(route);
    if (found == by_route_.end()) return nullptr;
    const auto newest = found->second.back();
    auto connection = std::move(newest->connection);
    forget(newest);
    if (connection->quiet()) return connection;
  }
}

void connection_pool::put_idle(const std::string& route,
                               std::unique_ptr<http_connection> connection) {
  if (!connection->nothing_held()) return;  // closed here
  by_route_[route].push_back(lru_.insert(lru_.end(), {route, std::move(connection)}));
  changed();
}

std::optional<connection_slot> connection_pool::spare_slot() {
  if (counter_->max_open != 0 && counter_->open >= counter_->max_open) return std::nullopt;
  ++counter_->open;
  return connection_slot{counter_};
}

asio::awaitable<connection_slot> connection_pool::reserve() {
  auto slot = spare_slot();
  while (!slot) {
    if (!close_oldest_idle()) co_await counter_->changed.async_wait(use_tuple);
    slot = spare_slot();
  }
  co_return std::move(*slot);
}

bool connection_pool::close_oldest_idle() {
  if (lru_.empty()) return false;
  forget(lru_.begin());  // closes it
  return true;
}

asio::awaitable<void> connection_pool::wait_for_change(std::chrono::milliseconds longest) {
  asio::steady_timer limit{counter_->changed.get_executor(), longest};
  co_await (counter_->changed.async_wait(use_tuple) || limit.async_wait(use_tuple));
}

std::size_t connection_pool::open() const {
  return counter_->open;
}

void connection_pool::forget(lru_list::iterator entry) {
  auto route = by_route_.find(entry->route);
  std::erase(route->second, entry);
  if (route->second.empty()) by_route_.erase(route);
  lru_.erase(entry);
}

void connection_pool::changed() {
  counter_->changed.cancel();
}

}  // namespace corocrawl
