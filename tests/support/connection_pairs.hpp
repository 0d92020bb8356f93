#pragma once
// Plain client connections (http_connection) to a listener on 127.0.0.1, each with the
// server's end of it, for tests of what a client writes: what a server socket received is
// read there.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "http/connection_pool.hpp"

namespace corocrawl::testing {

// Two requests as a client writes them.
inline const std::string first_request = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
inline const std::string second_request = "GET /b HTTP/1.1\r\nHost: x\r\n\r\n";

class connection_pairs {
 public:
  struct pair {
    std::unique_ptr<http_connection> client;
    boost::asio::ip::tcp::socket server;
  };

  // A client connection and the server's end of it.
  pair connect() {
    auto client = std::make_unique<http_connection>(context_.get_executor(), connection_slot{});
    client->tcp().socket().connect(acceptor_.local_endpoint());
    boost::asio::ip::tcp::socket server(context_);
    acceptor_.accept(server);
    return {std::move(client), std::move(server)};
  }

  // What `server` has received, waiting up to a second for `expected` bytes.
  static std::string received(boost::asio::ip::tcp::socket& server, std::size_t expected) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (server.available() < expected && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
    std::string bytes(server.available(), '\0');
    if (!bytes.empty()) boost::asio::read(server, boost::asio::buffer(bytes));
    return bytes;
  }

 protected:
  boost::asio::io_context context_;
  boost::asio::ip::tcp::acceptor acceptor_{context_,
                                           {boost::asio::ip::make_address("127.0.0.1"), 0}};
};

}  // namespace corocrawl::testing
