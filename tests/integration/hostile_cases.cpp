#include "hostile_cases.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "compression.hpp"
#include "crawl_helpers.hpp"

namespace corocrawl::testing::hostile {

using namespace std::chrono_literals;

namespace {

// --- Building blocks --------------------------------------------------------------------------

const std::string html = "Content-Type: text/html; charset=utf-8";

script send(std::string bytes) {
  return {step::write(std::move(bytes))};
}

script send_then(std::string bytes, step last) {
  return {step::write(std::move(bytes)), std::move(last)};
}

std::string chunked_head() {
  return "HTTP/1.1 200 OK\r\n" + html + "\r\nTransfer-Encoding: chunked\r\n\r\n";
}

std::string ok_head(std::size_t length) {
  return "HTTP/1.1 200 OK\r\n" + html + "\r\nContent-Length: " + std::to_string(length) +
         "\r\n\r\n";
}

std::string encoded(const std::string& coding, const std::string& body) {
  return response("200 OK", {html, "Content-Encoding: " + coding}, body);
}

expected ok(std::optional<std::uint64_t> size = std::nullopt) {
  return {.status = 200, .error = std::nullopt, .failure = std::nullopt, .tries = 1, .size = size};
}

expected failed(std::string kind, std::string error, int tries) {
  return {.status = std::nullopt,
          .error = std::move(error),
          .failure = std::move(kind),
          .tries = tries};
}

expected protocol(std::string error) {
  return failed("protocol", "bad HTTP response: " + std::move(error), 1);
}

expected too_large(std::uint64_t size) {
  return {
      .status = 200, .error = "body too large", .failure = std::nullopt, .tries = 1, .size = size};
}

/// The connection that carried the last request for `path`.
std::size_t connection_of(const hostile_server& server, std::string_view path) {
  std::size_t connection = 0;
  for (const auto& request : server.requests())
    if (request.target == path) connection = request.connection;
  return connection;
}

// "/after" went on the connection "/case" came on: the connection was kept alive.
void after_on_the_same_connection(const crawl_result&, const hostile_server& server) {
  EXPECT_EQ(connection_of(server, "/after"), connection_of(server, "/case"));
}

// "/after" went on a new connection: what was left on the old one was not asked for.
void after_on_a_new_connection(const crawl_result&, const hostile_server& server) {
  EXPECT_GT(connection_of(server, "/after"), connection_of(server, "/case"));
}

// The links at both ends of the long pages below were found: the page was read to its end.
void links_at_both_ends(const crawl_result& result, const hostile_server& server) {
  EXPECT_TRUE(find_record(result, server.url("/first")));
  EXPECT_TRUE(find_record(result, server.url("/last")));
}

void max_body_1mib(crawl_options& options) {
  options.max_body = 1024 * 1024;
}

// For servers that never finish: one try with a short time limit keeps the table fast.
void short_timeout(crawl_options& options) {
  options.timeout = 500ms;
  options.max_tries = 1;
}

// Bombs are made when a case runs, not whenever the test program starts: they take a while.
const std::string& gzip_bomb_body() {
  static const std::string body = gzip_bomb(20 * 1024 * 1024);
  return body;
}

const std::string& deflate_bomb_body() {
  static const std::string body = zlib_deflate(std::string(8 * 1024 * 1024, '\0'));
  return body;
}

using body_maker = const std::string& (*)();

std::function<void(hostile_server&)> serve_encoded(std::string coding, body_maker body) {
  return [coding, body](hostile_server& server) {
    server.add("/case", send(encoded(coding, body())));
  };
}

// The record's size is every byte of the compressed body: all was read, if not all decoded.
std::function<void(const crawl_result&, const hostile_server&)> received_all_of(body_maker body) {
  return [body](const crawl_result& result, const hostile_server& server) {
    EXPECT_EQ(record(result, server.url("/case")).size, body().size());
  };
}

}  // namespace

// --- The table --------------------------------------------------------------------------------

void PrintTo(const hostile_case& c, std::ostream* out) {
  *out << c.name;
}

std::vector<hostile_case> http_cases() {
  const auto reset = failed("reset", "connection reset", 2);
  const auto closed = failed("closed", "connection closed without a response", 2);
  const auto truncated = failed("truncated", "truncated response", 2);
  const auto timed_out = failed("timeout", "timed out", 1);
  const std::string not_found = response("404 Not Found", {html}, "gone");
  const std::string early_hints = "HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n";
  const std::string body(100, 'x');
  const std::string big_comment =
      "<meta charset=utf-8><a href=/x><!--" + std::string(600'000, '-') + "<a href=/no>";
  const std::string gz = gzip("<p>hello</p>");
  // A page of 300 KB, below the size read as it comes: its body is read straight into it, a
  // window at a time, whatever pieces it comes in.
  const std::string long_page = "<meta charset=utf-8><a href=/first>f</a><p>" +
                                std::string(300'000, 'x') + "</p><a href=/last>l</a>";
  // A page of 100 KB, written at once: its body has all come with its header (on loopback,
  // where a socket holds it whole), and is read and parsed off the event loop's thread.
  const std::string page_at_once = "<meta charset=utf-8><a href=/first>f</a><p>" +
                                   std::string(100'000, 'x') + "</p><a href=/last>l</a>";

  std::vector<hostile_case> all = {
      // Healthy answers the others are measured against.
      {"plain_page", send(page()), ok(), true, false, {}, after_on_the_same_connection},
      {"close_delimited_body",
       send_then("HTTP/1.1 200 OK\r\n" + html + "\r\nConnection: close\r\n\r\n" + body,
                 step::close()),
       ok(100), true},
      {"chunked_with_trailer", send(chunked_head() + "5\r\nhello\r\n0\r\nX-Trailer: 1\r\n\r\n"),
       ok(5), true},
      {"same_length_twice",
       send("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello"), ok(5), true},

      // Slow servers: every one ends at the time limit.
      {"slow_status_line", {step::trickle(page(), 50ms)}, timed_out, false, true, short_timeout},
      {"slow_headers",
       {step::write("HTTP/1.1 200 OK\r\n"), step::trickle(html + "\r\nX-Slow: 1\r\n\r\n", 50ms)},
       timed_out,
       false,
       false,
       short_timeout},
      {"slow_body",
       {step::write(ok_head(100)), step::trickle(body, 50ms)},
       timed_out,
       false,
       false,
       short_timeout},
      {"silent_after_headers",
       {step::write(ok_head(100)), step::hold()},
       timed_out,
       false,
       false,
       short_timeout},
      {"silent", {step::hold()}, timed_out, false, false, short_timeout},
      {"pause_longer_than_timeout",
       {step::wait(2s), step::write(page())},
       timed_out,
       false,
       false,
       short_timeout},

      // Resets and closes at every stage.
      {"reset_before_status_line", {step::reset()}, reset, false, true},
      {"close_before_status_line", {step::close()}, closed},
      {"reset_mid_status_line", send_then("HTTP/1.1 2", step::reset()), reset},
      {"close_mid_status_line", send_then("HTTP/1.1 2", step::close()), truncated},
      {"reset_mid_headers", send_then("HTTP/1.1 200 OK\r\nContent-Ty", step::reset()), reset},
      {"close_mid_headers", send_then("HTTP/1.1 200 OK\r\nContent-Ty", step::close()), truncated},
      {"reset_mid_body", send_then(ok_head(100) + "0123456789", step::reset()), reset},
      {"close_mid_body", send_then(ok_head(100) + "0123456789", step::close()), truncated, false,
       true},
      {"close_mid_chunk", send_then(chunked_head() + "64\r\n0123456789", step::close()), truncated},
      {"reset_mid_chunk", send_then(chunked_head() + "64\r\n0123456789", step::reset()), reset},
      {"close_between_chunks", send_then(chunked_head() + "5\r\nhello\r\n", step::close()),
       truncated},
      {"close_before_last_chunk_end",
       send_then(chunked_head() + "5\r\nhello\r\n0\r\n", step::close()), truncated},

      // Bad and conflicting lengths.
      {"two_different_lengths",
       send("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
       protocol("multiple Content-Length")},
      {"length_and_chunked",
       send("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
            "5\r\nhello\r\n0\r\n\r\n"),
       protocol("bad Transfer-Encoding")},
      {"chunked_and_length",
       send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n"
            "5\r\nhello\r\n0\r\n\r\n"),
       protocol("bad Content-Length")},
      {"negative_length", send("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"),
       protocol("bad Content-Length")},
      {"length_not_a_number", send("HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\n\r\n"),
       protocol("bad Content-Length")},
      {"length_overflows",
       send("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n"),
       protocol("bad Content-Length")},
      // The header announces more than max_body: the part that comes (until the time limit) is
      // read, for its links, and nothing is allocated for the rest.
      {"huge_length", send_then(ok_head(1ULL << 62) + body, step::hold()), too_large(body.size()),
       true},
      {"length_longer_than_body_then_close", send_then(ok_head(500) + body, step::close()),
       truncated},
      {"long_body_in_pieces",
       {step::write(ok_head(long_page.size()) + long_page.substr(0, 1000)), step::wait(20ms),
        step::write(long_page.substr(1000, 200'000)), step::wait(20ms),
        step::write(long_page.substr(201'000))},
       ok(long_page.size()),
       true,
       false,
       {},
       links_at_both_ends},
      {"long_body_at_once",
       send(ok_head(page_at_once.size()) + page_at_once),
       ok(page_at_once.size()),
       true,
       false,
       {},
       [](const crawl_result& result, const hostile_server& server) {
         links_at_both_ends(result, server);
         after_on_the_same_connection(result, server);
       }},
      {"long_body_at_once_then_an_answer_unasked",
       send(ok_head(page_at_once.size()) + page_at_once + not_found),
       ok(page_at_once.size()),
       true,
       false,
       {},
       [](const crawl_result& result, const hostile_server& server) {
         links_at_both_ends(result, server);
         after_on_a_new_connection(result, server);
       }},
      {"long_body_cut_after_a_window",
       send_then(ok_head(long_page.size()) + long_page.substr(0, 200'000), step::close()),
       truncated},
      // A big page is read as it comes (page_in_pieces): a comment that never ends is held
      // until the body does, and a body cut short fails as any other.
      {"big_page_in_one_comment",
       send(ok_head(big_comment.size()) + big_comment),
       ok(big_comment.size()),
       true,
       false,
       {},
       [](const crawl_result& result, const hostile_server& server) {
         EXPECT_TRUE(find_record(result, server.url("/x")));  // before the comment
         EXPECT_FALSE(find_record(result, server.url("/no")));
       }},
      {"big_page_cut_short",
       send_then(ok_head(big_comment.size() + 1000) + big_comment, step::close()), truncated},

      // Bad chunking.
      {"chunk_size_not_hex", send(chunked_head() + "zz\r\nhello\r\n0\r\n\r\n"),
       protocol("bad chunk")},
      {"chunk_without_crlf", send(chunked_head() + "5\r\nhelloXX0\r\n\r\n"), protocol("bad chunk")},
      {"chunk_size_overflows", send(chunked_head() + "fffffffffffffffffff\r\nhello\r\n0\r\n\r\n"),
       protocol("bad chunk")},
      {"negative_chunk_size", send(chunked_head() + "-5\r\nhello\r\n0\r\n\r\n"),
       protocol("bad chunk")},

      // Interim (1xx) answers come before the real one on the same connection.
      {"continue_then_page", send("HTTP/1.1 100 Continue\r\n\r\n" + page()), ok(), true, true},
      {"early_hints_then_page",
       send(early_hints + page()),
       ok(),
       true,
       false,
       {},
       after_on_the_same_connection},
      {"several_interim_answers",
       send("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n" + early_hints +
            early_hints + page()),
       ok(), true},
      {"interim_answers_apart",
       {step::write(early_hints), step::wait(50ms), step::write(early_hints), step::wait(50ms),
        step::write(page())},
       ok(),
       true},
      {"interim_status_199", send("HTTP/1.1 199 Whatever\r\n\r\n" + page()), ok(), true},
      {"switching_protocols_unasked",
       send("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
            "\x81\x05hello"),
       protocol("101 Switching Protocols without an upgrade request")},
      {"interim_then_close", send_then(early_hints, step::close()), closed},
      {"interim_then_reset", send_then(early_hints, step::reset()), reset},

      // Bytes nobody asked for after a complete answer.
      {"no_content_with_a_body",
       send(response("204 No Content", {}, not_found)),
       {.status = 204},
       true,
       false,
       {},
       after_on_a_new_connection},
      {"not_modified_with_a_body",
       send(response("304 Not Modified", {}, not_found)),
       {.status = 304},
       true,
       true},
      {"unsolicited_second_answer",
       send(page() + not_found),
       ok(),
       true,
       false,
       {},
       after_on_a_new_connection},
      {"body_longer_than_length",
       send(ok_head(5) + "hello" + not_found),
       ok(5),
       true,
       false,
       {},
       after_on_a_new_connection},
      // The stray answer comes while the connection is idle: seen before it is reused.
      {"unsolicited_answer_while_idle",
       {step::write(page()), step::wait(100ms), step::write(not_found)},
       ok(),
       true,
       false,
       [](crawl_options& options) { options.rate_limit = 4; },
       after_on_a_new_connection},

      // Giant headers (the limit is 64 KiB).
      {"header_of_70_kib",
       send(response("200 OK", {html, "X-Big: " + std::string(70 * 1024, 'a')}, "hi")),
       protocol("header limit exceeded")},
      {"many_headers_past_the_limit",
       send(response("200 OK", std::vector<std::string>(2000, "X-Many: " + std::string(40, 'b')),
                     "hi")),
       protocol("header limit exceeded")},
      {"header_of_60_kib",
       send(response("200 OK", {html, "X-Big: " + std::string(60 * 1024, 'a')}, "hi")), ok(2),
       true},

      // Garbage where the status line should be.
      {"not_http", send("HELLO WORLD\r\n\r\n"), protocol("bad version")},
      // No blank line ends these: Beast reads on until the server closes, then parses.
      {"tls_on_a_plain_port",
       send_then(std::string("\x16\x03\x01\x00\x2a\x02\x00\x00\x26\x03\x03", 11), step::close()),
       protocol("bad version")},
      {"bare_newlines", send_then("HTTP/1.1 200 OK\nContent-Length: 0\n\n", step::close()),
       protocol("bad reason")},
      {"http2_status_line", send("HTTP/2 200 OK\r\n\r\n"), protocol("bad version")},
      {"status_not_a_number", send("HTTP/1.1 abc OK\r\nContent-Length: 0\r\n\r\n"),
       protocol("bad status")},
      {"four_digit_status", send("HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n"),
       protocol("bad status")},

      // Statuses outside 100-599.
      {"status_000", send(response("000 Zero", {}, "")), protocol("status 000 is not 100-599"),
       false, true},
      {"status_099", send(response("099 Almost", {}, "")), protocol("status 099 is not 100-599")},
      {"status_600", send(response("600 Beyond", {}, "")), protocol("status 600 is not 100-599")},
      {"status_999", send(response("999 Nope", {}, "")), protocol("status 999 is not 100-599")},
      {"status_599", send(response("599 Odd", {}, "")), {.status = 599}},

      // Compressed bodies: bombs stop at max_body, corrupt ones are failures.
      {"gzip_bomb",
       {},
       expected{.status = 200, .error = "body too large"},
       true,
       true,
       max_body_1mib,
       received_all_of(gzip_bomb_body),
       serve_encoded("gzip", gzip_bomb_body)},
      {"deflate_bomb",
       {},
       expected{.status = 200, .error = "body too large"},
       true,
       false,
       max_body_1mib,
       received_all_of(deflate_bomb_body),
       serve_encoded("deflate", deflate_bomb_body)},
      {"corrupt_gzip", send(encoded("gzip", "this is not gzip")),
       failed("protocol", "corrupt*", 1)},
      {"truncated_gzip", send(encoded("gzip", gz.substr(0, gz.size() / 2))),
       failed("protocol", "truncated gzip data", 1)},
      {"unknown_coding", send(encoded("br", "whatever")),
       failed("protocol", "unsupported Content-Encoding \"br\"", 1)},
      // A chunked body past max_body: the record's size is what was read, not max_body.
      {"chunked_past_max_body",
       send_then(chunked_head() + "80000\r\n" + std::string(0x80000, 'a') + "\r\n80000\r\n",
                 step::hold()),
       too_large(0x80000), true, false,
       [](crawl_options& options) { options.max_body = 0x80000 + 10; }},

      // Odd charsets: raw bytes that are not UTF-8 break nothing.
      {"charset_latin1",
       send(response("200 OK", {"Content-Type: text/html; charset=iso-8859-1"}, "hi")),
       {.status = 200, .size = 2, .encoding = "iso-8859-1"},
       true},
      {"charset_raw_bytes",
       send(response("200 OK", {"Content-Type: text/html; charset=\xff\xfe\x80"}, "hi")),
       {.status = 200, .size = 2},
       true},
      {"content_type_raw_bytes",
       send(response("200 OK", {"Content-Type: te\xe9xt/h\xffml"}, "hi")),
       {.status = 200, .size = 2},
       true},
      {"charset_too_large_body",
       send_then("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=koi8-r\r\n"
                 "Content-Length: 4611686018427387904\r\n\r\n",
                 step::hold()),
       // Text that is not parsed is not read at all: its size does not matter.
       {.status = 200, .size = 0, .encoding = "koi8-r"},
       true},
  };
  return all;
}

namespace {

std::string redirect_to(std::string_view location, std::string_view status = "302 Found") {
  return response(status, {"Location: " + std::string(location)}, "");
}

// The record of `path` on `server` says `error`.
std::function<void(const crawl_result&, const hostile_server&)> error_of(std::string path,
                                                                         std::string error) {
  return [path, error](const crawl_result& result, const hostile_server& server) {
    EXPECT_EQ(record(result, server.url(path)).error, error) << path;
  };
}

// Pages below "/d/" link to "d/": /d/, /d/d/, /d/d/d/... without end.
void self_nesting_pages(hostile_server& server) {
  server.set_default([](const recorded_request& request) {
    if (request.target.starts_with("/d/")) return send(page({"d/"}));
    return send(page());
  });
}

std::string many_segments(int count) {
  std::string path;
  for (int i = 0; i < count; ++i)
    path += "/s" + std::to_string(i);
  return path;
}

}  // namespace

std::vector<hostile_case> crawl_cases() {
  const auto redirected = [](unsigned status) {
    return expected{.status = status, .error = std::nullopt};
  };
  const auto loop = [](unsigned status) {
    return expected{.status = status, .error = "redirect loop"};
  };
  return {
      // Redirect loops: the hop that comes back to its own chain is broken.
      {"redirect_to_itself", send(redirect_to("/case", "301 Moved Permanently")), loop(301), false,
       true},
      {"redirect_loop_of_two",
       send(redirect_to("/b")),
       redirected(302),
       false,
       true,
       {},
       error_of("/b", "redirect loop"),
       [](hostile_server& server) { server.add("/b", send(redirect_to("/case"))); }},
      {"redirect_loop_of_three",
       send(redirect_to("/b")),
       redirected(302),
       false,
       false,
       {},
       error_of("/c", "redirect loop"),
       [](hostile_server& server) {
         server.add("/b", send(redirect_to("/c")));
         server.add("/c", send(redirect_to(server.url("/case"))));
       }},
      {"redirect_chains_that_meet_are_no_loop",
       send(redirect_to("/b")),
       redirected(302),
       true,
       false,
       {},
       [](const crawl_result& result, const hostile_server& server) {
         EXPECT_EQ(record(result, server.url("/x")).error, std::nullopt);
         EXPECT_EQ(record(result, server.url("/c")).status, 200u);
         EXPECT_EQ(server.requests_for("/b"), 1u);
       },
       [](hostile_server& server) {
         server.add("/b", send(redirect_to("/c")));
         server.add("/c", send(page({"/x"})));
         server.add("/x", send(redirect_to("/b")));  // into the chain above: it ends at /c
       }},

      // Crawler traps: a relative link that nests a path in itself, a path of 70 segments.
      {"trap_repeated_segment",
       send(page({"/d/"})),
       ok(),
       true,
       true,
       {},
       [](const crawl_result& result, const hostile_server& server) {
         EXPECT_EQ(record(result, server.url("/d/d/d/")).status, 200u);
         ASSERT_EQ(result.skipped.size(), 1u);
         EXPECT_EQ(result.skipped[0].url, server.url("/d/d/d/d/"));
         EXPECT_EQ(result.skipped[0].reason,
                   "trap: the path repeats the segment \"d\" more than 3 times in a row");
         EXPECT_EQ(result.skipped[0].referrer, server.url("/d/d/d/"));
         EXPECT_EQ(server.requests_for("/d/d/d/d/"), 0u);
       },
       self_nesting_pages},
      {"trap_many_segments",
       send(page({many_segments(70)})),
       ok(),
       true,
       false,
       {},
       [](const crawl_result& result, const hostile_server& server) {
         ASSERT_EQ(result.skipped.size(), 1u);
         EXPECT_EQ(result.skipped[0].reason, "trap: the path has 70 segments, more than 64");
         EXPECT_EQ(server.requests_for(many_segments(70)), 0u);
       }},
      {"trap_rules_off_max_urls_bounds_the_crawl", send(page({"/d/"})), ok(), false, false,
       [](crawl_options& options) {
         options.trap_rules = false;
         options.max_urls = 12;
       },
       [](const crawl_result& result, const hostile_server& server) {
         EXPECT_TRUE(result.skipped.empty());
         EXPECT_EQ(result.records.size(), 12u);
         ASSERT_EQ(result.unchecked.size(), 1u);  // the next one found, never fetched
         EXPECT_EQ(server.requests_for(result.unchecked[0].url.substr(server.url("").size())), 0u);
       },
       self_nesting_pages},

      // --max-depth: "/" is 0 hops away, "/case" 1, "/deep" 2: its link is not followed.
      {"max_depth", send(page({"/deep"})), ok(), true, false,
       [](crawl_options& options) { options.max_depth = 2; },
       [](const crawl_result& result, const hostile_server& server) {
         EXPECT_EQ(record(result, server.url("/deep")).status, 200u);
         EXPECT_EQ(testing::find_record(result, server.url("/deeper")), std::nullopt);
         EXPECT_EQ(server.requests_for("/deeper"), 0u);
         EXPECT_TRUE(result.unchecked.empty());
       },
       [](hostile_server& server) { server.add("/deep", send(page({"/deeper"}))); }},

      // Markup gumbo is quadratic on, without the parse's bounds: minutes for this page.
      {"nested_templates_in_rows",
       {},  // the setup serves "/case"
       ok(),
       true,
       false,
       {},
       {},
       [](hostile_server& server) {
         std::string markup = "<a href=/after>";
         for (int i = 0; i < 50000; ++i)
           markup += "<template><tr>";
         server.add("/case", send(response("200 OK", {html}, markup)));
       }},
  };
}

}  // namespace corocrawl::testing::hostile
