// request_head() writes what Beast's serializer wrote for the same request: the two are
// compared byte for byte, with fields named again in any case.

#include "http/request_head.hpp"

#include <gtest/gtest.h>

#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/write.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace corocrawl {
namespace {

namespace http = boost::beast::http;

std::string written_by_beast(http::verb method, std::string_view target,
                             const std::vector<header_field>& fields) {
  http::request<http::empty_body> request{method, target, 11};
  for (const header_field& field : fields)
    request.set(field.name, field.value);
  std::ostringstream out;
  out << request;
  return out.str();
}

TEST(RequestHead, IsTheRequestLineTheFieldsAndAnEmptyLine) {
  const std::vector<header_field> fields = {{"Host", "a.test:8080"}, {"Accept", "*/*"}};
  EXPECT_EQ(request_head("GET", "/p?q=1", fields),
            "GET /p?q=1 HTTP/1.1\r\nHost: a.test:8080\r\nAccept: */*\r\n\r\n");
  EXPECT_EQ(request_head("HEAD", "/", {}), "HEAD / HTTP/1.1\r\n\r\n");
}

TEST(RequestHead, WritesWhatBeastsSerializerWrote) {
  const std::vector<std::vector<header_field>> cases = {
      {{"Host", "a.test"}, {"User-Agent", "corocrawl/0.1"}, {"Accept-Encoding", "gzip, deflate"}},
      // A field named again, in another case, replaces the first and goes last.
      {{"Host", "a.test"}, {"Accept", "text/html"}, {"X-Token", "1"}, {"accept", "*/*"}},
      {{"Host", "a.test"}, {"authorization", "Basic eDp5"}, {"AUTHORIZATION", "Bearer t"}},
      // Spaces and tabs around a value go; inside it they stay. An empty value is written.
      {{"Host", "a.test"}, {"X-Spaced", " \t a  b \t"}, {"X-Empty", ""}, {"X-Blank", "  "}},
      {{"Host", "a.test"}, {"host", "b.test"}, {"HOST", "c.test"}},
  };
  for (const auto& fields : cases) {
    EXPECT_EQ(request_head("GET", "/x/y.html", fields),
              written_by_beast(http::verb::get, "/x/y.html", fields));
    EXPECT_EQ(request_head("HEAD", "http://a.test/", fields),
              written_by_beast(http::verb::head, "http://a.test/", fields));
  }
}

}  // namespace
}  // namespace corocrawl
