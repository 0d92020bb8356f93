#pragma once
// Reading the response to a request written on a connection: its final header, past interim
// (1xx) answers, then its body. Beast parses the header and the bodies whose end only its
// parser finds (chunked, delimited by the connection's close, announced past the limit); a
// body of announced length within the limit is read straight into the body.

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/system/error_code.hpp>
#include <cstdint>
#include <optional>

#include "http/body_sink.hpp"
#include "http/connection_pool.hpp"
#include "http/response_body.hpp"

namespace corocrawl {

using response_parser = boost::beast::http::response_parser<response_body>;

/// Reads the header of the response to a request into `parser`, skipping interim (1xx)
/// responses: each gets a fresh parser, and the final one follows on the same connection.
/// `got_some` says whether any byte of any of them came. The body, if any, is left to
/// read_body or read_body_into; a response to HEAD has none.
boost::asio::awaitable<boost::system::error_code> read_final_header(
    http_connection& conn, std::optional<response_parser>& parser, bool head, bool& got_some);

/// Reads the rest of the body into `parser`, stopping with body_too_large once more than
/// `limit` bytes have come or are announced by a chunk (the body then holds the part read, at
/// most `limit` bytes). A body of announced length is read up to the limit whatever length it
/// announces, so that the part read can be parsed; Beast's own limit ends the others as soon
/// as they pass it.
boost::asio::awaitable<boost::system::error_code> read_body(http_connection& conn,
                                                            response_parser& parser,
                                                            std::uint64_t limit);

/// When the body of announced length (within `limit`) has all come already, its rest (past
/// what the buffer holds) at least kWaitingAtLeast bytes waiting in `conn`'s plain TCP
/// socket, and `sink` reads such a body itself (body_sink::reads_waiting): the operation that
/// hands it the body and completes once it has read it, with no error when all of it was read
/// (`received` counts it), or partial_message. nullopt when not so (the body is to be read as
/// usual): decided without a coroutine, as it is for most responses.
std::optional<boost::asio::awaitable<boost::system::error_code>> hand_waiting_body(
    http_connection& conn, const response_parser& parser, std::uint64_t limit, body_sink& sink,
    std::uint64_t& received);

/// Below this, a body's rest is read on the event loop's thread: handed over, it costs a
/// system call and a copy of its first bytes more, which save nothing on a few KiB.
inline constexpr std::uint64_t kWaitingAtLeast = 32 * 1024;

/// Reads the rest of the body as read_body does, but gives each part read to `sink` instead
/// of keeping it: the body never holds more than one read's worth. `received` counts its
/// bytes, at most `limit`.
boost::asio::awaitable<boost::system::error_code> read_body_into(http_connection& conn,
                                                                 response_parser& parser,
                                                                 std::uint64_t limit,
                                                                 body_sink& sink,
                                                                 std::uint64_t& received);

}  // namespace corocrawl
