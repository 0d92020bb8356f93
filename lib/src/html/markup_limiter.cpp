#include "html/markup_limiter.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "html/html_scan.hpp"
#include "html/markup_text.hpp"
#include "text/ascii.hpp"

namespace corocrawl {
namespace {

using namespace html;  // NOLINT: this file reads HTML

constexpr std::size_t kMaxDepth = 512;
// Beyond kMaxDepth: gumbo is quadratic in nested <template>s in some places (50000
// <template><tr> take minutes), so only this many are kept open there.
constexpr std::size_t kMaxTemplatesBeyondDepth = 64;
constexpr std::size_t kMaxAttributes = 256;

// Follows the nesting of a document approximately (a stack of open element names, without
// the tree builder's many special cases) and drops what would nest deeper than kMaxDepth.
//
// With `compact`, it also shrinks the document to what decides which links it has, because
// gumbo's cost grows with every character it reads and every node it builds: text shrinks
// (see compacted_text), tags keep only kKeptAttributes, comments go. It never removes a '<'
// followed by a letter, '/', '!' or '?' (but the one opening a tag it rewrites), so the
// tokenizer meets the same tags in the same states even where this approximate tracking is
// wrong.
class markup_limiter {
 public:
  // A frameset document is read whole: there the tree builder ignores most tags, so it reads
  // raw text and SVG differently from what the limiter assumes.
  markup_limiter(std::string_view html, bool compact, std::string& out, offset_map* map)
      : html_(html), compact_(compact && !mentions_frameset(html)), out_(out), map_(map) {}

  // The document to parse: the input itself, or a limited copy owned by the limiter.
  std::string_view run() {
    const std::size_t n = html_.size();
    while (pos_ < n) {
      const std::size_t lt = html_.find('<', pos_);
      if (lt == std::string_view::npos) break;
      const token t = token_at(html_, lt);
      if (t.what == token::text) {
        pos_ = t.end;
        continue;
      }
      compact_text(text_begin_, lt);
      pos_ = t.end;
      switch (t.what) {
        case token::comment:
          if (compact_ && html_.find('<', lt + 1) >= pos_) replace(lt, pos_, "");
          break;
        case token::cdata:
          if (!open_.empty() && open_.back().foreign) {
            pos_ = end_of(html_, "]]>", lt + 9);
            replace(lt, pos_, compact_ ? "" : escaped_cdata(html_.substr(lt + 9, pos_ - lt - 9)));
          } else if (html_.find("]]>", lt) + 3 != pos_) {
            compact_ = false;  // read as a CDATA section (in SVG or MathML) it ends elsewhere
          }
          break;
        case token::end_tag:
          end_tag(lt, t.tag);
          break;
        case token::start_tag:
          start_tag(lt, t.tag);
          break;
        case token::cut_off:
          return finish();  // the tokenizer drops a tag the input ends in
        case token::bogus_comment:
          // "</>" is no token at all, but gumbo then reads the next end tag as a start tag.
          if (pos_ == lt + 3 && html_.substr(lt, 3) == "</>") replace(lt, pos_, "");
          break;
        case token::text:
          break;
      }
      text_begin_ = std::min(pos_, n);
    }
    compact_text(text_begin_, n);
    return finish();
  }

 private:
  struct open_element {
    std::string name;
    bool foreign;           // an SVG or MathML element
    bool svg;               // (if foreign) an SVG one
    bool children_foreign;  // its children are SVG or MathML too
  };

  bool in_foreign_content() const { return !open_.empty() && open_.back().children_foreign; }

  bool only_document_elements_open() const {
    return std::all_of(open_.begin(), open_.end(), [](const open_element& e) {
      return is_one_of(e.name, {"html", "head", "body"});
    });
  }

  bool inside_foreign_element() const {
    return std::any_of(open_.begin(), open_.end(), [](const open_element& e) { return e.foreign; });
  }

  // The nearest open element that is not an <option> or <optgroup>.
  const open_element* nearest_non_option() const {
    for (auto it = open_.rbegin(); it != open_.rend(); ++it) {
      if (it->name != "option" && it->name != "optgroup") return &*it;
    }
    return nullptr;
  }

  void pop_through(std::string_view name) {
    for (std::size_t i = open_.size(); i-- > 0;) {
      if (open_[i].name == name) {
        open_.resize(i);
        return;
      }
    }
  }

  // In a <select> the tree builder ignores most start tags, even those that would start
  // raw text or SVG elsewhere. False when `name` is one of those. When unsure, this says
  // true: tracking a tag the tree builder ignores costs nothing, but not tracking one it
  // takes could hide SVG content from the limiter.
  bool tree_builder_takes(std::string_view name) {
    const open_element* parent = nearest_non_option();
    if (parent == nullptr || parent->foreign || parent->name != "select") return true;
    if (name == "select") {
      pop_through("select");  // acts as </select>
      return false;
    }
    const bool closes_select =
        is_one_of(name, {"input", "keygen", "textarea"}) ||
        (is_one_of(name, {"caption", "table", "tbody", "tfoot", "thead", "tr", "td", "th"}) &&
         select_is_in_table());
    if (closes_select) {
      pop_through("select");
      return true;
    }
    return is_one_of(name, {"option", "optgroup", "script", "template"});
  }

