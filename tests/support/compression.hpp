#pragma once
// Compressed bodies for tests, made with zlib: what servers send with Content-Encoding gzip
// and deflate, raw deflate as some servers wrongly send, and gzip bombs. Header-only and
// needing only zlib: unit and integration tests and fuzz_http use it (each links ZLIB::ZLIB).

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace corocrawl::testing {
namespace detail {

/// A deflate stream in zlib's gzip, zlib or raw framing, fed piecewise.
class compressor {
 public:
  /// window_bits as for deflateInit2: 16 + MAX_WBITS gzip, MAX_WBITS zlib, -MAX_WBITS raw.
  compressor(int window_bits, int strategy) {
    if (deflateInit2(&zs_, Z_BEST_COMPRESSION, Z_DEFLATED, window_bits, 8, strategy) != Z_OK)
      throw std::runtime_error("deflateInit2 failed");
  }
  ~compressor() { deflateEnd(&zs_); }
  compressor(const compressor&) = delete;
  compressor& operator=(const compressor&) = delete;

  /// Compresses `data`; `last` ends the stream (nothing may be written after it).
  void write(std::string_view data, bool last) {
    do {
      const std::size_t n = std::min<std::size_t>(data.size(), std::numeric_limits<uInt>::max());
      // zlib's next_in is not const unless ZLIB_CONST; deflate never writes through it
      zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
      zs_.avail_in = static_cast<uInt>(n);
      data.remove_prefix(n);
      const int flush = last && data.empty() ? Z_FINISH : Z_NO_FLUSH;
      int rc = Z_OK;
      do {
        std::array<char, 16 * 1024> chunk{};
        zs_.next_out = reinterpret_cast<Bytef*>(chunk.data());
        zs_.avail_out = static_cast<uInt>(chunk.size());
        rc = deflate(&zs_, flush);
        if (rc == Z_STREAM_ERROR) throw std::runtime_error("deflate failed");
        out_.append(chunk.data(), chunk.size() - zs_.avail_out);
      } while (zs_.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    } while (!data.empty());
  }

  std::string take() && { return std::move(out_); }

 private:
  z_stream zs_{};
  std::string out_;
};

inline std::string compress(std::string_view data, int window_bits) {
  compressor c(window_bits, Z_DEFAULT_STRATEGY);
  c.write(data, true);
  return std::move(c).take();
}

}  // namespace detail

/// `data` as a gzip member (Content-Encoding: gzip).
inline std::string gzip(std::string_view data) {
  return detail::compress(data, 16 + MAX_WBITS);
}

/// `data` zlib-wrapped (RFC 1950), which is what Content-Encoding: deflate means.
inline std::string zlib_deflate(std::string_view data) {
  return detail::compress(data, MAX_WBITS);
}

/// `data` as raw deflate (RFC 1951), which some servers wrongly send as "deflate".
inline std::string raw_deflate(std::string_view data) {
  return detail::compress(data, -MAX_WBITS);
}

/// A gzip member that decodes to `decoded_size` zero bytes, compressed piecewise so the
/// decoded bytes are never held in memory (100 MiB give about 100 KiB, quickly).
inline std::string gzip_bomb(std::size_t decoded_size) {
  // Run-length matching is all zeros need, and much faster than the default strategy.
  detail::compressor c(16 + MAX_WBITS, Z_RLE);
  const std::string zeros(256 * 1024, '\0');
  do {
    const std::size_t n = std::min(decoded_size, zeros.size());
    decoded_size -= n;
    c.write(std::string_view(zeros).substr(0, n), decoded_size == 0);
  } while (decoded_size > 0);
  return std::move(c).take();
}

}  // namespace corocrawl::testing
