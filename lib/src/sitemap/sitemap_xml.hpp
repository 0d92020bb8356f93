#pragma once
// Sitemaps (the sitemaps.org protocol): the XML <urlset> and <sitemapindex>, gzipped or not,
// and the plain-text form, read into the list of locations they give.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace corocrawl {

/// The most locations one sitemap may give. The protocol allows 50,000 per file, but larger
/// files exist and none is dropped silently: past this, reading fails with an error naming it.
inline constexpr std::size_t max_sitemap_locations = 1'000'000;

/// The protocol's limit on a sitemap's size, uncompressed.
inline constexpr std::uint64_t max_sitemap_bytes = 50 * 1024 * 1024;

enum class sitemap_kind {
  urlset,  ///< <urlset>, or a text sitemap: the locations are pages
  index,   ///< <sitemapindex>: the locations are more sitemaps
};

struct sitemap {
  sitemap_kind kind = sitemap_kind::urlset;
  /// The <loc> of each <url> (urlset) or <sitemap> (index), or each line of a text sitemap:
  /// trimmed, never empty, valid UTF-8, in document order. Not resolved or normalised.
  std::vector<std::string> locations;
};

/// A sitemap, or why the body is not one.
struct sitemap_result {
  std::optional<sitemap> value;  ///< the sitemap, when the body could be read as one
  std::string error;             ///< for humans when there is no value, e.g. "XML error at
                                 ///< line 3: mismatched tag"; empty otherwise
};

/// Reads a sitemap from a response body, whatever its Content-Type:
/// - gzipped (recognised by its magic bytes), then read as below; decompressing stops with an
///   error ("larger than 52428800 bytes when decompressed") once past `max_bytes` (a body
///   not gzipped was bounded when received, and is taken whatever its size);
/// - XML when, after an optional byte order mark and whitespace, it starts with '<': the root
///   element must be <urlset> or <sitemapindex>, in any namespace or none (local names are
///   matched, here and below). Only a <loc> directly inside a <url> (urlset) or <sitemap>
///   (index) directly inside the root counts, with its character data (CDATA and entities
///   decoded, child elements' text left out); a <url> or <sitemap> with several gives each.
///   External entities are never loaded, and expat's amplification limit makes entity bombs
///   an error;
/// - otherwise plain text: UTF-8, one URL per line (LF or CRLF), blank lines skipped.
/// Blank locations are skipped. Fails for an empty or blank body, anything else that is not a
/// sitemap ("not a sitemap: the root element is <html>"), malformed XML or gzip data, text
/// that is not UTF-8 or holds control characters, and more than max_sitemap_locations
/// locations. Never throws for any input (only std::bad_alloc when memory runs out).
sitemap_result parse_sitemap(std::string_view body, std::uint64_t max_bytes = max_sitemap_bytes);

}  // namespace corocrawl
