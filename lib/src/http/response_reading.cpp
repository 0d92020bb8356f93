#include "http/response_reading.hpp"

#include <algorithm>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <cstddef>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "http/fetch_error.hpp"
#include "http/quick_ack.hpp"
#include "sys/use_tuple.hpp"

namespace corocrawl {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace ssl = asio::ssl;
using boost::system::error_code;

namespace {

constexpr std::size_t header_limit = 64 * 1024;  // big CSP and cookie headers are common

// A body not complete with the read of its header is acknowledged as it arrives
// (http/quick_ack.hpp): the server may be waiting for that to send the rest. Only then, as
// each early acknowledgement is a packet more for both ends (a crawl of small pages, whose
// bodies come whole with their header, took 10% more CPU with one after every request).
void body_continues(http_connection& conn) {
  acknowledge_at_once(conn.tcp().socket().native_handle());
}

// Reads a body of announced `length` into `body` straight from the connection: the bytes
// read with the header, then reads into the body itself, each asking for what is left of a
// window of kReadWindow bytes. Through Beast's parser a read took 16 KiB into the
// connection's buffer, copied into the body after it: the Python docs' crawl read its
// sockets 3,500 times, each with its share of the kernel's TCP work, and copied 50 MB. The
// body grows a window at a time, each byte zeroed once ahead of its read (a std::string
// cannot grow uninitialised), so a server that announces much and sends little costs little.
// Ends as Beast would: a body cut short is a partial message.
asio::awaitable<error_code> read_announced_body(http_connection& conn, std::string& body,
                                                std::uint64_t length) {
  constexpr std::size_t kReadWindow = 64 * 1024;
  try {
    body.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(length, kMaxReserve)));
    // Copied in as the body's first bytes, not into a body resized for them, which zeroes
    // them first: a pass more over every body that came whole with its header (the 10k
    // site's 125 MB).
    const auto held = static_cast<std::size_t>(std::min<std::uint64_t>(length, conn.buffer.size()));
    body.assign(static_cast<const char*>(conn.buffer.data().data()), held);
    conn.buffer.consume(held);
    std::size_t got = body.size();
    if (got < length) body_continues(conn);
    while (got < length) {
      if (got == body.size()) {  // the window read: the next one
        const auto window = std::min<std::uint64_t>(length, got + kReadWindow);
        grow_body(body, window, length);
        body.resize(static_cast<std::size_t>(window));
      }
      auto [ec, read] = co_await std::visit(
          [&](auto& s) {
            return s.async_read_some(asio::buffer(body.data() + got, body.size() - got), use_tuple);
          },
          conn.stream);
      got += read;
      if (ec) {
        body.resize(got);
        const bool ended = ec == asio::error::eof || ec == ssl::error::stream_truncated;
        co_return ended ? error_code(http::error::partial_message) : ec;
      }
    }
  } catch (const std::bad_alloc&) {
    co_return make_error_code(boost::system::errc::not_enough_memory);
  }
  co_return error_code{};
}

}  // namespace

asio::awaitable<error_code> read_final_header(http_connection& conn,
                                              std::optional<response_parser>& parser, bool head,
                                              bool& got_some) {
  for (;;) {
    parser.emplace();
    parser->header_limit(header_limit);
    parser->body_limit(boost::none);  // read_body sets the limit once the header is read
    if (head) parser->skip(true);
    auto [ec, read] = co_await std::visit(
        [&](auto& s) { return http::async_read_header(s, conn.buffer, *parser, use_tuple); },
        conn.stream);
    got_some = got_some || parser->got_some();
    if (ec || parser->get().result_int() / 100 != 1) co_return ec;
    if (parser->get().result_int() == 101) co_return fetch_errc::unasked_upgrade;
  }
}

