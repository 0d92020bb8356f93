#pragma once
// The HTTP client's connections: the keep-alive ones waiting for their next request, kept per
// route (an origin, or a proxy), and a cap on how many are open at once across all routes.
// When a new connection would pass the cap, the least recently used idle one is closed; when
// none is idle, the new one waits until one is. Everything runs on the client's executor.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>
#include <cstddef>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace corocrawl {

class connection_pool;
class request_batch;

/// One connection open against the cap: released (and a waiting opener woken) when it goes.
/// It outlives its pool harmlessly.
class connection_slot {
 public:
  connection_slot() = default;
  connection_slot(connection_slot&& other) noexcept = default;
  connection_slot& operator=(connection_slot&& other) noexcept;
  connection_slot(const connection_slot&) = delete;
  connection_slot& operator=(const connection_slot&) = delete;
  ~connection_slot();

 private:
  friend class connection_pool;
  struct counter;
  explicit connection_slot(std::weak_ptr<counter> owner) : owner_(std::move(owner)) {}
  void release();
  std::weak_ptr<counter> owner_;
};

/// A connection to a server or a proxy, plain or TLS, with the bytes read past the last
/// response.
struct http_connection {
  /// What one read asks the socket for. Beast reads as much as the buffer has room for, and
  /// an empty flat_buffer has room for 512 bytes: a 12 KB page took 25 reads.
  static constexpr std::size_t read_size = 16 * 1024;

  http_connection(const boost::asio::any_io_executor& executor, connection_slot held)
      : stream(std::in_place_index<0>, executor), slot(std::move(held)) {
    buffer.reserve(read_size);
  }
  /// Leaves the batch its request waits in, if it does.
  ~http_connection();
  http_connection(const http_connection&) = delete;
  http_connection& operator=(const http_connection&) = delete;

  boost::beast::tcp_stream& tcp() {
    return std::visit(
        [](auto& s) -> boost::beast::tcp_stream& { return boost::beast::get_lowest_layer(s); },
        stream);
  }

  /// True when nothing is waiting to be read: no bytes past the last response, none
  /// arrived since (plain or TLS), and the server has not closed it. Only such a connection
  /// may carry another request: whatever else is there was not asked for.
  bool quiet();
  /// What quiet() knows without asking the system: no bytes past the last response here or
  /// in the TLS session, no request of ours still waiting to be written (its answer came
  /// first, unasked), and the socket open.
  bool nothing_held();

  std::variant<boost::beast::tcp_stream, boost::beast::ssl_stream<boost::beast::tcp_stream>> stream;
  boost::beast::flat_buffer buffer;  // bytes read past one response (an interim one's next)
  connection_slot slot;
  /// The batch that has this connection's request, from when it is added until the batch
  /// knows it was written (request_batch::settle); null when none waits.
  request_batch* queued_in = nullptr;
  /// Why the request a batch wrote did not go whole (the socket is then shut).
  boost::system::error_code unsent_error;
};

/// The connection cap for a crawl of `max_tasks` concurrent requests: never more than they
/// can use, and at most half the file descriptors the process may open (RLIMIT_NOFILE, read
/// now) after a reserve for everything else, since folder mode's server spends one more per
/// connection in the same process. At least 1.
std::size_t connection_cap(int max_tasks);

class connection_pool {
 public:
  /// `max_open`: the most connections open at once; 0 for no limit.
  connection_pool(const boost::asio::any_io_executor& executor, std::size_t max_open);
  ~connection_pool();
  connection_pool(const connection_pool&) = delete;
  connection_pool& operator=(const connection_pool&) = delete;

  /// The most recently used idle connection to `route` that is still quiet(), or null.
  /// Idle connections to `route` found not quiet are closed on the way.
  std::unique_ptr<http_connection> take_idle(const std::string& route);

  /// Keeps `connection` for the next request to `route`, if nothing_held(); else closes it.
  /// What arrives or closes meanwhile, take_idle() finds: a system call each time a
  /// connection is put and taken was one too many for each page of a crawl.
  void put_idle(const std::string& route, std::unique_ptr<http_connection> connection);

  /// Waits until one more connection may be opened, closing the least recently used idle
  /// connection when the cap is reached, and returns the slot the new connection holds.
  boost::asio::awaitable<connection_slot> reserve();

  /// A slot when one more descriptor may be open now under the cap; never waits, and closes
  /// no idle connection for it. reserve() takes one, waiting; a descriptor that is not a
  /// connection of its own (request_batch's duplicate of a socket, for a request another
  /// thread writes) takes one too, as the cap bounds descriptors.
  std::optional<connection_slot> spare_slot();

  /// Closes the least recently used idle connection; false when none is idle.
  bool close_oldest_idle();

  /// Waits until a connection is closed or becomes idle, or `longest` has passed.
  boost::asio::awaitable<void> wait_for_change(std::chrono::milliseconds longest);

  /// Slots held now (connections idle or in use, and spare slots) and connections idle now.
  std::size_t open() const;
  std::size_t idle() const { return lru_.size(); }

 private:
  struct idle_entry {
    std::string route;
    std::unique_ptr<http_connection> connection;
  };
  using lru_list = std::list<idle_entry>;  // least recently used first

  void forget(lru_list::iterator entry);
  void changed();

  std::shared_ptr<connection_slot::counter> counter_;
  lru_list lru_;
  std::unordered_map<std::string, std::vector<lru_list::iterator>> by_route_;  // oldest first
};

}  // namespace corocrawl
