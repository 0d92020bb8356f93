// page_server --pages N --port P [--address 127.0.0.1] [--threads T]
//             [--min-bytes A --max-bytes B]
//
// Serves the synthetic benchmark site (synthetic_site.hpp) over HTTP/1.1 with keep-alive,
// making each page from its path on request, so a million pages need no disk. Unknown paths
// get a small 404 page. Prints "listening on http://ADDR:PORT/" once listening (port 0 picks
// a free port) and runs until SIGINT or SIGTERM. It shares the machine with the crawler under
// test, so it does as little as possible per request: no logging, one buffer per connection.
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "shape_options.hpp"
#include "synthetic_site.hpp"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using corocrawl::bench::site_shape;

using corocrawl::bench::add_shape_options;
using corocrawl::bench::decimal_number;
using corocrawl::bench::exit_failure;
using corocrawl::bench::exit_usage;
constexpr std::uint64_t request_body_limit = 64 * 1024;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
constexpr std::string_view html_type = "text/html; charset=utf-8";
constexpr std::string_view not_found_body =
    "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>"
    "<body><h1>404 Not Found</h1></body></html>\n";
constexpr std::string_view not_allowed_body =
    "<!DOCTYPE html>\n<html><head><title>405 Method Not Allowed</title></head>"
    "<body><h1>405 Method Not Allowed</h1></body></html>\n";

std::string_view to_std(beast::string_view text) {
  return {text.data(), text.size()};
}

using response = http::response<http::string_body>;

// The answer to `req`. Its body is `buffer`, moved in, so a connection reuses one allocation.
response answer(const http::request<http::string_body>& req, std::string buffer,
                const site_shape& shape) {
  response res{http::status::ok, req.version()};
  res.keep_alive(req.keep_alive());
  res.set(http::field::content_type, html_type);
  auto& body = res.body();
  body = std::move(buffer);
  body.clear();
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    res.result(http::status::method_not_allowed);
    res.set(http::field::allow, "GET, HEAD");
    body.append(not_allowed_body);
  } else {
    const auto target = to_std(req.target());
    const auto path = target.substr(0, target.find_first_of("?#"));
    if (const auto index = corocrawl::bench::page_index(path, shape.pages)) {
      corocrawl::bench::append_synthetic_page(body, *index, shape);
    } else {
      res.result(http::status::not_found);
      body.append(not_found_body);
    }
  }
  res.prepare_payload();
  return res;
}

asio::awaitable<void> session(tcp::socket socket, const site_shape& shape) {
  beast::error_code ec;
  socket.set_option(tcp::no_delay(true), ec);
  beast::flat_buffer buffer;
  std::string body_buffer;
  for (;;) {
    // Bodies are read (to answer 405 to a POST) but never needed: a small limit will do.
    http::request_parser<http::string_body> parser;
    parser.body_limit(request_body_limit);
    const auto [read_ec, read_bytes] = co_await http::async_read(socket, buffer, parser, use_tuple);
    if (read_ec) break;
    const auto& req = parser.get();
    auto res = answer(req, std::move(body_buffer), shape);
    if (req.method() == http::verb::head) {
      http::response<http::empty_body> head{res.base()};
      head.content_length(res.body().size());
      const auto [write_ec, written] = co_await http::async_write(socket, head, use_tuple);
      if (write_ec) break;
    } else {
      const auto [write_ec, written] = co_await http::async_write(socket, res, use_tuple);
      if (write_ec) break;
    }
    if (!res.keep_alive()) break;
    body_buffer = std::move(res.body());
  }
  socket.shutdown(tcp::socket::shutdown_send, ec);
}

asio::awaitable<void> accept_loop(tcp::acceptor& acceptor, const site_shape& shape) {
  for (;;) {
    auto [ec, socket] = co_await acceptor.async_accept(use_tuple);
    if (ec == asio::error::operation_aborted) co_return;
    if (ec) {
      // Out of file descriptors, most likely: wait for connections to close instead of
      // spinning.
      asio::steady_timer pause(acceptor.get_executor(), std::chrono::milliseconds(10));
      co_await pause.async_wait(use_tuple);
      continue;
    }
    asio::co_spawn(acceptor.get_executor(), session(std::move(socket), shape), asio::detached);
  }
}

// Every connection holds a descriptor: lift the soft limit on open files to the hard one.
void raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

std::string url_of(const tcp::endpoint& endpoint) {
  const auto address = endpoint.address();
  const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  return "http://" + host + ":" + std::to_string(endpoint.port()) + "/";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Serves the synthetic benchmark site over HTTP, making pages on request.",
               "page_server"};
  site_shape shape;
  std::string address_text = "127.0.0.1";
  std::uint16_t port = 0;
  unsigned threads = 1;
  add_shape_options(app, shape);
  app.add_option("--port", port, "Port to listen on (0: any free port)")
      ->required()
      ->check(decimal_number);
  app.add_option("--address", address_text, "Address to listen on")->capture_default_str();
  app.add_option("--threads", threads, "Threads running the server")
      ->check(CLI::Range(1U, 1024U))
      ->capture_default_str();
  if (const auto status = corocrawl::bench::parse_or_exit(app, argc, argv, shape, "page_server"))
    return *status;
  beast::error_code ec;
  const auto address = asio::ip::make_address(address_text, ec);
  if (ec) {
    std::cerr << "page_server: --address " << address_text << " is not an IP address\n";
    return exit_usage;
  }

  try {
    raise_open_file_limit();
    asio::io_context io{static_cast<int>(threads)};
    tcp::acceptor acceptor{io};
    const tcp::endpoint endpoint{address, port};
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      std::cerr << "page_server: cannot listen on " << address_text << " port " << port << ": "
                << ec.message() << '\n';
      return exit_failure;
    }

    asio::signal_set signals{io, SIGINT, SIGTERM};
    signals.async_wait([&io](const beast::error_code&, int) { io.stop(); });
    asio::co_spawn(io, accept_loop(acceptor, shape), asio::detached);
    std::cout << "listening on " << url_of(acceptor.local_endpoint()) << std::endl;

    std::vector<std::jthread> workers;
    for (unsigned i = 1; i < threads; ++i)
      workers.emplace_back([&io] { io.run(); });
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "page_server: " << e.what() << '\n';
    return exit_failure;
  }
  return 0;
}
