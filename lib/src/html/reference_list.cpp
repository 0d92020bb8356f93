#include "html/reference_list.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "html/attribute_values.hpp"
#include "text/ascii.hpp"
#include "text/charset.hpp"
#include "url/url.hpp"

namespace corocrawl {

std::string base_url(std::string_view page_url, std::optional<std::string_view> base_href) {
  if (base_href) {
    auto base = resolve_link(page_url, *base_href);
    // Browsers ignore a base that would make every link a data: or javascript: URL.
    if (base && !base->starts_with("data:") && !base->starts_with("javascript:")) {
      return std::move(*base);
    }
  }
  return std::string(page_url);
}

reference_list::reference_list(std::string base, std::string_view encoding)
    : resolver_(std::move(base)),
      legacy_encoding_(!charset::is_utf8(encoding)),
      encoding_(encoding) {}

void reference_list::add(const found_reference& found, const place& at) {
  switch (found.form) {
    case value_form::url:
      add(found.value, found, at);
      break;
    case value_form::srcset:
      for (const std::string_view url : srcset_urls(found.value))
        add(url, found, at);
      break;
    case value_form::refresh:
      if (const auto url = refresh_url(found.value)) add(*url, found, at);
      break;
  }
}

void reference_list::take_into(page_links& page) && {
  page.links = std::move(found_.links);
  page.link_text = std::move(found_.link_text);
  page.references = std::move(found_.references);
  page.tags = std::move(found_.tags);
  page.base = resolver_.base();
}

void reference_list::add(std::string_view written, const found_reference& found, const place& at) {
  const std::size_t hash = written.find('#');
  const std::uint32_t link = link_of(written.substr(0, hash));
  if (link == kUnresolved) return;
  if (found.kind == reference_kind::document) found_.links[link].kind = reference_kind::document;
  reference_fragment fragment;
  if (hash != std::string_view::npos)
    fragment = reference_fragment(links_.keep(ascii::trim(written.substr(hash + 1))));
  found_.references.push_back(
      {link, links_.tag(at.element, found.attribute), at.line, at.column, fragment});
}

std::uint32_t reference_list::link_of(std::string_view written) {
  return resolved_
      .find_or_add(
          written,
          [&] {
            std::uint32_t link = kUnresolved;
            const auto url =
                resolver_.resolve_in_place(legacy_encoding_ ? query_in_encoding(written) : written);
            // A resource until a reference makes it a document.
            if (url) link = links_.link(*url, reference_kind::resource);
            auto* kept =
                static_cast<char*>(memory_.allocate(std::max<std::size_t>(written.size(), 1), 1));
            std::copy(written.begin(), written.end(), kept);
            return std::pair{std::string_view(kept, written.size()), link};
          })
      .first;
}

std::string reference_list::query_in_encoding(std::string_view written) const {
  const std::size_t query = written.find('?');
  const std::size_t end = std::min(written.find('#'), written.size());
  if (query == std::string_view::npos || query > end) return std::string(written);
  const std::string_view text = written.substr(query + 1, end - query - 1);
  if (std::ranges::all_of(text, [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return std::string(written);
  return std::string(written.substr(0, query + 1)) + charset::encode_for_query(text, encoding_) +
         std::string(written.substr(end));
}

}  // namespace corocrawl
