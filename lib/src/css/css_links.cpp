#include "css/css_links.hpp"

#include <string>

#include "css/css_references.hpp"
#include "text/charset.hpp"
#include "url/url.hpp"

namespace corocrawl {

namespace {

// Appends references to a page's, each distinct URL listed once.
class reference_appender {
 public:
  reference_appender(page_links& page, std::string_view base)
      : page_(page), resolver_(std::string(base)), links_(page) {}

  void add(const css::css_reference& found, std::string_view element, bool attribute,
           std::uint32_t line, std::uint32_t column) {
    const auto url = resolver_.resolve_in_place(found.url);
    if (!url) return;
    const auto kind = found.import ? reference_kind::document : reference_kind::resource;
    page_reference reference{.link = links_.link(*url, kind),
                             .tag = links_.tag(element, attribute      ? "style"
                                                        : found.import ? "import"
                                                                       : "url"),
                             .line = line,
                             .column = column};
    if (const auto hash = found.url.find('#'); hash != std::string::npos)
      reference.fragment =
          reference_fragment(links_.keep(std::string_view(found.url).substr(hash + 1)));
    page_.references.push_back(reference);
  }

 private:
  page_links& page_;
  link_resolver resolver_;
  link_index links_;
};

}  // namespace

void add_inline_css_references(page_links& page, std::string_view base) {
  if (page.styles.empty()) return;
  reference_appender append(page, base);
  for (const inline_css& style : page.styles) {
    // A style attribute's references are placed at its tag, as the page's other references.
    const auto first_line = style.attribute ? 1 : style.line;
    const auto first_column = style.attribute ? 1 : style.column;
    for (const auto& found : css::css_references(style.text, first_line, first_column)) {
      if (style.attribute) {
        append.add(found, style.element, true, style.line, style.column);
      } else {
        append.add(found, style.element, false, found.line, found.column);
      }
    }
  }
}

page_links extract_css_links(std::string_view css, std::string_view css_url,
                             std::string_view http_charset) {
  page_links sheet;
  const auto sniffed = charset::sniff_css(css, http_charset);
  css.remove_prefix(sniffed.bom_length);
  std::optional<std::string> decoded;
  if (!charset::is_utf8(sniffed.encoding)) decoded = charset::decode(css, sniffed.encoding);
  if (decoded) css = *decoded;
  sheet.encoding = std::string(sniffed.encoding);
  reference_appender append(sheet, css_url);
  for (const auto& found : css::css_references(css))
    append.add(found, "css", false, found.line, found.column);
  return sheet;
}

}  // namespace corocrawl