  bool select_is_in_table() const {
    bool below_select = false;
    for (auto it = open_.rbegin(); it != open_.rend(); ++it) {
      if (below_select && it->name == "table") return true;
      below_select = below_select || it->name == "select";
    }
    return false;
  }

  void start_tag(std::size_t lt, const scanned_tag& tag) {
    const std::size_t raw_text_begin = tag.end;
    if (!track_start_tag(tag)) {
      if (!tag.kept[kId].empty() || !tag.kept[kStyle].empty()) {
        // Removed for its depth (or as SVG/MathML gumbo would assert on): its anchor and
        // style stay, on an element that nests nothing.
        std::string kept = "<wbr";
        for (const std::size_t k : {kId, kStyle}) {
          if (!tag.kept[k].empty()) kept.append(" ").append(writable_attribute(tag.kept[k]));
        }
        replace(lt, tag.end, kept + " />");
      } else {
        replace(lt, tag.end, "");
      }
    } else if (trims(lt, tag)) {
      std::string trimmed = "<" + std::string(tag.name);
      for (const std::string_view attribute : tag.kept) {
        if (attribute.empty()) continue;
        trimmed += ' ';
        trimmed += writable_attribute(attribute);
      }
      // Not "/>" right after an unquoted value, which would take the '/'.
      trimmed += tag.self_closing ? " />" : ">";
      replace(lt, tag.end, trimmed);
    }
    // Raw text without a '<' is text however the tokenizer reads it (but <style> text is
    // inline CSS, kept as it is).
    if (compact_ && pos_ > raw_text_begin && tag.lower_name != "style") {
      if (html_.find('<', raw_text_begin) >= pos_) {
        compact_text(raw_text_begin, pos_);
        text_begin_ = pos_;
      } else {
        compact_ = ends_as_data(html_, raw_text_begin, pos_);
      }
    }
  }

  // Whether to write `tag` (html_[lt, tag.end)) with only its kept attributes: always when
  // compacting (unless an attribute value holds a '<'), else when it has too many.
  bool trims(std::size_t lt, const scanned_tag& tag) const {
    if (tag.attribute_count > kMaxAttributes) return true;
    return compact_ && tag.attribute_count > tag.kept_count() && html_.find('<', lt + 1) >= tag.end;
  }

  // Updates the open elements for a start tag (and skips raw text after it). False when the
  // tag is to be removed.
  bool track_start_tag(const scanned_tag& tag) {
    const std::string_view name = tag.lower_name;
    if (in_foreign_content() &&
        (breaks_out_of_foreign_content(name) || (name == "font" && tag.has_font_attribute))) {
      while (in_foreign_content())
        open_.pop_back();
    }
    const bool foreign = in_foreign_content();
    if (foreign) {
      if (confuses_gumbo_in_foreign_content(name)) return false;
    } else if ((name == "frameset" || name == "frame") && inside_foreign_element()) {
      // In HTML inside SVG/MathML, the tree builder mostly ignores these, and tracking them
      // would hide that a CDATA section there is read as one (which makes gumbo assert).
      return false;
    } else if (!tree_builder_takes(name)) {
      return true;
    } else if (name == "plaintext") {
      pos_ = html_.size();
      return true;
    } else if (is_raw_text(name)) {
      pos_ = raw_text_end(html_, name, tag.end);
      return true;
    } else if (is_void(name)) {
      return true;
    } else if (closes_same(name) && !open_.empty() && open_.back().name == name) {
      return true;
    } else if (is_one_of(name, {"html", "head", "body"}) && !only_document_elements_open()) {
      return true;  // after the document's start, the tree builder only merges attributes
    }
    // A self-closing SVG or MathML element (<svg/> too) is no open element.
    if ((foreign || name == "svg" || name == "math") && tag.self_closing) return true;

    if (open_.size() >= kMaxDepth) {
      // Kept but not tracked, so the stack stays bounded; <template>s are counted.
      if (name != "template") return is_essential(name);
      if (templates_beyond_depth_ == kMaxTemplatesBeyondDepth) return false;
      ++templates_beyond_depth_;
      return true;
    }
    const bool element_foreign = foreign || name == "svg" || name == "math";
    // In SVG/MathML, a new element takes its parent's namespace; but <svg> in <annotation-xml>.
    const bool element_svg =
        foreign ? open_.back().svg || (name == "svg" && open_.back().name == "annotation-xml")
                : name == "svg";
    open_.push_back({std::string(name), element_foreign, element_svg,
                     element_foreign && !is_integration_point(tag, element_svg)});
    return true;
  }

