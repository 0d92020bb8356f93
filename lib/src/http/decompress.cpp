// Content-Encoding decoding (RFC 9110 section 8.4.1) with zlib, bounded by a size limit.

#include "http/decompress.hpp"

// const-correct next_in, so input bytes need no const_cast
#define ZLIB_CONST
#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <limits>
#include <new>
#include <optional>
#include <utility>
#include <vector>

#include "text/ascii.hpp"

namespace corocrawl {
namespace {

// Output is produced in chunks of this size, so memory grows with the decoded size only.
constexpr std::size_t kChunk = 64 * 1024;

enum class coding { identity, gzip, deflate };

std::optional<coding> coding_named(std::string_view name) {
  if (ascii::iequals(name, "identity")) return coding::identity;
  if (ascii::iequals(name, "gzip") || ascii::iequals(name, "x-gzip")) return coding::gzip;
  if (ascii::iequals(name, "deflate")) return coding::deflate;
  return std::nullopt;
}

decoded_body failure(decode_status status, std::string problem) {
  return {.status = status, .problem = std::move(problem)};
}

std::string too_large_problem(std::uint64_t max_size) {
  return "decoded body exceeds " + std::to_string(max_size) + " bytes";
}

// An inflate stream that is always released, whatever way decoding ends.
class inflater {
 public:
  explicit inflater(int window_bits) {
    const int rc = inflateInit2(&zs_, window_bits);
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    ok_ = rc == Z_OK;
  }
  ~inflater() {
    if (ok_) inflateEnd(&zs_);
  }
  inflater(const inflater&) = delete;
  inflater& operator=(const inflater&) = delete;

  /// False when zlib could not be initialised (a library mismatch, not the data's fault).
  bool ok() const { return ok_; }
  z_stream& stream() { return zs_; }

 private:
  z_stream zs_{};
  bool ok_ = false;
};

// The decoded bytes of one stage. Its capacity never exceeds the limit plus one byte (the byte
// that proves the limit exceeded), whatever growth policy std::string has.
class bounded_output {
 public:
  explicit bounded_output(std::uint64_t max_size)
      : max_size_(max_size),
        cap_limit_(max_size < std::uint64_t{std::string().max_size()}
                       ? static_cast<std::size_t>(max_size) + 1
                       : std::string().max_size()) {}

  /// Points zlib's output at up to one chunk of free space; false when there is none left
  /// because the limit is already exceeded.
  bool prepare(z_stream& zs) {
    const std::size_t window = std::min(kChunk, cap_limit_ - used_);
    if (window == 0) return false;
    reserve(used_ + window);
    out_.resize(used_ + window);
    zs.next_out = reinterpret_cast<Bytef*>(out_.data() + used_);
    zs.avail_out = static_cast<uInt>(window);
    return true;
  }

  /// Accounts for what zlib wrote since prepare().
  void commit(const z_stream& zs) {
    used_ = static_cast<std::size_t>(reinterpret_cast<const char*>(zs.next_out) - out_.data());
    out_.resize(used_);
  }

  bool over_limit() const { return std::uint64_t{used_} > max_size_; }
  std::size_t size() const { return used_; }
  void clear() {
    out_.clear();
    used_ = 0;
  }
  std::string take() && { return std::move(out_); }

 private:
  // Geometric growth, but capped at cap_limit_: std::string::reserve may round a request up
  // to twice the old capacity, so the final step copies into a string of the exact size.
  void reserve(std::size_t needed) {
    if (needed <= out_.capacity()) return;
    const std::size_t doubled = out_.capacity() > cap_limit_ / 2 ? cap_limit_ : 2 * out_.capacity();
    const std::size_t target = std::max(needed, std::min(doubled, cap_limit_));
    if (target >= 2 * out_.capacity()) {
      out_.reserve(target);
    } else {
      std::string exact;
      exact.reserve(target);
      exact.append(out_);
      out_.swap(exact);
    }
  }

