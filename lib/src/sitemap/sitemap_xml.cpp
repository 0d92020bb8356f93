// Sitemaps read with expat, namespace processing on so that only local names are compared, and
// gzipped ones decoded first by decode_content, bounded like response bodies.

#include "sitemap/sitemap_xml.hpp"

#include <expat.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <new>
#include <utility>

#include "corocrawl/utf8.hpp"
#include "http/decompress.hpp"
#include "text/ascii.hpp"

namespace corocrawl {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Separates the namespace URI from the local name in the names expat reports. No name has a
// space in it, so the local name is what follows the last one.
constexpr XML_Char kNamespaceSeparator = ' ';

// XML is handed to expat in pieces of this size (XML_Parse takes an int length).
constexpr std::size_t kXmlChunk = 1024 * 1024;

// Element names quoted in errors are cut to about this many bytes.
constexpr std::size_t kMaxQuotedName = 64;

sitemap_result failure(std::string error) {
  return {.error = std::move(error)};
}

std::string too_many_locations() {
  return "more than " + std::to_string(max_sitemap_locations) + " locations in one sitemap";
}

bool is_gzip(std::string_view body) {
  return body.size() >= 2 && static_cast<unsigned char>(body[0]) == 0x1f &&
         static_cast<unsigned char>(body[1]) == 0x8b;
}

bool is_utf16_bom(std::string_view body) {
  return body.starts_with("\xFE\xFF") || body.starts_with("\xFF\xFE");
}

// "<!DOCTYPE html" in any case, as a whole word.
bool starts_html_doctype(std::string_view markup) {
  constexpr std::string_view doctype = "<!doctype html";
  if (markup.size() < doctype.size() || !ascii::iequals(markup.substr(0, doctype.size()), doctype))
    return false;
  return markup.size() == doctype.size() || ascii::is_space(markup[doctype.size()]) ||
         markup[doctype.size()] == '>';
}

// Line breaks as expat counts them: LF, CR, and CRLF once.
unsigned long count_lines(std::string_view text) {
  unsigned long lines = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')))
      ++lines;
  }
  return lines;
}

