#pragma once
// Internationalised host names: the Unicode host of a link ("bücher.test") as DNS and HTTP
// carry it ("xn--bcher-kva.test"), converted as browsers convert it: UTS #46 mapping and
// non-transitional processing (IDNA2008 with the Unicode compatibility mapping), by libidn2.

#include <optional>
#include <string>
#include <string_view>

namespace corocrawl {

/// Whether `host` needs host_to_ascii: it holds a byte outside ASCII or a percent escape.
bool needs_idna(std::string_view host);

/// `host` (UTF-8, possibly percent-encoded, as written in a URL) as an ASCII host name:
/// percent escapes decoded, then each label mapped and, if not ASCII, written as an A-label;
/// lower-case. nullopt when the host is not a valid internationalised name (invalid UTF-8, a
/// disallowed code point, a label too long ...) or holds what an RFC 3986 host name cannot
/// (anything but letters, digits, "-._~" and "!$&'()*+,;="; the URL standard forbids controls,
/// space and "#%/:<>?@[\]^|" in a domain too).
std::optional<std::string> host_to_ascii(std::string_view host);

/// Whether the host of the authority of `url` (absolute or scheme-relative, as written) needs
/// host_to_ascii; no copy is made.
bool host_needs_idna(std::string_view url);

/// Converts the host of the authority of `url` (absolute or scheme-relative, as written) in
/// place by host_to_ascii when needs_idna says so (most URLs need nothing: they are not
/// copied); false when the host cannot be converted.
bool make_host_ascii(std::string& url);

/// make_host_ascii on a copy of `url`: nullopt when the host cannot be converted.
std::optional<std::string> with_ascii_host(std::string_view url);

}  // namespace corocrawl