  // Pops what the tree builder pops for the end tag `name`, approximately: in SVG/MathML the
  // nearest foreign element of that name (down to the first HTML element), else the nearest
  // HTML element of that name in scope. Popping too much could make the limiter believe it
  // has left SVG/MathML while gumbo has not.
  void close(std::string_view name) {
    if (name == "body" || name == "html") return;  // these change only the insertion mode
    if (name == "head") {
      if (!open_.empty() && open_.back().name == "head") open_.pop_back();
      return;
    }
    if (!open_.empty() && open_.back().foreign) {
      for (std::size_t i = open_.size(); i-- > 0 && open_[i].foreign;) {
        if (open_[i].name == name) {
          open_.resize(i);
          return;
        }
      }
    }
    for (std::size_t i = open_.size(); i-- > 0;) {
      const open_element& element = open_[i];
      if (!element.foreign && element.name == name) {
        open_.resize(i);
        return;
      }
      const bool scope_boundary =
          element.foreign ? !element.children_foreign
                          : is_one_of(element.name, {"table", "td", "th", "caption", "template",
                                                     "applet", "marquee", "object"});
      if (scope_boundary) return;
    }
  }

  // An end tag is written bare ("</name>") where no '<' in it could open something: in SVG
  // and MathML gumbo matches an end tag by its text, so "</math >" would close nothing.
  void end_tag(std::size_t lt, const scanned_tag& tag) {
    if (tag.lower_name == "template" && templates_beyond_depth_ > 0) {
      --templates_beyond_depth_;  // the innermost open <template> is one of those
    } else {
      close(tag.lower_name);
    }
    const bool bare = tag.end == lt + 3 + tag.name.size();
    if (!bare && (tag.attribute_count > kMaxAttributes || !opens_something_in(lt + 1, tag.end))) {
      replace(lt, tag.end, "</" + std::string(tag.name) + ">");
    }
  }

  // True when a '<' in html_[begin, end) is followed by a letter, '/', '!' or '?'.
  bool opens_something_in(std::size_t begin, std::size_t end) const {
    for (std::size_t lt = html_.find('<', begin); lt < end && lt + 1 < html_.size();
         lt = html_.find('<', lt + 1)) {
      const char next = html_[lt + 1];
      if (ascii::is_alpha(next) || next == '/' || next == '!' || next == '?') return true;
    }
    return false;
  }

  // Replaces the text html_[begin, end) by its compacted form.
  void compact_text(std::size_t begin, std::size_t end) {
    if (!compact_ || begin >= end) return;
    const std::string_view text = html_.substr(begin, end - begin);
    const std::string_view compacted = compacted_text(text);
    if (compacted.size() != text.size()) replace(begin, end, compacted);
  }

  // The document with every replacement made.
  std::string_view finish() {
    if (!changed_) return html_;
    out_.append(html_.substr(copied_));
    return out_;
  }

  // Puts `with` in place of html_[begin, end). A '<' that was text before the range stays
  // text: an empty comment keeps it from opening a tag with what follows.
  void replace(std::size_t begin, std::size_t end, std::string_view with) {
    if (!changed_) {
      out_.reserve(html_.size());
      changed_ = true;
    }
    out_.append(html_.substr(copied_, begin - copied_));
    if (!out_.empty() && out_.back() == '<') out_.append("<!---->");
    if (map_ != nullptr) map_->emplace_back(out_.size(), begin);
    out_.append(with);
    if (map_ != nullptr) map_->emplace_back(out_.size(), end);
    copied_ = end;
  }

  std::string_view html_;
  bool compact_;  // turned off where the limiter loses certainty about the tokenizer's state
  std::size_t pos_ = 0;
  std::size_t text_begin_ = 0;  // where the text before the next token begins
  std::vector<open_element> open_;
  std::size_t templates_beyond_depth_ = 0;  // open above kMaxDepth, so not in open_
  bool changed_ = false;
  std::string& out_;
  std::size_t copied_ = 0;  // html_ before this offset is in out_ (when changed_)
  offset_map* map_;
};

}  // namespace

std::string_view limit_markup(std::string_view html, bool shrink, std::string& storage,
                              offset_map* map) {
  return markup_limiter(html, shrink, storage, map).run();
}

std::size_t page_offset(const offset_map& map, std::size_t at) {
  // The last mark at or before `at`: copied text goes on from there byte for byte; a
  // replacement's text maps to its start (where its '<' is), clamped to the replaced range.
  const auto after = std::upper_bound(
      map.begin(), map.end(), at, [](std::size_t a, const auto& mark) { return a < mark.first; });
  if (after == map.begin()) return at;
  const auto& mark = *(after - 1);
  const std::size_t mapped = mark.second + (at - mark.first);
  // Inside a replacement (an odd mark starts one): never past the replaced range's end.
  const auto index = static_cast<std::size_t>(after - 1 - map.begin());
  if (index % 2 == 0 && after != map.end()) return std::min(mapped, after->second);
  return mapped;
}

}  // namespace corocrawl
