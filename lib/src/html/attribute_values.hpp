#pragma once
// The URLs in an attribute value, private to html/: a plain URL, a srcset's candidates, or
// the URL of a <meta http-equiv=refresh> content, each read as HTML reads it. The URLs are
// views into the value as gumbo decoded it (character references decoded), not resolved:
// reference_list resolves them.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace corocrawl {

// How a reference's value holds its URLs.
enum class value_form : std::uint8_t {
  url,      // the value is one URL (href, src, data, poster)
  srcset,   // image candidates (srcset of <img> and <source>): srcset_urls
  refresh,  // a delay, then a URL (content of <meta http-equiv=refresh>): refresh_url
};

// The URLs of a srcset attribute, as HTML's "parse a srcset attribute" reads them: candidates
// are separated by commas, each a URL (which may hold commas; trailing ones are stripped) and
// descriptors; a candidate whose descriptors are invalid is dropped.
std::vector<std::string_view> srcset_urls(std::string_view input);

// The URL of a <meta http-equiv=refresh> content, as HTML's "shared declarative refresh
// steps" read it; nullopt when it has none (a refresh of the page itself, or no refresh).
std::optional<std::string_view> refresh_url(std::string_view input);

}  // namespace corocrawl
