// Content-Encoding decoding: gzip, deflate in both framings, coding lists, corrupt data and
// the size limit that defuses gzip bombs.

#include "http/decompress.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "compression.hpp"

namespace corocrawl {
namespace {

using testing::gzip;
using testing::gzip_bomb;
using testing::raw_deflate;
using testing::zlib_deflate;

constexpr std::uint64_t kMiB = 1024 * 1024;
constexpr std::uint64_t kNoLimit = 64 * kMiB;

const std::string kText =
    "<!DOCTYPE html><html><head><title>Hello</title></head><body>"
    "<a href=\"/a\">a</a> <a href=\"/b\">b</a> <a href=\"/c\">c</a></body></html>\n";

// Bytes no text codec would produce: NULs and every other byte value.
std::string binary_data() {
  std::string data;
  for (int round = 0; round < 4; ++round) {
    for (int b = 0; b < 256; ++b)
      data += static_cast<char>(b);
  }
  data.insert(0, 3, '\0');
  return data;
}

// Incompressible bytes, so the encoded form is as large as the decoded one.
std::string random_data(std::size_t size) {
  std::mt19937 gen(42);
  std::uniform_int_distribution<int> byte(0, 255);
  std::string data(size, '\0');
  for (char& c : data)
    c = static_cast<char>(byte(gen));
  return data;
}

void expect_decodes(std::string_view encoding, const std::string& encoded,
                    const std::string& expected, std::uint64_t max_size = kNoLimit) {
  const decoded_body d = decode_content(encoding, encoded, max_size);
  EXPECT_EQ(d.status, decode_status::ok) << "Content-Encoding: " << encoding << ": " << d.problem;
  EXPECT_EQ(d.body, expected) << "Content-Encoding: " << encoding;
  EXPECT_EQ(d.problem, "");
}

void expect_status(std::string_view encoding, const std::string& encoded, decode_status status,
                   std::uint64_t max_size = kNoLimit) {
  const decoded_body d = decode_content(encoding, encoded, max_size);
  EXPECT_EQ(d.status, status) << "Content-Encoding: " << encoding;
  EXPECT_NE(d.problem, "") << "Content-Encoding: " << encoding;
}

// ---- identity ------------------------------------------------------------------------------

TEST(DecodeContent, NoEncodingLeavesTheBodyAlone) {
  expect_decodes("", kText, kText);
  expect_decodes("   ", kText, kText);
}

TEST(DecodeContent, IdentityLeavesTheBodyAlone) {
  expect_decodes("identity", kText, kText);
  expect_decodes("IDENTITY", kText, kText);
  expect_decodes("identity, identity", kText, kText);
}

TEST(DecodeContent, IdentityKeepsBinaryData) {
  expect_decodes("", binary_data(), binary_data());
}

// ---- gzip ----------------------------------------------------------------------------------

TEST(DecodeContent, Gzip) {
  expect_decodes("gzip", gzip(kText), kText);
}

TEST(DecodeContent, XGzipIsGzip) {
  expect_decodes("x-gzip", gzip(kText), kText);
}

TEST(DecodeContent, CodingNamesIgnoreCaseAndSurroundingWhitespace) {
  expect_decodes("GZIP", gzip(kText), kText);
  expect_decodes("X-Gzip", gzip(kText), kText);
  expect_decodes(" \tgzip\t ", gzip(kText), kText);
  expect_decodes("Deflate", zlib_deflate(kText), kText);
}

TEST(DecodeContent, GzipKeepsBinaryData) {
  expect_decodes("gzip", gzip(binary_data()), binary_data());
}

TEST(DecodeContent, GzipOfManyChunks) {
  const std::string data = random_data(1 * kMiB + 12345);
  expect_decodes("gzip", gzip(data), data);
}

TEST(DecodeContent, GzipOfEmptyContent) {
  expect_decodes("gzip", gzip(""), "");
}

TEST(DecodeContent, ConcatenatedGzipMembersAreAllDecoded) {
  expect_decodes("gzip", gzip("hello, ") + gzip("") + gzip("world"), "hello, world");
}

TEST(DecodeContent, GarbageAfterACompleteGzipMemberIsIgnored) {
  expect_decodes("gzip", gzip(kText) + "trailing junk", kText);
  expect_decodes("gzip", gzip(kText) + std::string(16, '\0'), kText);
}

TEST(DecodeContent, TruncatedGzipIsCorrupt) {
  const std::string whole = gzip(kText);
  expect_status("gzip", whole.substr(0, whole.size() / 2), decode_status::corrupt);
  expect_status("gzip", whole.substr(0, whole.size() - 4), decode_status::corrupt);  // no size
  expect_status("gzip", whole.substr(0, 5), decode_status::corrupt);  // in the header
}

TEST(DecodeContent, TruncatedSecondGzipMemberIsCorrupt) {
  const std::string second = gzip("world");
  expect_status("gzip", gzip("hello") + second.substr(0, second.size() - 1),
                decode_status::corrupt);
  expect_status("gzip", gzip("hello") + "\x1f\x8b", decode_status::corrupt);
}

TEST(DecodeContent, GzipWithBadChecksumIsCorrupt) {
  std::string data = gzip(kText);
  data[data.size() - 6] = static_cast<char>(data[data.size() - 6] ^ 0x55);  // inside the CRC
  expect_status("gzip", data, decode_status::corrupt);
}

TEST(DecodeContent, GarbageAsGzipIsCorrupt) {
  expect_status("gzip", kText, decode_status::corrupt);
  expect_status("gzip", std::string("\x1f\x8b") + kText, decode_status::corrupt);
  expect_status("gzip", zlib_deflate(kText), decode_status::corrupt);
}

TEST(DecodeContent, CorruptProblemNamesTheCoding) {
  const decoded_body d = decode_content("gzip", kText, kNoLimit);
  EXPECT_EQ(d.status, decode_status::corrupt);
  EXPECT_NE(d.problem.find("gzip"), std::string::npos) << d.problem;
}

// ---- deflate -------------------------------------------------------------------------------

TEST(DecodeContent, DeflateIsZlibWrapped) {
  expect_decodes("deflate", zlib_deflate(kText), kText);
  expect_decodes("deflate", zlib_deflate(binary_data()), binary_data());
}

TEST(DecodeContent, RawDeflateIsAcceptedAsDeflate) {
  expect_decodes("deflate", raw_deflate(kText), kText);
  expect_decodes("deflate", raw_deflate(binary_data()), binary_data());
  const std::string large = random_data(300 * 1024);
  expect_decodes("deflate", raw_deflate(large), large);
}

TEST(DecodeContent, GarbageAfterACompleteDeflateStreamIsIgnored) {
  expect_decodes("deflate", zlib_deflate(kText) + "trailing junk", kText);
  expect_decodes("deflate", raw_deflate(kText) + "trailing junk", kText);
}

TEST(DecodeContent, TruncatedDeflateIsCorrupt) {
  const std::string zlib = zlib_deflate(kText);
  expect_status("deflate", zlib.substr(0, zlib.size() / 2), decode_status::corrupt);
  expect_status("deflate", zlib.substr(0, zlib.size() - 1), decode_status::corrupt);  // checksum
  const std::string raw = raw_deflate(kText);
  expect_status("deflate", raw.substr(0, raw.size() / 2), decode_status::corrupt);
}

TEST(DecodeContent, GarbageAsDeflateIsCorrupt) {
  expect_status("deflate", kText, decode_status::corrupt);
  expect_status("deflate", std::string(100, '\xff'), decode_status::corrupt);
}

// ---- lists of codings ----------------------------------------------------------------------

TEST(DecodeContent, IdentityInAListIsSkipped) {
  expect_decodes("gzip, identity", gzip(kText), kText);
  expect_decodes("identity,gzip", gzip(kText), kText);
}

TEST(DecodeContent, ListsAreDecodedInReverse) {
  // "deflate, gzip": the body was deflated, then the result gzipped.
  expect_decodes("deflate, gzip", gzip(zlib_deflate(kText)), kText);
  expect_decodes("gzip, deflate", zlib_deflate(gzip(kText)), kText);
  expect_decodes("gzip,gzip", gzip(gzip(kText)), kText);
}

TEST(DecodeContent, ListsInTheWrongOrderAreCorrupt) {
  expect_status("deflate, gzip", zlib_deflate(gzip(kText)), decode_status::corrupt);
}

TEST(DecodeContent, EmptyListElementsAreIgnored) {
  expect_decodes(", gzip ,", gzip(kText), kText);
  expect_decodes(",", kText, kText);
}

// ---- unsupported codings -------------------------------------------------------------------

TEST(DecodeContent, UnsupportedCodingsAreNamed) {
  const decoded_body br = decode_content("br", "\x0b\x02\x80hello\x03", kNoLimit);
  EXPECT_EQ(br.status, decode_status::unsupported);
  EXPECT_EQ(br.problem, "unsupported Content-Encoding \"br\"");

  for (const char* coding : {"compress", "zstd", "x-compress", "gzip;q=1", "gzip deflate"}) {
    const decoded_body d = decode_content(coding, kText, kNoLimit);
    EXPECT_EQ(d.status, decode_status::unsupported) << coding;
    EXPECT_EQ(d.problem, "unsupported Content-Encoding \"" + std::string(coding) + "\"");
  }
}

TEST(DecodeContent, AnUnsupportedCodingAnywhereInTheListIsUnsupported) {
  const decoded_body d = decode_content("br, gzip", gzip(kText), kNoLimit);
  EXPECT_EQ(d.status, decode_status::unsupported);
  EXPECT_EQ(d.problem, "unsupported Content-Encoding \"br\"");
  expect_status("gzip, Zstd", gzip(kText), decode_status::unsupported);
}

// ---- empty bodies --------------------------------------------------------------------------

TEST(DecodeContent, AnEmptyBodyIsEmptyWhateverTheCoding) {
  for (const char* coding : {"", "identity", "gzip", "deflate", "deflate, gzip", "br"})
    expect_decodes(coding, "", "");
}

// ---- the size limit ------------------------------------------------------------------------

TEST(DecodeContent, ExactlyTheLimitIsFine) {
  expect_decodes("gzip", gzip(kText), kText, kText.size());
  expect_decodes("deflate", zlib_deflate(kText), kText, kText.size());
  expect_decodes("deflate", raw_deflate(kText), kText, kText.size());
  expect_decodes("", kText, kText, kText.size());
}

TEST(DecodeContent, OneByteOverTheLimitIsTooLarge) {
  expect_status("gzip", gzip(kText), decode_status::too_large, kText.size() - 1);
  expect_status("deflate", zlib_deflate(kText), decode_status::too_large, kText.size() - 1);
  expect_status("deflate", raw_deflate(kText), decode_status::too_large, kText.size() - 1);
  expect_status("", kText, decode_status::too_large, kText.size() - 1);
}

TEST(DecodeContent, LimitOnChunkBoundariesAndBeyondOneChunk) {
  for (const std::size_t size : {std::size_t{64 * 1024}, std::size_t{64 * 1024 + 1},
                                 std::size_t{3 * 64 * 1024 - 1}, std::size_t{200000}}) {
    const std::string data = random_data(size);
    const std::string encoded = gzip(data);
    expect_decodes("gzip", encoded, data, size);
    expect_status("gzip", encoded, decode_status::too_large, size - 1);
  }
}

TEST(DecodeContent, ZeroLimit) {
  expect_decodes("gzip", gzip(""), "", 0);
  expect_decodes("gzip", "", "", 0);
  expect_status("gzip", gzip("x"), decode_status::too_large, 0);
}

TEST(DecodeContent, LimitAppliesToConcatenatedMembersTogether) {
  const std::string encoded = gzip("hello, ") + gzip("world");
  expect_decodes("gzip", encoded, "hello, world", 12);
  expect_status("gzip", encoded, decode_status::too_large, 11);
}

TEST(DecodeContent, LimitAppliesToEveryCodingInAList) {
  expect_decodes("deflate, gzip", gzip(zlib_deflate(kText)), kText, kText.size());
  expect_status("deflate, gzip", gzip(zlib_deflate(kText)), decode_status::too_large,
                kText.size() - 1);
}

TEST(DecodeContent, TooLargeProblemNamesTheLimit) {
  const decoded_body d = decode_content("gzip", gzip(kText), 10);
  EXPECT_EQ(d.status, decode_status::too_large);
  EXPECT_NE(d.problem.find("10"), std::string::npos) << d.problem;
}

TEST(DecodeContent, GzipBombIsStoppedAtTheLimit) {
  const std::string bomb = gzip_bomb(100 * kMiB);
  EXPECT_LT(bomb.size(), 512 * 1024);  // the helper makes a real bomb: small input, huge output
  const decoded_body d = decode_content("gzip", bomb, 10 * kMiB);
  EXPECT_EQ(d.status, decode_status::too_large);
  EXPECT_NE(d.problem, "");
}

TEST(DecodeContent, NestedGzipBombIsStoppedAtTheLimit) {
  // A gzipped bomb: the outer layer decodes to a small bomb, the inner one explodes.
  const std::string bomb = gzip(gzip_bomb(100 * kMiB));
  const decoded_body d = decode_content("gzip, gzip", bomb, 10 * kMiB);
  EXPECT_EQ(d.status, decode_status::too_large);
}

TEST(DecodeContent, DecodedBodyGrowsNoFurtherThanTheLimit) {
  // A body of exactly the limit, decoded chunk by chunk: the string's capacity must not
  // overshoot the limit the way geometric growth would (to nearly twice the size).
  const std::uint64_t limit = 10 * kMiB + 1000;
  const decoded_body d = decode_content("gzip", gzip_bomb(limit), limit);
  ASSERT_EQ(d.status, decode_status::ok) << d.problem;
  EXPECT_EQ(d.body.size(), limit);
  EXPECT_EQ(d.body.find_first_not_of('\0'), std::string::npos);
  EXPECT_LE(d.body.capacity(), limit + 64 * 1024);
}

TEST(DecodeContent, MalformedInputNeverThrows) {
  const std::string whole = gzip(kText);
  for (const char* coding : {"gzip", "deflate", "deflate, gzip", "identity"}) {
    for (std::size_t cut = 0; cut <= whole.size(); ++cut) {
      EXPECT_NO_THROW(decode_content(coding, whole.substr(0, cut), kNoLimit));
      std::string flipped = whole;
      flipped[cut % whole.size()] = static_cast<char>(~flipped[cut % whole.size()]);
      EXPECT_NO_THROW(decode_content(coding, flipped, kNoLimit));
    }
  }
}

}  // namespace
}  // namespace corocrawl
