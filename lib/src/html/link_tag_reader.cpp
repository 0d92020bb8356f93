#include "html/link_tag_reader.hpp"

#include <algorithm>
#include <span>

#include "html/byte_search.hpp"
#include "html/link_tag_values.hpp"
#include "text/ascii.hpp"

namespace corocrawl {

using namespace html;  // NOLINT: this file reads HTML

namespace {

// gumbo parses each chunk on its own, so its tree stays small: about 300 bytes per tag.
constexpr std::size_t kTagsPerChunk = 1024;

}  // namespace

bool link_tag_reader::read(bool last) {
  const std::size_t n = html_.size();
  while (pos_ < n) {
    if (plaintext_) {  // the rest is text
      pos_ = n;
      break;
    }
    const std::size_t lt = find_byte(html_, '<', pos_);
    if (lt == std::string_view::npos) {
      pos_ = n;
      break;
    }
    const auto start = tag_start_at(html_, lt);
    if (start && start->bare(html_) && read_bare(*start)) {
      pos_ = start->name_end + 1;
      continue;
    }
    if (start && !start->end_tag && foreign_.empty()) {
      // A start tag read before that changed nothing: ended here if it ends before html_.
      const std::size_t end = repeated_.find(html_, lt);
      if (end != npos && (last || end < n)) {
        pos_ = end;
        continue;
      }
    }
    if (start) {
      tag_token(html_, *start, token_);
    } else {
      token_at(html_, lt, token_);
    }
    const token& t = token_;
    if (!last && !ends_here(t)) {
      pos_ = lt;
      return true;
    }
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
        if (!foreign_.empty()) {
          sure = foreign_start_tag(lt, t.tag);
          break;
        }
        sure = html_start_tag(lt, t.tag);
        if (sure && changes_nothing(t.tag)) repeated_.remember(html_.substr(lt, t.end - lt));
        break;
      case token::end_tag:
        sure = foreign_.empty() ? html_end_tag(t.tag) : foreign_end_tag(t.tag);
        break;
      case token::cut_off:  // the tokenizer drops a tag the input ends in
        pos_ = n;
        break;
    }
    if (!sure) return false;
  }
  return true;
}

bool link_tag_reader::ends_here(const token& t) const {
  const std::size_t n = html_.size();
  if (t.what == token::cut_off || t.end >= n) return false;
  if (t.what != token::start_tag) return true;
  const scanned_tag& tag = t.tag;
  const std::string_view name = tag.lower_name;
  if (foreign_.empty()) {
    // A raw-text element is read to its end tag, whose name must be followed by a byte that
    // ends it.
    if ((tag.traits & raw_text_trait) == 0 || name == "plaintext") return true;
    const std::size_t end = raw_text_end(html_, name, tag.end);
    return end + 2 + name.size() < n;
  }
  if ((is_integration_point(tag, svg_) || name == "annotation-xml") && !tag.self_closing) {
    const std::size_t next = html_.find('<', tag.end);  // the token after it is read too
    if (next == std::string_view::npos) return false;
    const token after = token_at(html_, next);
    return after.what != token::cut_off && after.end < n;
  }
  return true;
}

bool link_tag_reader::html_start_tag(std::size_t lt, const scanned_tag& tag) {
  // Most tags only have their attributes noted.
  if ((tag.traits & (reader_special_trait | raw_text_trait | table_part_trait)) == 0) {
    note(lt, tag, true);
    return true;
  }
  const std::string_view name = tag.lower_name;
  if ((tag.traits & reader_special_trait) != 0 &&
      is_one_of(name, {"select", "frameset", "frame", "isindex"})) {
    return false;
  }
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
  } else if (name == "form") {
    // In a template the tree builder ignores a <form> in a table's context and keeps one
    // elsewhere, which is not followed here: one whose element matters gives up.
    if (templates_ > 0 && extras) return false;
    if (templates_ == 0) {
      created = !form_open_;  // the form element pointer is set: ignored
      form_open_ = true;
    }
  }
  if (name == "base" && tags_.base.empty() && !tag.kept[kHref].empty()) {
    // A table could move a later base first; one in a template is not the document's; and
    // chunks read already were read against the page's URL.
    if (table_seen_ || template_seen_ || base_fixed_) return false;
    tags_.base = "<base " + std::string(tag.kept[kHref]) + ">";
  }
  if (created) note(lt, tag, true);
  if (name == "template") ++templates_;  // its content, not the template itself
  if (name == "plaintext") {
    plaintext_ = true;  // the rest is text
    pos_ = html_.size();
  } else if ((tag.traits & raw_text_trait) != 0) {
    const std::size_t end = raw_text_end(html_, name, tag.end);
    // After "<!--", a "<script" inside a script hides the end tag found.
    if (name == "script" && html_.substr(tag.end, end - tag.end).find("<!--") != npos) return false;
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

bool link_tag_reader::html_end_tag(const scanned_tag& tag) {
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

bool link_tag_reader::foreign_start_tag(std::size_t lt, const scanned_tag& tag) {
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

bool link_tag_reader::foreign_end_tag(const scanned_tag& tag) {
  if (tag.lower_name != foreign_.back()) return false;
  foreign_.pop_back();
  return true;
}

void link_tag_reader::note(std::size_t lt, const scanned_tag& tag, bool html) {
  // Most tags have none of the attributes read here.
  if ((tag.kept_mask & kNotedAttributes) == 0) return;
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
  if (templates_ == 0) {  // (most tags have neither)
    if (!tag.kept[kId].empty()) id_slot = anchor(tag.kept[kId]);
    if (html_a && !tag.kept[kName].empty()) name_slot = anchor(tag.kept[kName]);
  }
  text_position at;
  const std::string_view style =
      tag.kept[kStyle].empty() ? std::string_view() : attribute_value(tag.kept[kStyle]);
  const bool styled = !style.empty();
  if (has_references || styled) at = positions_.at(lt);
  if (styled) {
    if (auto text = plain_value(style)) {
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
    // Room for the tags of the markup at hand at once, rather than growing into them: each
    // growth moves every place, some 90 bytes with a string (1% of the instructions reading
    // the Python docs, whose pages note a tag in every 190 to 300 bytes).
    chunk_ = link_chunk();
    chunk_.markup.reserve(4096);
    chunk_.places.reserve(std::clamp<std::size_t>(html_.size() / 160, 64, kTagsPerChunk));
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
    if (written != "wbr" && written != "a" && !is_void(written))
      out.append("</").append(written).append(">");
  }
}

std::optional<std::string> link_tag_reader::plain_value(std::string_view value) {
  std::string text;
  if (!decode_plainly(value, text)) return std::nullopt;
  return text;
}

std::uint32_t link_tag_reader::anchor(std::string_view attribute) {
  const std::string_view value = attribute_value(attribute);
  if (value.empty()) return kNoSlot;
  if (auto text = plain_value(value)) {
    tags_.anchors.emplace_back(std::move(*text));
    return kNoSlot;
  }
  tags_.anchors.emplace_back();
  return static_cast<std::uint32_t>(tags_.anchors.size() - 1);
}

}  // namespace corocrawl