  std::string out_;
  std::uint64_t max_size_;
  std::size_t cap_limit_;
  std::size_t used_ = 0;
};

struct stream_result {
  decode_status status = decode_status::ok;
  std::size_t consumed = 0;  ///< input bytes up to the end of the stream, when ok
  std::string problem;
};

// Inflates one zlib/gzip/raw stream from the start of `in` (with `zs` freshly initialised or
// reset) until its end. Bytes after the end are left alone and counted out of `consumed`.
stream_result inflate_stream(z_stream& zs, std::string_view in, bounded_output& out,
                             std::string_view what, std::uint64_t max_size) {
  std::size_t fed = 0;  // bytes handed to zlib so far
  zs.avail_in = 0;
  for (;;) {
    if (zs.avail_in == 0 && fed < in.size()) {
      // avail_in is 32 bits wide: hand over huge inputs piecewise
      const std::size_t n =
          std::min<std::size_t>(in.size() - fed, std::numeric_limits<uInt>::max());
      zs.next_in = reinterpret_cast<const Bytef*>(in.data() + fed);
      zs.avail_in = static_cast<uInt>(n);
      fed += n;
    }
    if (!out.prepare(zs)) return {decode_status::too_large, 0, too_large_problem(max_size)};
    const int rc = inflate(&zs, Z_NO_FLUSH);
    out.commit(zs);
    if (out.over_limit()) return {decode_status::too_large, 0, too_large_problem(max_size)};
    switch (rc) {
      case Z_STREAM_END:
        return {decode_status::ok, fed - zs.avail_in, {}};
      case Z_OK:
      case Z_BUF_ERROR:
        // No more input and zlib stopped with output space to spare: the stream is cut short.
        if (zs.avail_in == 0 && fed == in.size() && zs.avail_out > 0)
          return {decode_status::corrupt, 0, "truncated " + std::string(what) + " data"};
        break;
      case Z_MEM_ERROR:
        throw std::bad_alloc();
      case Z_NEED_DICT:
        return {decode_status::corrupt, 0,
                "corrupt " + std::string(what) + " data: needs a preset dictionary"};
      default:  // Z_DATA_ERROR, Z_STREAM_ERROR
        return {decode_status::corrupt, 0,
                "corrupt " + std::string(what) +
                    " data: " + (zs.msg != nullptr ? zs.msg : "invalid stream")};
    }
  }
}

bool starts_gzip_member(std::string_view s) {
  return s.size() >= 2 && static_cast<unsigned char>(s[0]) == 0x1f &&
         static_cast<unsigned char>(s[1]) == 0x8b;
}

// A stage that failed, with what it decoded before (at most `max_size` bytes).
decoded_body partial(stream_result& r, bounded_output&& out, std::uint64_t max_size) {
  decoded_body failed = failure(r.status, std::move(r.problem));
  failed.body = std::move(out).take();
  if (std::uint64_t{failed.body.size()} > max_size)
    failed.body.resize(static_cast<std::size_t>(max_size));
  return failed;
}

// gzip: every concatenated member (RFC 1952 allows several). Like browsers, bytes after a
// complete member that do not start another member are ignored.
decoded_body gunzip(std::string_view in, std::uint64_t max_size) {
  inflater z(16 + MAX_WBITS);
  if (!z.ok()) return failure(decode_status::corrupt, "cannot initialise zlib");
  bounded_output out(max_size);
  for (;;) {
    stream_result r = inflate_stream(z.stream(), in, out, "gzip", max_size);
    if (r.status != decode_status::ok) return partial(r, std::move(out), max_size);
    in.remove_prefix(r.consumed);
    if (!starts_gzip_member(in)) break;
    inflateReset(&z.stream());
  }
  return {.body = std::move(out).take()};
}

stream_result inflate_once(std::string_view in, int window_bits, bounded_output& out,
                           std::uint64_t max_size) {
  inflater z(window_bits);
  if (!z.ok()) return {decode_status::corrupt, 0, "cannot initialise zlib"};
  return inflate_stream(z.stream(), in, out, "deflate", max_size);
}

// deflate means zlib-wrapped data (RFC 1950), but some servers send raw deflate (RFC 1951);
// when the data is not valid zlib data from the start, it is tried as raw deflate.
decoded_body inflate_deflate(std::string_view in, std::uint64_t max_size) {
  bounded_output out(max_size);
  stream_result r = inflate_once(in, MAX_WBITS, out, max_size);
  if (r.status == decode_status::corrupt && out.size() == 0) {
    out.clear();
    stream_result raw = inflate_once(in, -MAX_WBITS, out, max_size);
    // When neither works, the problem with the standard form is the one worth reporting.
    if (raw.status != decode_status::corrupt) r = std::move(raw);
  }
  if (r.status != decode_status::ok) return partial(r, std::move(out), max_size);
  return {.body = std::move(out).take()};
}

}  // namespace

decoded_body decode_content(std::string_view content_encoding, std::string body,
                            std::uint64_t max_size) {
  // Nothing was sent, so there is nothing to decode (as curl does), whatever the coding.
  if (body.empty()) return {};

  // Read the whole list first: an unsupported coding anywhere makes the body unusable.
  std::vector<coding> codings;
  std::size_t start = 0;
  while (start <= content_encoding.size()) {
    const std::size_t comma = std::min(content_encoding.find(',', start), content_encoding.size());
    const std::string_view name = ascii::trim_ows(content_encoding.substr(start, comma - start));
    start = comma + 1;
    if (name.empty()) continue;  // empty list elements are allowed (RFC 9110 5.6.1)
    const std::optional<coding> c = coding_named(name);
    if (!c.has_value())
      return failure(decode_status::unsupported,
                     "unsupported Content-Encoding \"" + std::string(name) + "\"");
    if (*c != coding::identity) codings.push_back(*c);
  }

  // Codings were applied in the order listed, so they are undone from the last.
  for (auto it = codings.rbegin(); it != codings.rend(); ++it) {
    decoded_body stage =
        *it == coding::gzip ? gunzip(body, max_size) : inflate_deflate(body, max_size);
    if (stage.status != decode_status::ok) {
      if (std::next(it) != codings.rend()) stage.body.clear();  // still encoded: no part
      return stage;
    }
    body = std::move(stage.body);
  }
  if (std::uint64_t{body.size()} > max_size)
    return failure(decode_status::too_large, too_large_problem(max_size));
  return {.body = std::move(body)};
}

}  // namespace corocrawl
