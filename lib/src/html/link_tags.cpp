#include "html/link_tags.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <iterator>
#include <optional>
#include <span>
#include <system_error>

#include "html/html_scan.hpp"
#include "html/text_positions.hpp"
#include "text/ascii.hpp"

namespace corocrawl {
namespace {

using namespace html;  // NOLINT: this file reads HTML

// gumbo parses each chunk on its own, so its tree stays small: about 300 bytes per tag.
constexpr std::size_t kTagsPerChunk = 1024;

// A byte of an attribute value that gumbo gives as written: not the start of a character
// reference, nothing it replaces (NUL, CR, invalid UTF-8: here anything but printable ASCII,
// tab and LF).
bool read_as_written(char c) {
  const auto u = static_cast<unsigned char>(c);
  return c != '&' && ((u >= 0x20 && u <= 0x7E) || c == '\t' || c == '\n');
}

// An attribute value that gumbo gives as written.
bool as_written(std::string_view value) {
  return std::all_of(value.begin(), value.end(), read_as_written);
}

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

// Appends `value` to `out` with its character references decoded, when each is a
// plain_reference() ended by ';' and all else reads as written; else false, `out` as it was.
bool decode_plainly(std::string_view value, std::string& out) {
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

// The attributes that hold an HTML element's references (those written for it to a chunk),
// or none.
std::span<const std::size_t> reference_attributes(std::string_view name) {
  static constexpr std::size_t href[] = {kHref};
  static constexpr std::size_t link[] = {kRel, kHref};
  static constexpr std::size_t image[] = {kSrc, kSrcset};
  static constexpr std::size_t src[] = {kSrc};
  static constexpr std::size_t data[] = {kData};
  static constexpr std::size_t video[] = {kSrc, kPoster};
  static constexpr std::size_t input[] = {kType, kSrc};
  static constexpr std::size_t meta[] = {kHttpEquiv, kContent};
  if (is_one_of(name, {"a", "area"})) return href;
  if (name == "link") return link;
  if (is_one_of(name, {"img", "source"})) return image;
  if (is_one_of(name, {"script", "embed", "audio", "track", "iframe"})) return src;
  if (name == "object") return data;
  if (name == "video") return video;
  if (name == "input") return input;
  if (name == "meta") return meta;
  return {};
}

constexpr std::size_t kSvgAnchorAttributes[] = {kHref, kXlinkHref};

class link_tag_reader {
 public:
  explicit link_tag_reader(std::string_view html) : html_(html), positions_(html) {}

  std::optional<link_tags> run() {
    if (mentions_frameset(html_)) return std::nullopt;
    const std::size_t n = html_.size();
    while (pos_ < n) {
      const std::size_t lt = html_.find('<', pos_);
      if (lt == std::string_view::npos) break;
      if (const auto bare = bare_tag_at(html_, lt); bare && changes_nothing_read(*bare)) {
        pos_ = bare->end;
        continue;
      }
      const token t = token_at(html_, lt);
      pos_ = t.end;
      bool sure = true;
      switch (t.what) {
        case token::text:
        case token::comment:
        case token::bogus_comment:
          break;
        case token::cdata:
          // A bogus comment in HTML; where it ends matters only if this were SVG after all.
          sure = foreign_.empty() && html_.find("]]>", lt) + 3 == pos_;
          break;
        case token::start_tag:
          sure = foreign_.empty() ? html_start_tag(lt, t.tag) : foreign_start_tag(lt, t.tag);
          break;
        case token::end_tag:
          sure = foreign_.empty() ? html_end_tag(t.tag) : foreign_end_tag(t.tag);
          break;
        case token::cut_off:  // the tokenizer drops a tag the input ends in
          pos_ = n;
          break;
      }
      if (!sure) return std::nullopt;
    }
    if (!chunk_.markup.empty()) tags_.chunks.push_back(std::move(chunk_));
    return std::move(tags_);
  }

 private:
  bool html_start_tag(std::size_t lt, const scanned_tag& tag) {
    // Most tags only have their attributes noted.
    if ((tag.traits & (reader_special_trait | raw_text_trait | table_part_trait)) == 0) {
      note(lt, tag, true);
      return true;
    }
    const std::string_view name = tag.lower_name;
    if (is_one_of(name, {"select", "frameset", "frame", "isindex"})) return false;
    const bool extras = !tag.kept[kId].empty() || !tag.kept[kStyle].empty();
    // These merge into an element there is, or nest in ways not followed here.
    if (extras && is_one_of(name, {"html", "head", "body", "noscript"})) return false;
    bool created = true;  // the tree builder makes an element of this tag
    if (name == "template") {
      template_seen_ = true;
    } else if (name == "table") {
      table_seen_ = true;
      if (templates_ == 0) {
        // In a table (not in a cell), <table> closes it: the count may then be too high.
        tables_exact_ = tables_exact_ && tables_ == 0;
        ++tables_;
      }
    } else if ((tag.traits & table_part_trait) != 0) {
      table_seen_ = true;
      // In a template that starts with <col>, other tags are ignored.
      if (templates_ > 0 && name == "col") return false;
      if (extras) {
        if (templates_ > 0 || (tables_ > 0 && !tables_exact_)) return false;
        created = tables_ > 0;
      }
    } else if (name == "form" && templates_ == 0) {
      created = !form_open_;  // the form element pointer is set: ignored
      form_open_ = true;
    }
    if (name == "base" && tags_.base.empty() && !tag.kept[kHref].empty()) {
      // A table could move a later base first; one in a template is not the document's.
      if (table_seen_ || template_seen_) return false;
      tags_.base = "<base " + std::string(tag.kept[kHref]) + ">";
    }
    if (created) note(lt, tag, true);
    if (name == "template") ++templates_;  // its content, not the template itself
    if (name == "plaintext") {
      pos_ = html_.size();  // the rest is text
    } else if ((tag.traits & raw_text_trait) != 0) {
      const std::size_t end = raw_text_end(html_, name, tag.end);
      // After "<!--", a "<script" inside a script hides the end tag found.
      if (name == "script" && html_.substr(tag.end, end - tag.end).find("<!--") != npos)
        return false;
      if (name == "style") {
        const text_position at = positions_.at(tag.end);
        tags_.styles.emplace_back(inline_css{std::string(html_.substr(tag.end, end - tag.end)),
                                             "style", false, at.line, at.column});
      }
      pos_ = end;
    } else if (name == "svg" || name == "math") {
      if (!tag.self_closing) {
        foreign_.emplace_back(name);
        svg_ = name == "svg";  // the namespace of everything in the island
      }
    }
    return true;
  }

  // Whether `tag` changes nothing this reader follows, outside SVG and MathML: an end tag but
  // template, table and form (see html_end_tag()), a start tag whose element is not special
  // to html_start_tag(), which would only note that it has no attributes.
  bool changes_nothing_read(const bare_tag& tag) const {
    if (!foreign_.empty()) return false;
    const std::string_view name = tag.name;
    if (tag.end_tag) {  // by name, not traits: most end tags come this way
      return !ascii::iequals(name, "template") && !ascii::iequals(name, "table") &&
             !ascii::iequals(name, "form");
    }
    std::array<char, 16> lower{};
    if (name.size() > lower.size()) return true;  // longer than any name with traits
    for (std::size_t k = 0; k < name.size(); ++k)
      lower[k] = ascii::to_lower(name[k]);
    const std::uint32_t traits = name_traits({lower.data(), name.size()});
    return (traits & (reader_special_trait | raw_text_trait | table_part_trait)) == 0;
  }

  bool html_end_tag(const scanned_tag& tag) {
    if ((tag.traits & reader_special_trait) == 0) return true;  // not template, table, form
    const std::string_view name = tag.lower_name;
    if (name == "template") {
      if (templates_ > 0) --templates_;
    } else if (name == "table" && templates_ == 0) {
      if (tables_ > 0) --tables_;
      if (tables_ == 0) tables_exact_ = true;
    } else if (name == "form" && templates_ == 0) {
      form_open_ = false;
    }
    return true;
  }

  // In an SVG or MathML island. False where the tree builder would leave it otherwise than
  // through its end tag.
  bool foreign_start_tag(std::size_t lt, const scanned_tag& tag) {
    const std::string_view name = tag.lower_name;
    if ((tag.traits & (breaks_out_trait | confuses_gumbo_trait)) != 0 ||
        (name == "font" && tag.has_font_attribute)) {
      return false;
    }
    note(lt, tag, false);
    // HTML inside an integration point, even a space, may reopen formatting elements there;
    // <svg> in any <annotation-xml> is SVG. So these must be empty: only <title></title>.
    if ((is_integration_point(tag, svg_) || name == "annotation-xml") && !tag.self_closing) {
      const std::size_t next = html_.find('<', tag.end);
      if (next != tag.end) return next == npos;
      const token end = token_at(html_, next);
      if (end.what != token::end_tag || end.tag.lower_name != name) return false;
      pos_ = end.end;
      return true;
    }
    if (!tag.self_closing) foreign_.emplace_back(name);
    return true;
  }

  bool foreign_end_tag(const scanned_tag& tag) {
    if (tag.lower_name != foreign_.back()) return false;
    foreign_.pop_back();
    return true;
  }

  // Takes the anchors and style of the element of start tag html_[lt, tag.end) (`html`: an
  // HTML element, else SVG or MathML), and writes it to the chunk where it has references or
  // values for gumbo to decode.
  void note(std::size_t lt, const scanned_tag& tag, bool html) {
    // Most tags have none of the attributes read here.
    constexpr std::size_t read[] = {kHref,   kXlinkHref, kSrc,   kSrcset, kData,
                                    kPoster, kContent,   kStyle, kId,     kName};
    if (std::all_of(std::begin(read), std::end(read),
                    [&tag](std::size_t k) { return tag.kept[k].empty(); })) {
      return;
    }
    const std::string_view name = tag.lower_name;
    const bool html_a = html && name == "a";
    const bool svg_a = !html && svg_ && name == "a";
    const bool image = html && name == "image";  // the tree builder makes it an <img>
    const std::string_view element = image ? std::string_view("img") : std::string_view(name);
    const std::span<const std::size_t> references =
        html ? reference_attributes(element)
             : (svg_a ? std::span<const std::size_t>(kSvgAnchorAttributes)
                      : std::span<const std::size_t>());
    bool has_references = false;
    for (const std::size_t k : references) {
      if (k != kRel && k != kType && k != kHttpEquiv && !tag.kept[k].empty()) has_references = true;
    }
    if (element == "meta" && tag.kept[kHttpEquiv].empty()) has_references = false;

    std::uint32_t id_slot = kNoSlot;
    std::uint32_t name_slot = kNoSlot;
    std::uint32_t style_slot = kNoSlot;
    if (templates_ == 0) {
      id_slot = anchor(tag.kept[kId]);
      if (html_a) name_slot = anchor(tag.kept[kName]);
    }
    text_position at;
    const bool styled = !attribute_value(tag.kept[kStyle]).empty();
    if (has_references || styled) at = positions_.at(lt);
    if (styled) {
      if (auto text = plain_value(attribute_value(tag.kept[kStyle]))) {
        tags_.styles.emplace_back(
            inline_css{std::move(*text), std::string(element), true, at.line, at.column});
      } else {
        style_slot = static_cast<std::uint32_t>(tags_.styles.size());
        tags_.styles.emplace_back();
      }
    }
    const bool decodes = id_slot != kNoSlot || name_slot != kNoSlot || style_slot != kNoSlot;
    if (!has_references && !decodes) return;

    if (tags_.count++ % kTagsPerChunk == 0) {
      if (!chunk_.markup.empty()) tags_.chunks.push_back(std::move(chunk_));
      // Room for a typical page's tags at once, rather than growing into it.
      chunk_ = link_chunk();
      chunk_.markup.reserve(4096);
      chunk_.places.reserve(64);
    }
    std::string& out = chunk_.markup;
    // The element written: the tag itself, or an element that nests nothing for the values
    // gumbo decodes (an <a> for an <a>, whose name is an anchor).
    std::string_view written = "wbr";
    if (has_references || html_a) written = svg_a ? "a" : element;
    if (svg_a && has_references) out += "<svg>";
    chunk_.places.push_back(
        {out.size(), at.line, at.column, std::string(element), id_slot, name_slot, style_slot});
    tag_place& place = chunk_.places.back();
    place.svg = svg_a;
    chunk_.plain = chunk_.plain && !decodes;
    out.append("<").append(written);
    if (has_references) {
      for (std::size_t i = 0; i < references.size(); ++i) {
        const std::string_view attribute = tag.kept[references[i]];
        if (attribute.empty()) continue;
        out += ' ';
        const std::size_t written_at = out.size();
        out.append(writable_attribute(attribute));  // the attribute, or its name alone
        const std::string_view value = attribute_value(attribute);
        place.present |= static_cast<std::uint8_t>(1U << i);
        if (!as_written(value)) {
          const std::size_t decoded_at = chunk_.decoded.size();
          if (chunk_.plain && decode_plainly(value, chunk_.decoded)) {
            place.decoded |= static_cast<std::uint8_t>(1U << i);
            place.value_begin[i] = static_cast<std::uint32_t>(decoded_at);
            place.value_size[i] = static_cast<std::uint32_t>(chunk_.decoded.size() - decoded_at);
            continue;
          }
          chunk_.plain = false;
        }
        // A value is where the attribute has it; an empty one (perhaps no view into it) is
        // empty anywhere.
        const std::size_t value_at =
            value.empty() ? written_at : written_at + (value.data() - attribute.data());
        place.value_begin[i] = static_cast<std::uint32_t>(value_at);
        place.value_size[i] = static_cast<std::uint32_t>(value.size());
      }
    }
    if (id_slot != kNoSlot) out.append(" ").append(writable_attribute(tag.kept[kId]));
    if (name_slot != kNoSlot) out.append(" ").append(writable_attribute(tag.kept[kName]));
    if (style_slot != kNoSlot) out.append(" ").append(writable_attribute(tag.kept[kStyle]));
    if (svg_a && has_references) {
      out += " /></svg>";
    } else {
      out += ">";
      if (written != "wbr" && !is_void(written) && written != "a")
        out.append("</").append(written).append(">");
    }
  }

  // An anchor's or a style's value as the tree holds it, when gumbo is not needed for that:
  // as written, or with only character references decode_plainly() decodes.
  static std::optional<std::string> plain_value(std::string_view value) {
    std::string text;
    if (!decode_plainly(value, text)) return std::nullopt;
    return text;
  }

  // Adds the anchor of an id or name attribute (when it has a value): its slot when gumbo
  // must decode it, else kNoSlot.
  std::uint32_t anchor(std::string_view attribute) {
    const std::string_view value = attribute_value(attribute);
    if (value.empty()) return kNoSlot;
    if (auto text = plain_value(value)) {
      tags_.anchors.emplace_back(std::move(*text));
      return kNoSlot;
    }
    tags_.anchors.emplace_back();
    return static_cast<std::uint32_t>(tags_.anchors.size() - 1);
  }

  static constexpr std::size_t npos = std::string_view::npos;

  std::string_view html_;
  position_counter positions_;
  std::size_t pos_ = 0;
  link_tags tags_;
  link_chunk chunk_;
  std::vector<std::string> foreign_;  // the open elements of an SVG or MathML island
  bool svg_ = false;                  // the island is SVG
  bool table_seen_ = false;
  bool template_seen_ = false;
  std::size_t templates_ = 0;  // open <template>s
  // Open tables outside templates: exact, or (once a <table> came in a table) at least as
  // many as there are.
  std::size_t tables_ = 0;
  bool tables_exact_ = true;
  bool form_open_ = false;  // the tree builder's form element pointer is set
};

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

std::optional<link_tags> read_link_tags(std::string_view html) {
  return link_tag_reader(html).run();
}

void plain_references(const link_chunk& chunk, const tag_place& place,
                      std::vector<found_reference>& references) {
  const GumboTag tag = place.svg ? GUMBO_TAG_A
                                 : gumbo_tagn_enum(place.element.data(),
                                                   static_cast<unsigned int>(place.element.size()));
  element_references(tag, !place.svg, place.svg, place_attributes(chunk, place), nullptr,
                     references);
}

}  // namespace corocrawl