// A name to quote in an error: at most about kMaxQuotedName bytes, cut at a character boundary.
std::string quoted_name(std::string_view name) {
  if (name.size() <= kMaxQuotedName) return std::string(name);
  std::size_t end = kMaxQuotedName;
  while (end > 0 && (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80)
    --end;
  return std::string(name.substr(0, end)) + "...";
}

// Adds `location` unless blank; false (leaving `error` set) when there are too many.
bool add_location(std::vector<std::string>& locations, std::string_view location,
                  std::string& error) {
  location = ascii::trim_if(location, ascii::is_c_space);
  if (location.empty()) return true;
  if (locations.size() == max_sitemap_locations) {
    error = too_many_locations();
    return false;
  }
  locations.emplace_back(location);
  return true;
}

// One XML document read with expat: its callbacks and what they have found.
class xml_reader {
 public:
  xml_reader() : parser_(XML_ParserCreateNS(nullptr, kNamespaceSeparator)) {
    if (parser_ == nullptr) throw std::bad_alloc();
    XML_SetUserData(parser_.get(), this);
    XML_SetElementHandler(parser_.get(), on_start, on_end);
    XML_SetCharacterDataHandler(parser_.get(), on_text);
  }

  /// Reads `xml`, whose first `skipped_lines` line breaks were taken away before it.
  sitemap_result read(std::string_view xml, unsigned long skipped_lines) {
    for (;;) {
      const std::size_t n = std::min(xml.size(), kXmlChunk);
      const bool last = n == xml.size();
      if (XML_Parse(parser_.get(), xml.data(), static_cast<int>(n), last) != XML_STATUS_OK)
        return parse_failure(skipped_lines);
      if (last) break;
      xml.remove_prefix(n);
    }
    return {.value = std::move(sitemap_)};
  }

 private:
  struct parser_deleter {
    void operator()(XML_Parser parser) const { XML_ParserFree(parser); }
  };

  static std::string_view local_name(const XML_Char* name) {
    const std::string_view full(name);
    const std::size_t separator = full.rfind(kNamespaceSeparator);
    return separator == std::string_view::npos ? full : full.substr(separator + 1);
  }

  // The callbacks run inside expat, which is C: nothing may be thrown through it, so an
  // exception is kept and rethrown once XML_Parse has returned.
  template <typename Handler>
  static void guarded(void* user_data, Handler handler) {
    auto& reader = *static_cast<xml_reader*>(user_data);
    try {
      handler(reader);
    } catch (...) {
      reader.exception_ = std::current_exception();
      XML_StopParser(reader.parser_.get(), XML_FALSE);
    }
  }

  static void XMLCALL on_start(void* user_data, const XML_Char* name,
                               const XML_Char** /*attributes*/) {
    guarded(user_data, [name](xml_reader& reader) { reader.start(local_name(name)); });
  }

  static void XMLCALL on_end(void* user_data, const XML_Char* /*name*/) {
    guarded(user_data, [](xml_reader& reader) { reader.end(); });
  }

  static void XMLCALL on_text(void* user_data, const XML_Char* text, int length) {
    guarded(user_data, [text, length](xml_reader& reader) {
      // Only the <loc>'s own text: not that of elements inside it.
      if (reader.in_loc_ && reader.depth_ == 3)
        reader.text_.append(text, static_cast<std::size_t>(length));
    });
  }

  // Depth 1 is the root, 2 its entries (<url> or <sitemap>), 3 an entry's <loc>.
  void start(std::string_view name) {
    ++depth_;
    if (depth_ == 1) {
      if (name == "urlset") {
        entry_ = "url";
      } else if (name == "sitemapindex") {
        sitemap_.kind = sitemap_kind::index;
        entry_ = "sitemap";
      } else {
        stop("not a sitemap: the root element is <" + quoted_name(name) + ">");
      }
    } else if (depth_ == 2) {
      in_entry_ = name == entry_;
    } else if (depth_ == 3) {
      in_loc_ = in_entry_ && name == "loc";
      text_.clear();
    }
  }

  void end() {
    if (depth_ == 3 && in_loc_) {
      in_loc_ = false;
      std::string error;
      if (!add_location(sitemap_.locations, text_, error)) stop(std::move(error));
    } else if (depth_ == 2) {
      in_entry_ = false;
    }
    --depth_;
  }

  void stop(std::string error) {
    error_ = std::move(error);
    XML_StopParser(parser_.get(), XML_FALSE);
  }

  sitemap_result parse_failure(unsigned long skipped_lines) {
    if (exception_) std::rethrow_exception(exception_);
    if (!error_.empty()) return failure(std::move(error_));
    const XML_Error code = XML_GetErrorCode(parser_.get());
    if (code == XML_ERROR_NO_MEMORY) throw std::bad_alloc();
    const XML_LChar* what = XML_ErrorString(code);
    return failure("XML error at line " +
                   std::to_string(XML_GetCurrentLineNumber(parser_.get()) + skipped_lines) + ": " +
                   (what != nullptr ? what : "error " + std::to_string(code)));
  }

  std::unique_ptr<XML_ParserStruct, parser_deleter> parser_;
  sitemap sitemap_;
  std::string_view entry_;  ///< the local name of the root's entries
  int depth_ = 0;
  bool in_entry_ = false;  ///< inside an entry at depth 2
  bool in_loc_ = false;    ///< inside an entry's <loc> at depth 3
  std::string text_;       ///< the <loc>'s text so far
  std::string error_;      ///< why the parser was stopped
  std::exception_ptr exception_;
};

// Control characters other than whitespace: no text sitemap has them, binary data does.
bool is_binary_control(char c) {
  return ascii::is_control(c) && !ascii::is_c_space(c);
}

sitemap_result read_text(std::string_view text) {
  if (!is_valid_utf8(text)) return failure("not a sitemap: text that is not UTF-8");
  if (std::ranges::any_of(text, is_binary_control))
    return failure("not a sitemap: binary data (control characters in text)");
  sitemap map;
  std::string error;
  while (!text.empty()) {
    const std::size_t newline = std::min(text.find('\n'), text.size());
    if (!add_location(map.locations, text.substr(0, newline), error))
      return failure(std::move(error));
    text.remove_prefix(std::min(newline + 1, text.size()));
  }
  return {.value = std::move(map)};
}

}  // namespace

sitemap_result parse_sitemap(std::string_view body, std::uint64_t max_bytes) {
  std::string decompressed;
  if (is_gzip(body)) {
    decoded_body decoded = decode_content("gzip", std::string(body), max_bytes);
    if (decoded.status == decode_status::too_large)
      return failure("larger than " + std::to_string(max_bytes) + " bytes when decompressed");
    if (decoded.status != decode_status::ok) return failure(std::move(decoded.problem));
    decompressed = std::move(decoded.body);
    body = decompressed;
    if (is_gzip(body)) return failure("not a sitemap: gzipped twice");
  }

  // UTF-16 is for expat to decode (its byte order mark says which); everything else is UTF-8.
  if (is_utf16_bom(body)) return xml_reader().read(body, 0);
  if (body.starts_with(kUtf8Bom)) body.remove_prefix(kUtf8Bom.size());
  const std::size_t first = body.find_first_not_of(" \t\n\v\f\r");  // is_c_space
  if (first == std::string_view::npos) return failure("not a sitemap: the body is empty");
  const std::string_view start = body.substr(first);
  if (!start.starts_with('<')) return read_text(body);
  if (starts_html_doctype(start)) return failure("not a sitemap: an HTML page (<!DOCTYPE html>)");
  // Whitespace before the XML declaration is an XML error, but one too many generators make:
  // it is skipped, and the lines it held still counted in errors.
  return xml_reader().read(start, count_lines(body.substr(0, first)));
}

}  // namespace corocrawl
