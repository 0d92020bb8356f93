// Content-Type parsing (RFC 9110 section 8.3) and a media type per file extension.

#include "http/content_type.hpp"

#include <array>
#include <string>
#include <utility>

#include "text/ascii.hpp"

namespace corocrawl {
namespace {

// A quoted-string starting at s[0] == '"': its unescaped content and the rest after the
// closing quote (a missing closing quote ends the string at the end of the header).
std::pair<std::string, std::string_view> read_quoted(std::string_view s) {
  std::string value;
  std::size_t i = 1;
  for (; i < s.size() && s[i] != '"'; ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) ++i;
    value += s[i];
  }
  return {std::move(value), s.substr(std::min(i + 1, s.size()))};
}

// The media type alone, for is_markup/is_html, which accept a whole header value too.
std::string_view bare_type(std::string_view type) {
  return ascii::trim_ows(type.substr(0, type.find(';')));
}

struct extension_type {
  std::string_view extension;
  std::string_view content_type;
};

// Textual types carry a charset; JSON does not (RFC 8259 defines no charset parameter).
constexpr std::array kExtensionTypes{
    extension_type{"html", "text/html; charset=utf-8"},
    extension_type{"htm", "text/html; charset=utf-8"},
    extension_type{"xhtml", "application/xhtml+xml; charset=utf-8"},
    extension_type{"css", "text/css; charset=utf-8"},
    extension_type{"js", "text/javascript; charset=utf-8"},
    extension_type{"mjs", "text/javascript; charset=utf-8"},
    extension_type{"json", "application/json"},
    extension_type{"map", "application/json"},
    extension_type{"xml", "application/xml; charset=utf-8"},
    extension_type{"rss", "application/rss+xml; charset=utf-8"},
    extension_type{"atom", "application/atom+xml; charset=utf-8"},
    extension_type{"svg", "image/svg+xml; charset=utf-8"},
    extension_type{"txt", "text/plain; charset=utf-8"},
    extension_type{"md", "text/markdown; charset=utf-8"},
    extension_type{"csv", "text/csv; charset=utf-8"},
    extension_type{"png", "image/png"},
    extension_type{"jpg", "image/jpeg"},
    extension_type{"jpeg", "image/jpeg"},
    extension_type{"gif", "image/gif"},
    extension_type{"webp", "image/webp"},
    extension_type{"avif", "image/avif"},
    extension_type{"ico", "image/x-icon"},
    extension_type{"pdf", "application/pdf"},
    extension_type{"woff", "font/woff"},
    extension_type{"woff2", "font/woff2"},
    extension_type{"ttf", "font/ttf"},
    extension_type{"otf", "font/otf"},
    extension_type{"wasm", "application/wasm"},
    extension_type{"mp4", "video/mp4"},
    extension_type{"webm", "video/webm"},
    extension_type{"mp3", "audio/mpeg"},
    extension_type{"ogg", "audio/ogg"},
    extension_type{"zip", "application/zip"},
    extension_type{"gz", "application/gzip"},
};

}  // namespace

std::optional<media_type> parse_content_type(std::string_view header) {
  header = ascii::trim_ows(header);
  if (header.empty()) return std::nullopt;

  const std::size_t semicolon = header.find(';');
  media_type result;
  result.type = ascii::to_lower(ascii::trim_ows(header.substr(0, semicolon)));

  std::string_view rest =
      semicolon == std::string_view::npos ? std::string_view{} : header.substr(semicolon + 1);
  while (!rest.empty()) {
    // parameter = token "=" ( token / quoted-string ), separated by OWS ";" OWS
    const std::size_t name_end = rest.find_first_of("=;");
    const std::string_view name = ascii::trim_ows(rest.substr(0, name_end));
    if (name_end == std::string_view::npos || rest[name_end] == ';') {
      rest = name_end == std::string_view::npos ? std::string_view{} : rest.substr(name_end + 1);
      continue;  // a parameter without a value is ignored
    }
    rest = ascii::trim_ows(rest.substr(name_end + 1));
    std::string value;
    if (!rest.empty() && rest.front() == '"') {
      auto [unquoted, after] = read_quoted(rest);
      value = std::move(unquoted);
      const std::size_t next = after.find(';');
      rest = next == std::string_view::npos ? std::string_view{} : after.substr(next + 1);
    } else {
      const std::size_t next = rest.find(';');
      value = ascii::trim_ows(rest.substr(0, next));
      rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
    }
    // The first charset wins; an empty one says nothing.
    if (!result.charset && ascii::iequals(name, "charset") && !value.empty()) {
      result.charset = ascii::to_lower(value);
    }
  }
  return result;
}

bool is_markup(std::string_view type) {
  const std::string t = ascii::to_lower(bare_type(type));
  if (is_html(t) || t == "text/xml" || t == "application/xml") return true;
  const std::size_t slash = t.find('/');
  return slash != std::string::npos && t.size() > slash + 5 && t.ends_with("+xml");
}

bool is_html(std::string_view type) {
  const std::string_view t = bare_type(type);
  return ascii::iequals(t, "text/html") || ascii::iequals(t, "application/xhtml+xml");
}

bool is_css(std::string_view type) {
  return ascii::iequals(bare_type(type), "text/css");
}

bool is_parsed_type(std::string_view type) {
  return is_markup(type) || is_css(type);
}

std::string_view content_type_for_path(std::string_view path) {
  const std::size_t name_start = path.find_last_of("/\\");
  const std::string_view name =
      name_start == std::string_view::npos ? path : path.substr(name_start + 1);
  const std::size_t dot = name.rfind('.');
  if (dot != std::string_view::npos && dot > 0) {
    const std::string_view extension = name.substr(dot + 1);
    for (const extension_type& entry : kExtensionTypes) {
      if (ascii::iequals(entry.extension, extension)) return entry.content_type;
    }
  }
  return "application/octet-stream";
}

}  // namespace corocrawl
