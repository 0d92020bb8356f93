// Fuzzes sitemap reading (sitemap/sitemap_xml.hpp) and checks its contract, not only that it
// does not crash: a sitemap or an error, never both; locations trimmed, not empty, valid UTF-8,
// no more than the limit; a text sitemap's locations its non-blank lines, in order; the same
// reading of a body gzipped, and the size limit holding to the byte.
//
// Input: the body, as a server would send it (gzipped or not, XML or text).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.hpp"
#include "compression.hpp"
#include "corocrawl/utf8.hpp"
#include "sitemap/sitemap_xml.hpp"
#include "text/ascii.hpp"

namespace {

using corocrawl::parse_sitemap;
using corocrawl::sitemap_result;
namespace ascii = corocrawl::ascii;

constexpr corocrawl::fuzz::checker check{"sitemap"};

bool is_gzip(std::string_view body) {
  return body.starts_with("\x1f\x8b");
}

// What parse_sitemap promises of every result.
void check_result(const sitemap_result& result, std::string_view input) {
  check(result.value.has_value() == result.error.empty(), "not exactly one of value and error",
        input);
  if (!result.value) return;
  const auto& locations = result.value->locations;
  check(locations.size() <= corocrawl::max_sitemap_locations, "more locations than the limit",
        input);
  for (const std::string& location : locations) {
    check(!location.empty(), "an empty location", location);
    check(ascii::trim_if(location, ascii::is_c_space) == location, "a location not trimmed",
          location);
    check(corocrawl::is_valid_utf8(location), "a location not UTF-8", location);
    check(location.find('\0') == std::string::npos, "a location with a NUL", location);
  }
}

// A body read as text, not XML: no gzip magic or UTF-16 byte order mark, and what follows an
// optional UTF-8 one and whitespace does not start with '<'.
bool is_text_sitemap(std::string_view body) {
  if (is_gzip(body) || body.starts_with("\xFE\xFF") || body.starts_with("\xFF\xFE")) return false;
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);
  body = ascii::trim_if(body, ascii::is_c_space);
  return !body.empty() && !body.starts_with('<');
}

// A text sitemap's locations are its non-blank lines, trimmed.
void check_text(const sitemap_result& result, std::string_view input) {
  std::string_view text = input;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::size_t next = 0;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    const std::string_view line = ascii::trim_if(text.substr(0, newline), ascii::is_c_space);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    if (line.empty()) continue;
    check(next < result.value->locations.size(), "a line of a text sitemap is missing", line);
    check(result.value->locations[next] == line, "a text sitemap's location is not its line", line);
    ++next;
  }
  check(next == result.value->locations.size(), "a text sitemap has more locations than lines",
        input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const sitemap_result result = parse_sitemap(input);
  check_result(result, input);
  if (result.value && is_text_sitemap(input)) check_text(result, input);
  if (is_gzip(input)) return 0;

  // Gzipped, the same body reads the same, errors and their line numbers included.
  const std::string gzipped = corocrawl::testing::gzip(input);
  const sitemap_result unzipped = parse_sitemap(gzipped);
  check_result(unzipped, input);
  check(unzipped.error == result.error, "gzipped, the error differs", input);
  check(unzipped.value.has_value() == result.value.has_value(), "gzipped, a value differs", input);
  if (result.value) {
    check(unzipped.value->kind == result.value->kind, "gzipped, the kind differs", input);
    check(unzipped.value->locations == result.value->locations, "gzipped, locations differ", input);
  }

  // The limit on the decompressed size is exact.
  check(parse_sitemap(gzipped, size).error == result.error, "a body the size of the limit differs",
        input);
  if (size > 0) {
    check(parse_sitemap(gzipped, size - 1).error ==
              "larger than " + std::to_string(size - 1) + " bytes when decompressed",
          "a body one byte over the limit is not refused", input);
  }
  return 0;
}
