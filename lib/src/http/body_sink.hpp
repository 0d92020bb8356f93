#pragma once
// Where a response's body may go instead of being kept whole in the response: a big page read
// in pieces as it arrives (see html/links.hpp's page_in_pieces) need not be held whole, and a
// page whose body has all come already may be read and parsed off the event loop's thread.

#include <boost/asio/awaitable.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/waiting_body.hpp"

namespace corocrawl {

class body_sink {
 public:
  virtual ~body_sink() = default;

  /// Asked once the header of a 2xx response to a GET has come, whose body the client would
  /// keep and whose bytes are the body itself (no Content-Encoding): whether to take the body
  /// of this Content-Type and Content-Length. If not, the body is kept in the response.
  virtual bool take(std::string_view content_type, std::uint64_t length) = 0;
  /// The body's next bytes, in order; the last come with the response's end, or at the
  /// client's max_body.
  virtual void add(std::string_view bytes) = 0;

  /// Asked, before take(), of such a response whose body of announced `length` (within the
  /// client's max_body) has all come already, the rest of it (past the bytes read with the
  /// header) some tens of KiB or more and waiting in a plain TCP socket: whether the sink
  /// reads this body itself, with read_waiting(). By default no.
  virtual bool reads_waiting(std::string_view content_type, std::uint64_t length) {
    (void)content_type;
    (void)length;
    return false;
  }
  /// Reads the body that reads_waiting() took: its first bytes, `first`, and the rest, `rest`,
  /// which must be read before the returned awaitable completes (the connection waits for
  /// it, unused). Completes with whether all of it was read.
  virtual boost::asio::awaitable<bool> read_waiting(std::string first, waiting_body rest) {
    (void)first;
    (void)rest;
    co_return false;
  }
};

}  // namespace corocrawl
