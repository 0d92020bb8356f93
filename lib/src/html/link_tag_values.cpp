#include "html/link_tag_values.hpp"

#include <gumbo.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <system_error>
#include <vector>

#include "html/link_tags.hpp"
#include "html/tree_references.hpp"

namespace corocrawl {

using namespace html;  // NOLINT: this file reads HTML

namespace {

// The printable ASCII character `reference` (what is between '&' and ';') stands for, if it
// is one that reads the same in any attribute and needs no table: amp, lt, gt, quot, apos,
// or a decimal or hexadecimal number; else nothing (gumbo reads it).
std::optional<char> plain_reference(std::string_view reference) {
  if (reference == "amp") return '&';
  if (reference == "lt") return '<';
  if (reference == "gt") return '>';
  if (reference == "quot") return '"';
  if (reference == "apos") return '\'';
  if (reference.size() < 2 || reference[0] != '#') return std::nullopt;
  const bool hex = reference[1] == 'x' || reference[1] == 'X';
  const std::string_view digits = reference.substr(hex ? 2 : 1);
  if (digits.empty() || digits.size() > 6) return std::nullopt;
  std::uint32_t code = 0;
  const char* const end = digits.data() + digits.size();
  if (const auto read = std::from_chars(digits.data(), end, code, hex ? 16 : 10);
      read.ec != std::errc{} || read.ptr != end) {
    return std::nullopt;
  }
  if (code < 0x20 || code > 0x7E) return std::nullopt;  // gumbo's rules for the rest
  return static_cast<char>(code);
}

// The attributes of a place in a plain chunk.
class place_attributes final : public element_attributes {
 public:
  place_attributes(const link_chunk& chunk, const tag_place& place)
      : chunk_(chunk),
        place_(place),
        names_(place.svg ? std::span<const std::size_t>(kSvgAnchorAttributes)
                         : reference_attributes(place.element)) {}

  std::optional<std::string_view> value(std::string_view name, bool xlink) const override {
    for (std::size_t i = 0; i < names_.size(); ++i) {
      const std::size_t k = names_[i];
      const bool match = place_.svg ? (name == "href" && (k == kXlinkHref) == xlink)
                                    : (!xlink && kKeptAttributes[k] == name);
      if (!match) continue;
      if ((place_.present & (1U << i)) == 0) return std::nullopt;
      const std::string_view text =
          (place_.decoded & (1U << i)) != 0 ? chunk_.decoded : chunk_.markup;
      return text.substr(place_.value_begin[i], place_.value_size[i]);
    }
    return std::nullopt;
  }

 private:
  const link_chunk& chunk_;
  const tag_place& place_;
  std::span<const std::size_t> names_;
};

}  // namespace

bool decode_plainly(std::string_view value, std::string& out) {
  if (as_written(value)) {  // most values: no reference, nothing to check byte by byte
    out.append(value);
    return true;
  }
  const std::size_t start = out.size();
  std::size_t i = 0;
  while (i < value.size()) {
    if (value[i] != '&') {
      if (!read_as_written(value[i])) break;
      out += value[i++];
      continue;
    }
    const std::size_t semicolon = value.find(';', i);
    if (semicolon == std::string_view::npos) break;
    const auto decoded = plain_reference(value.substr(i + 1, semicolon - i - 1));
    if (!decoded) break;
    out += *decoded;
    i = semicolon + 1;
  }
  if (i == value.size()) return true;
  out.resize(start);
  return false;
}

void plain_references(const link_chunk& chunk, const tag_place& place,
                      std::vector<found_reference>& references) {
  // An HTML <a>, most places by far: its href, a document (element_references()), read
  // without looking its element and attributes up by name.
  if (!place.svg && place.element == "a") {
    if ((place.present & 1U) != 0) {  // reference_attributes("a") is {kHref}
      const std::string_view text = (place.decoded & 1U) != 0 ? chunk.decoded : chunk.markup;
      references.push_back({nullptr, kKeptAttributes[kHref],
                            text.substr(place.value_begin[0], place.value_size[0]),
                            reference_kind::document, value_form::url});
    }
    return;
  }
  const GumboTag tag = place.svg ? GUMBO_TAG_A
                                 : gumbo_tagn_enum(place.element.data(),
                                                   static_cast<unsigned int>(place.element.size()));
  element_references(tag, !place.svg, place.svg, place_attributes(chunk, place), nullptr,
                     references);
}

}  // namespace corocrawl
