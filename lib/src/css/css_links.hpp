#pragma once
// The references CSS makes, as references of the page or stylesheet it is in: @import targets
// are documents (stylesheets, read in turn), url() and image-set() strings resources.

#include <string_view>

#include "html/links.hpp"

namespace corocrawl {

/// Adds to `page` the references of its inline CSS (page.styles), resolved against `base`
/// (the page's base URL): in a <style> element each at its own place, with the attribute
/// "import" or "url"; in a style attribute at its tag's place, with the attribute "style".
void add_inline_css_references(page_links& page, std::string_view base);

/// The references of the stylesheet `css` at `css_url` (UTF-8, or decoded as its BOM,
/// `http_charset` or @charset say), each with the element "css" and the attribute "import"
/// or "url", at its place in the stylesheet.
page_links extract_css_links(std::string_view css, std::string_view css_url,
                             std::string_view http_charset = {});

}  // namespace corocrawl