asio::awaitable<error_code> read_body(http_connection& conn, response_parser& parser,
                                      std::uint64_t limit) {
  const auto announced = parser.content_length();
  if (announced && *announced <= limit && !parser.chunked() && !parser.is_done())
    co_return co_await read_announced_body(conn, parser.get().body(), *announced);
  if (!announced) parser.body_limit(limit);  // no body octet is parsed yet
  // Announced larger than the limit, the body is too large whatever happens to the part read.
  const bool too_large = announced && *announced > limit;
  auto& body = parser.get().body();
  if (!parser.is_done()) body_continues(conn);
  while (!parser.is_done()) {
    if (body.size() > limit) break;
    auto [ec, read] = co_await std::visit(
        [&](auto& s) { return http::async_read_some(s, conn.buffer, parser, use_tuple); },
        conn.stream);
    // TLS servers often end a close-delimited body without a close_notify.
    if (ec == ssl::error::stream_truncated && !parser.is_done()) parser.put_eof(ec);
    if (ec == http::error::body_limit || (ec && too_large)) break;
    if (ec) co_return ec;
  }
  if (parser.is_done() && body.size() <= limit) co_return error_code{};
  if (body.size() > limit) body.resize(limit);
  co_return fetch_errc::body_too_large;
}

namespace {

// The body's first bytes, all the buffer holds, and its rest, handed to `sink`.
asio::awaitable<error_code> read_handed_body(http_connection& conn, body_sink& sink,
                                             waiting_body rest, std::uint64_t& received) {
  std::string first(static_cast<const char*>(conn.buffer.data().data()), conn.buffer.size());
  conn.buffer.consume(first.size());
  const std::uint64_t length = first.size() + rest.size();
  // (The operation is made outside the co_await's full expression: GCC 12 destroys some of
  // its temporaries twice.)
  auto reading = sink.read_waiting(std::move(first), rest);
  const bool all = co_await std::move(reading);
  if (!all) co_return error_code(http::error::partial_message);
  received = length;
  co_return error_code{};
}

}  // namespace

std::optional<asio::awaitable<error_code>> hand_waiting_body(http_connection& conn,
                                                             const response_parser& parser,
                                                             std::uint64_t limit, body_sink& sink,
                                                             std::uint64_t& received) {
  const auto length = parser.content_length();
  if (!length || *length > limit || parser.chunked() || parser.is_done() ||
      !std::holds_alternative<beast::tcp_stream>(conn.stream))
    return std::nullopt;
  const std::uint64_t rest = *length - std::min<std::uint64_t>(*length, conn.buffer.size());
  const int socket = conn.tcp().socket().native_handle();
  if (rest < kWaitingAtLeast || !waiting_body::waiting(socket, rest) ||
      !sink.reads_waiting(parser.get()[http::field::content_type], *length))
    return std::nullopt;
  return read_handed_body(conn, sink, waiting_body(socket, rest), received);
}

asio::awaitable<error_code> read_body_into(http_connection& conn, response_parser& parser,
                                           std::uint64_t limit, body_sink& sink,
                                           std::uint64_t& received) {
  const auto announced = parser.content_length();
  const bool too_large = announced && *announced > limit;
  auto& body = parser.get().body();
  const auto give = [&] {
    const std::uint64_t room = limit - std::min(limit, received);
    const std::string_view part(
        body.data(), static_cast<std::size_t>(std::min<std::uint64_t>(body.size(), room)));
    if (!part.empty()) sink.add(part);
    received += body.size();
    body.clear();
  };
  give();  // what came with the header
  if (!parser.is_done()) body_continues(conn);
  while (!parser.is_done() && received <= limit) {
    auto [ec, read] = co_await std::visit(
        [&](auto& s) { return http::async_read_some(s, conn.buffer, parser, use_tuple); },
        conn.stream);
    give();
    if (ec == ssl::error::stream_truncated && !parser.is_done()) parser.put_eof(ec);
    if (ec && too_large) break;
    if (ec) co_return ec;
  }
  if (parser.is_done() && received <= limit) co_return error_code{};
  received = std::min(received, limit);
  co_return fetch_errc::body_too_large;
}

}  // namespace corocrawl
