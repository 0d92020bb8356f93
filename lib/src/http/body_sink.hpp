#pragma once
// Where a response's body may go as it arrives, instead of being kept whole in the response:
// a big page read in pieces (see html/links.hpp's page_in_pieces) need not be held whole.

#include <cstdint>
#include <string_view>

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
};

}  // namespace corocrawl
