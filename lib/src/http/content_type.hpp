#pragma once
// Media types: parsing Content-Type headers and choosing one for a file name.

#include <optional>
#include <string>
#include <string_view>

namespace corocrawl {

struct media_type {
  std::string type;                    ///< lower-case "type/subtype", no parameters
  std::optional<std::string> charset;  ///< lower-case charset parameter, unquoted
};

/// Parses a Content-Type header value such as `text/html; charset="UTF-8"`. Returns nullopt
/// for an empty or blank value.
std::optional<media_type> parse_content_type(std::string_view header);

/// True for the media types whose links the crawler follows: text/html,
/// application/xhtml+xml, and XML (text/xml, application/xml, any "+xml").
bool is_markup(std::string_view type);

/// True for text/html and application/xhtml+xml.
bool is_html(std::string_view type);

/// True for text/css.
bool is_css(std::string_view type);

/// True for the media types the crawler reads the body of to find references: markup and
/// CSS. Of anything else a check needs only the header.
bool is_parsed_type(std::string_view type);

/// The Content-Type header to serve a file with, chosen by its extension (case-insensitive);
/// "application/octet-stream" for unknown ones. Text types carry "; charset=utf-8".
std::string_view content_type_for_path(std::string_view path);

}  // namespace corocrawl
