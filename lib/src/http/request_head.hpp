#pragma once
// The head of a request as it goes on the wire, written here rather than by Beast's
// serializer: a GET's head is a request line and a few fields, and the serializer's general
// buffer sequences cost some 16,000 instructions a request, a tenth of the event loop's
// work on a site of small pages.

#include <span>
#include <string>
#include <string_view>

namespace corocrawl {

struct header_field {
  std::string_view name;
  std::string_view value;
};

/// "METHOD TARGET HTTP/1.1", then each of `fields` as "Name: value" (the value without the
/// spaces and tabs around it), then the empty line; every line ends in CRLF. A field named
/// again (ASCII case-insensitive) replaces the one before and goes last, as
/// boost::beast::http::fields::set() has it. The caller checked the texts (no CR or LF).
std::string request_head(std::string_view method, std::string_view target,
                         std::span<const header_field> fields);

}  // namespace corocrawl
