#pragma once
// What every in-process test server (test_server, hostile_server, test_proxy) is built on: an
// acceptor on 127.0.0.1 at a port the system picks, and a thread of its own that runs the
// io_context its accept loop and sessions run on.

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

namespace corocrawl::testing {

/// Listens on 127.0.0.1 from construction; serves once start() is given the accept loop.
///
/// Declare it as the LAST member of the server's state: members are destroyed in reverse
/// order, so it goes first. Its destructor stops and joins the thread, and then the
/// io_context destroys the coroutine frames still pending (the accept loop, open sessions),
/// whose destructors may touch the server's other members: those must still be alive then.
class loopback_listener {
 public:
  loopback_listener() = default;
  /// Stops the io_context at once, open connections and all, and joins its thread.
  ~loopback_listener() {
    context_.stop();
    if (thread_.joinable()) thread_.join();
  }
  loopback_listener(const loopback_listener&) = delete;
  loopback_listener& operator=(const loopback_listener&) = delete;

  /// Spawns `accept_loop` and starts the thread that runs it; call once, when everything the
  /// loop uses is ready.
  void start(boost::asio::awaitable<void> accept_loop) {
    boost::asio::co_spawn(context_, std::move(accept_loop), boost::asio::detached);
    thread_ = std::thread([this] { context_.run(); });
  }

  /// The io_context the thread runs: sessions and timers go there.
  boost::asio::io_context& context() { return context_; }
  boost::asio::ip::tcp::acceptor& acceptor() { return acceptor_; }

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  /// "SCHEME://HOST:PORT", e.g. origin("http", "127.0.0.1"); HOST may be a made-up name that
  /// the test maps to 127.0.0.1.
  std::string origin(std::string_view scheme, std::string_view host) const {
    return std::string(scheme) + "://" + std::string(host) + ":" + std::to_string(port());
  }

 private:
  boost::asio::io_context context_{1};  // one thread runs it
  boost::asio::ip::tcp::acceptor acceptor_{context_,
                                           {boost::asio::ip::make_address("127.0.0.1"), 0}};
  std::thread thread_;
};

}  // namespace corocrawl::testing
