#pragma once
// RFC 3986's character classes and the pieces of normalisation that url.cpp (normalising) and
// link_resolver.cpp (resolving) share.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace corocrawl::url_syntax {

bool is_unreserved(char c);
bool is_sub_delim(char c);
// Whether s[i] starts a '%' followed by two hex digits.
bool is_valid_triplet(std::string_view s, std::size_t i);
// "%XX" of `byte`, upper-case hex.
void append_pct(std::string& out, unsigned char byte);
// RFC 3986 6.2.2.1-2, appended to `out`: upper-case hex digits, decode unreserved characters
// (only those). Optionally lower-cases the rest (hosts).
void append_normalized_percent(std::string& out, std::string_view s, bool lower_case);
// RFC 3986 5.2.4 for the absolute path that makes up the end of `s` from `start` (where its
// '/' is), in place: "." and ".." segments go, ".." never climbs above "/".
void remove_dot_segments(std::string& s, std::size_t start);
// The default port of a scheme browsers treat as "special" (http, https, ws, wss, ftp).
std::optional<std::uint16_t> special_default_port(std::string_view scheme);
bool is_special(std::string_view scheme);

}  // namespace corocrawl::url_syntax
