#include "html/link_tags.hpp"

#include <initializer_list>

#include "html/html_scan.hpp"

namespace corocrawl {
namespace {

using namespace html;  // NOLINT: this file reads HTML

// gumbo parses each chunk on its own, so its tree stays small: about 300 bytes per tag.
constexpr std::size_t kTagsPerChunk = 1024;

class link_tag_reader {
 public:
  explicit link_tag_reader(std::string_view html) : html_(html) {}

  std::optional<link_tags> run() {
    if (mentions_frameset(html_)) return std::nullopt;
    const std::size_t n = html_.size();
    while (pos_ < n) {
      const std::size_t lt = html_.find('<', pos_);
      if (lt == std::string_view::npos) break;
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
          sure = foreign_.empty() ? html_start_tag(t.tag) : foreign_start_tag(t.tag);
          break;
        case token::end_tag:
          sure = foreign_.empty() || foreign_end_tag(t.tag);
          break;
        case token::cut_off:  // the tokenizer drops a tag the input ends in
          pos_ = n;
          break;
      }
      if (!sure) return std::nullopt;
    }
    if (!chunk_.empty()) tags_.chunks.push_back(std::move(chunk_));
    return std::move(tags_);
  }

 private:
  bool html_start_tag(const scanned_tag& tag) {
    const std::string& name = tag.lower_name;
    if (is_one_of(name, {"select", "template", "noscript", "frameset", "frame"})) return false;
    if (name == "plaintext") {
      pos_ = html_.size();  // the rest is text
    } else if (is_raw_text(name)) {
      const std::size_t end = raw_text_end(html_, name, tag.end);
      // After "<!--", a "<script" inside a script hides the end tag found.
      if (name == "script" && html_.substr(tag.end, end - tag.end).find("<!--") != npos)
        return false;
      pos_ = end;
    } else if (name == "svg" || name == "math") {
      if (!tag.self_closing) {
        foreign_.push_back(name);
        svg_ = name == "svg";  // the namespace of everything in the island
      }
    } else if (is_one_of(name, {"table", "caption", "colgroup", "col", "tbody", "thead", "tfoot",
                                "tr", "td", "th"})) {
      table_seen_ = true;
    } else if (name == "base") {
      if (tags_.base.empty() && !tag.kept[kHref].empty()) {
        if (table_seen_) return false;
        tags_.base = "<base " + std::string(tag.kept[kHref]) + ">";
      }
    } else if (is_one_of(name, {"a", "area", "link"}) && !tag.kept[kHref].empty()) {
      add({"<", name, " ", tag.kept[kHref], ">"});
    }
    return true;
  }

  // In an SVG or MathML island. False where the tree builder would leave it otherwise than
  // through its end tag.
  bool foreign_start_tag(const scanned_tag& tag) {
    const std::string& name = tag.lower_name;
    if (breaks_out_of_foreign_content(name) || (name == "font" && tag.has_font_attribute) ||
        confuses_gumbo_in_foreign_content(name)) {
      return false;
    }
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
    if (name == "a" && svg_ && (!tag.kept[kHref].empty() || !tag.kept[kXlinkHref].empty())) {
      add({"<svg><a"});
      for (const std::string_view attribute : {tag.kept[kHref], tag.kept[kXlinkHref]}) {
        if (!attribute.empty()) chunk_.append(" ").append(writable_attribute(attribute));
      }
      chunk_ += " /></svg>";
    }
    if (!tag.self_closing) foreign_.push_back(name);
    return true;
  }

  bool foreign_end_tag(const scanned_tag& tag) {
    if (tag.lower_name != foreign_.back()) return false;
    foreign_.pop_back();
    return true;
  }

  // Starts a link tag made of `pieces` (a full chunk is put aside first, so the tag can be
  // finished after this returns).
  void add(std::initializer_list<std::string_view> pieces) {
    if (tags_.count++ % kTagsPerChunk == 0 && !chunk_.empty()) {
      tags_.chunks.push_back(std::move(chunk_));
      chunk_ = std::string();
    }
    for (const std::string_view piece : pieces)
      chunk_ += piece;
  }

  static constexpr std::size_t npos = std::string_view::npos;

  std::string_view html_;
  std::size_t pos_ = 0;
  link_tags tags_;
  std::string chunk_;
  std::vector<std::string> foreign_;  // the open elements of an SVG or MathML island
  bool svg_ = false;                  // the island is SVG
  bool table_seen_ = false;
};

}  // namespace

std::optional<link_tags> read_link_tags(std::string_view html) {
  return link_tag_reader(html).run();
}

}  // namespace corocrawl
