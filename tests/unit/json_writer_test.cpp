// The JSON writer writes what Boost.JSON's serialize() writes for the same values.
#include "report/json_writer.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>

#include "report/json_text.hpp"

namespace corocrawl {
namespace {

namespace json = boost::json;

std::string written(const std::function<void(json_writer&)>& write) {
  std::ostringstream out;
  {
    json_writer writer(out);
    write(writer);
  }
  return out.str();
}

TEST(JsonWriter, EveryByteIsEscapedAsBoostJsonEscapesIt) {
  for (int byte = 0; byte < 256; ++byte) {
    const std::string text = "a" + std::string(1, static_cast<char>(byte)) + "b";
    EXPECT_EQ(written([&](json_writer& w) { w.string(text); }),
              json::serialize(json::value(json_text(text))))
        << "byte " << byte;
  }
}

TEST(JsonWriter, RandomStringsAndInvalidUtf8ComeOutAsJsonTextMakesThem) {
  std::mt19937 random(11);  // NOLINT(cert-msc32-c,cert-msc51-cpp): the same strings each run
  for (int i = 0; i < 2000; ++i) {
    std::string text(random() % 40, '\0');
    for (char& c : text)  // mostly printable, some controls, some bytes of UTF-8 or not
      c = static_cast<char>(random() % 4 == 0 ? random() % 256 : 0x20 + random() % 0x5f);
    EXPECT_EQ(written([&](json_writer& w) { w.string(text); }),
              json::serialize(json::value(json_text(text))));
  }
}

// Long strings are scanned eight bytes at a time: a byte to escape, or one that is not ASCII
// (valid or not), at every offset of such a step.
TEST(JsonWriter, EveryOffsetOfALongStringIsEscapedAsBoostJsonEscapesIt) {
  for (const std::string& odd :
       {std::string("\""), std::string("\\"), std::string("\n"), std::string(1, '\0'),
        std::string("\x1f"), std::string("\x7f"), std::string("\xC3\xA9"), std::string("\xC3"),
        std::string("\xFF"), std::string(" ")}) {
    for (std::size_t at = 0; at < 40; ++at) {
      std::string text(40, 'a');
      text.replace(at, 1, odd);
      EXPECT_EQ(written([&](json_writer& w) { w.string(text); }),
                json::serialize(json::value(json_text(text))))
          << "offset " << at;
    }
  }
}

TEST(JsonWriter, ObjectsArraysAndNumbersAreWrittenAsSerializeWritesThem) {
  const std::string text = written([](json_writer& w) {
    w.begin_object();
    w.key("url").string("http://a.test/\"x\"");
    w.key("status").optional_number(404U);
    w.key("none").optional_number(std::nullopt);
    w.key("error").optional_string(std::nullopt);
    w.key("tries").number(std::int64_t{-3});
    w.key("size").number(std::uint64_t{18'446'744'073'709'551'615ULL});
    w.key("empty").begin_array().end_array();
    w.key("list").begin_array();
    w.string("a").number(std::uint64_t{0}).boolean(true).boolean(false).null();
    w.begin_object().key("line").number(std::uint64_t{7}).end_object();
    w.begin_object().end_object();
    w.end_array();
    w.end_object();
  });
  const json::object expected{{"url", "http://a.test/\"x\""},
                              {"status", 404U},
                              {"none", nullptr},
                              {"error", nullptr},
                              {"tries", -3},
                              {"size", std::uint64_t{18'446'744'073'709'551'615ULL}},
                              {"empty", json::array{}},
                              {"list", json::array{"a", 0U, true, false, nullptr,
                                                   json::object{{"line", 7U}}, json::object{}}}};
  EXPECT_EQ(text, json::serialize(expected));
}

TEST(JsonWriter, LongOutputIsWrittenWhole) {
  std::string expected = "[";
  const std::string text = written([&expected](json_writer& w) {
    w.begin_array();
    for (int i = 0; i < 50'000; ++i) {
      w.string("item " + std::to_string(i));
      expected += (i == 0 ? "" : ",") + std::string("\"item ") + std::to_string(i) + "\"";
    }
    w.end_array();
  });
  EXPECT_EQ(text, expected + "]");
}

TEST(JsonWriter, WritingIntoTextGivesWhatAStreamIsGiven) {
  const std::string long_text(200'000, 'x');  // past the size a stream's buffer is flushed at
  const auto write = [&long_text](json_writer& w) {
    w.begin_array().string("a\"b").number(std::uint64_t{7}).string(long_text).end_array();
  };
  json_writer into;
  write(into);
  EXPECT_TRUE(into.good());
  EXPECT_EQ(into.take_text(), written(write));
  EXPECT_EQ(into.take_text(), "");  // taken: the writer no longer holds it
}

TEST(JsonWriter, AFailedStreamIsSeen) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  json_writer writer(out);
  writer.string("x");
  EXPECT_FALSE(writer.flush());
  EXPECT_FALSE(writer.good());
}

}  // namespace
}  // namespace corocrawl
