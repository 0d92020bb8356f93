// The body a response is read into (http/response_body.hpp), through Beast's parser: it grows
// to the length announced, and a hostile announcement allocates nothing up front.
#include "http/response_body.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <string>

namespace corocrawl {
namespace {

namespace http = boost::beast::http;

// Feeds the parser `body_size` bytes of body in pieces of `piece`, after a header announcing
// `announced`.
std::string parsed_body(std::size_t announced, std::size_t body_size, std::size_t piece) {
  http::response_parser<response_body> parser;
  parser.body_limit(boost::none);
  boost::system::error_code ec;
  const std::string header =
      "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(announced) + "\r\n\r\n";
  parser.put(boost::asio::buffer(header), ec);
  EXPECT_FALSE(ec) << ec.message();
  const std::string bytes(piece, 'x');
  for (std::size_t sent = 0; sent < body_size; sent += piece) {
    const std::size_t size = std::min(piece, body_size - sent);
    const std::size_t used = parser.put(boost::asio::buffer(bytes.data(), size), ec);
    EXPECT_EQ(used, size);
    if (ec && ec != http::error::need_more) ADD_FAILURE() << ec.message();
  }
  return parser.release().body();
}

TEST(ResponseBody, AnAnnouncedBodyGrowsToItsLengthNotPastIt) {
  constexpr std::size_t size = 2'500'000;  // the Python docs' contents.html, about
  const std::string body = parsed_body(size, size, 16 * 1024);
  EXPECT_EQ(body.size(), size);
  EXPECT_EQ(body.capacity(), size);  // doubling would have made it 4 MiB
}

TEST(ResponseBody, AHugeAnnouncementReservesAtMostOneMegabyte) {
  const std::string body = parsed_body(std::size_t{1} << 40, 1000, 1000);
  EXPECT_EQ(body.size(), 1000u);
  EXPECT_LE(body.capacity(), std::size_t{1} << 20);
}

}  // namespace
}  // namespace corocrawl
