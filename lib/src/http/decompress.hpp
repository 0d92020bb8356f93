#pragma once
// Decoding compressed response bodies (Content-Encoding gzip and deflate) with zlib, with a
// limit on the decoded size so that a small "gzip bomb" cannot exhaust memory.

#include <cstdint>
#include <string>
#include <string_view>

namespace corocrawl {

enum class decode_status {
  ok,
  too_large,    ///< the decoded body would exceed the limit
  corrupt,      ///< not valid gzip/deflate data, or truncated
  unsupported,  ///< a content coding other than gzip, x-gzip, deflate and identity
};

struct decoded_body {
  decode_status status = decode_status::ok;
  /// The decoded body when ok; with too_large or corrupt, the part decoded before (at most
  /// the limit: of a body cut short, the part that decodes), empty for unsupported.
  std::string body;
  std::string problem;  ///< for humans when not ok, e.g. "unsupported Content-Encoding \"br\""
};

/// Decodes `body` as sent with the Content-Encoding header value `content_encoding`: empty or
/// "identity" (no change), "gzip"/"x-gzip", "deflate" (zlib-wrapped, or raw deflate as some
/// servers send), or a comma-separated list of these, applied in the order listed (so decoded
/// in reverse). Case-insensitive, optional whitespace. Never allocates much more than
/// `max_size` bytes of output: decoding stops with too_large as soon as the output would
/// exceed it. Concatenated gzip members are all decoded.
decoded_body decode_content(std::string_view content_encoding, std::string body,
                            std::uint64_t max_size);

}  // namespace corocrawl
