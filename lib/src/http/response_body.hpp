#pragma once
// The body type responses are read into: a std::string, as Beast's string_body, but whose
// reader reserves at most 1 MiB up front whatever the Content-Length announces, since the
// client stops reading at its own limit (max_body) and keeps the part read: a hostile
// "Content-Length: 4611686018427387904" must not allocate. (A body of announced length
// within the limit is read past the parser, with the same growth: response_reading.cpp.)

#include <algorithm>
#include <boost/asio/buffer.hpp>
#include <boost/beast/core/buffers_range.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/optional/optional.hpp>
#include <boost/system/error_code.hpp>
#include <cstdint>
#include <new>
#include <string>

namespace corocrawl {

/// What is reserved at most for a body before its bytes come, whatever length it announces.
inline constexpr std::uint64_t kMaxReserve = 1024 * 1024;

/// Makes room in `body` for `needed` bytes while they keep to the length announced
/// (`announced`, 0 when none): past the first MiB a body grows by doubling, but never past
/// that length (a 2.5 MB page took 4 MiB). Otherwise leaves the growth to the string. A
/// string's own reserve() would round a step short of doubling up to doubling: the bytes
/// move to a string of the capacity wanted instead. Throws std::bad_alloc.
inline void grow_body(std::string& body, std::uint64_t needed, std::uint64_t announced) {
  if (needed <= body.capacity() || needed > announced) return;
  const std::uint64_t doubled = std::max<std::uint64_t>(needed, 2 * body.capacity());
  std::string grown;
  grown.reserve(static_cast<std::size_t>(std::min(announced, doubled)));
  grown.append(body);
  body.swap(grown);
}

struct response_body {
  using value_type = std::string;

  static std::uint64_t size(const value_type& body) { return body.size(); }

  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(boost::beast::http::header<isRequest, Fields>&, value_type& body) : body_(body) {}

    // Memory running out is told as errc::not_enough_memory, not thrown: Beast calls these
    // from a completion handler, out of which an exception would leave the event loop and
    // the request's coroutine behind (the client throws std::bad_alloc in the coroutine).
    void init(const boost::optional<std::uint64_t>& length, boost::system::error_code& ec) {
      ec = {};
      if (!length) return;
      announced_ = *length;
      try {
        body_.reserve(static_cast<std::size_t>(std::min(*length, kMaxReserve)));
      } catch (const std::bad_alloc&) {
        ec = make_error_code(boost::system::errc::not_enough_memory);
      }
    }

    template <class ConstBufferSequence>
    std::size_t put(const ConstBufferSequence& buffers, boost::system::error_code& ec) {
      const std::size_t n = boost::asio::buffer_size(buffers);
      const std::size_t before = body_.size();
      ec = {};
      try {
        grow_body(body_, before + n, announced_);
        // Appended, not resized and copied into: a resize would first fill the bytes with NULs.
        for (const auto buffer : boost::beast::buffers_range_ref(buffers))
          body_.append(static_cast<const char*>(buffer.data()), buffer.size());
      } catch (const std::bad_alloc&) {
        body_.resize(before);
        ec = make_error_code(boost::system::errc::not_enough_memory);
        return 0;
      }
      return n;
    }

    void finish(boost::system::error_code& ec) { ec = {}; }

   private:
    value_type& body_;
    std::uint64_t announced_ = 0;  // the Content-Length, 0 when none
  };
};

}  // namespace corocrawl
