// Link extraction with gumbo 0.10.1, guarded against weaknesses of that version, because
// pages are untrusted input:
// - gumbo_destroy_output() recurses once per nesting level: 300000 nested elements overflow
//   an 8 MiB stack. We never call it; gumbo allocates from gumbo_arena, which frees
//   every block at once.
// - Some tree-construction steps scan the whole stack of open elements, and attribute
//   de-duplication compares every pair: 100000 nested <div> take 14 s, one tag with 50000
//   attributes 4 s. markup_limiter removes start tags nested deeper than kMaxDepth (browsers
//   cap the depth too; Chromium at 512) and trims tags with too many attributes to their
//   href.
// - assert()s abort the process on SVG/MathML elements named like HTML table or select
//   elements ("<table><svg><select><title><select><td>") and on CDATA sections in an HTML
//   integration point in a table ("<table><svg><desc><![CDATA[x]]>y"). markup_limiter
//   removes such SVG/MathML start tags, and turns CDATA sections into the same text
//   written as character references.
// markup_limiter never removes a tag that decides whether an element is a link.

#include "corocrawl/links.hpp"

#include <gumbo.h>

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "ascii.hpp"
#include "corocrawl/url.hpp"
#include "html_scan.hpp"
#include "link_tags.hpp"

namespace corocrawl {
namespace {

using namespace html;  // NOLINT: this file is the HTML reader

constexpr std::size_t kMaxDepth = 512;
constexpr std::size_t kMaxAttributes = 256;

// ---- gumbo's memory ------------------------------------------------------------------------

// A bump allocator for one parse: gumbo makes a million small allocations for a 2.5 MB page,
// and frees none of those that make up the tree. Nothing is freed before the arena goes
// (but the latest block, which gumbo's growing buffers often give back at once), so the
// tree is never walked to free it.
class gumbo_arena {
 public:
  gumbo_arena() = default;
  gumbo_arena(const gumbo_arena&) = delete;
  gumbo_arena& operator=(const gumbo_arena&) = delete;

  GumboOptions options() {
    GumboOptions options = kGumboDefaultOptions;
    options.allocator = &allocate;
    options.deallocator = &deallocate;
    options.userdata = this;
    options.max_errors = 0;  // parse errors are of no use here and can be numerous
    return options;
  }

 private:
  // gumbo's structs hold pointers and size_t at most; half its blocks are under 32 bytes, so
  // 16-byte alignment would waste a fifth of the arena.
  static constexpr std::size_t kAlignment = alignof(std::size_t);
  static constexpr std::size_t kFirstChunk = 64 * 1024;
  static constexpr std::size_t kLargestChunk = 4 * 1024 * 1024;

  // C callbacks: malloc semantics, no exceptions.
  static void* allocate(void* userdata, std::size_t size) noexcept {
    auto& self = *static_cast<gumbo_arena*>(userdata);
    size = (std::max<std::size_t>(size, 1) + kAlignment - 1) & ~(kAlignment - 1);
    if (size > self.free_) {
      // Big blocks get a chunk of their own, so the current chunk's free space is not lost.
      const bool own_chunk = size > self.next_chunk_ / 4;
      const std::size_t chunk_size = own_chunk ? size : self.next_chunk_;
      std::byte* chunk = self.add_chunk(chunk_size);
      if (chunk == nullptr) return nullptr;
      if (own_chunk) return chunk;
      self.next_ = chunk;
      self.free_ = chunk_size;
      self.next_chunk_ = std::min(self.next_chunk_ * 2, kLargestChunk);
    }
    std::byte* block = self.next_;
    self.next_ += size;
    self.free_ -= size;
    self.latest_ = block;
    return block;
  }

  static void deallocate(void* userdata, void* pointer) noexcept {
    auto& self = *static_cast<gumbo_arena*>(userdata);
    if (pointer == nullptr || pointer != self.latest_) return;
    self.free_ += static_cast<std::size_t>(self.next_ - self.latest_);
    self.next_ = self.latest_;
    self.latest_ = nullptr;
  }

  std::byte* add_chunk(std::size_t size) noexcept {
    try {
      chunks_.push_back(std::make_unique_for_overwrite<std::byte[]>(size));
      return chunks_.back().get();
    } catch (const std::bad_alloc&) {
      return nullptr;
    }
  }

  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  std::size_t next_chunk_ = kFirstChunk;
  std::byte* next_ = nullptr;  // free space in the current chunk
  std::size_t free_ = 0;
  std::byte* latest_ = nullptr;  // the latest block from the current chunk
};

// ---- markup_limiter --------------------------------------------------------------------------

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
  markup_limiter(std::string_view html, bool compact)
      : html_(html), compact_(compact && !mentions_frameset(html)) {}

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
            replace(lt, pos_, compact_ ? "" : escaped_cdata(lt + 9, pos_));
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
    bool children_foreign;  // its children are SVG or MathML too
  };

  bool in_foreign_content() const { return !open_.empty() && open_.back().children_foreign; }

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
      replace(lt, tag.end, "");
    } else if (trims(lt, tag)) {
      std::string trimmed = "<" + std::string(tag.name);
      for (const std::string_view attribute : tag.kept) {
        if (attribute.empty()) continue;
        trimmed += ' ';
        trimmed += attribute;
      }
      trimmed += tag.self_closing ? "/>" : ">";
      replace(lt, tag.end, trimmed);
    }
    // Raw text without a '<' is text however the tokenizer reads it.
    if (compact_ && pos_ > raw_text_begin) {
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
    const std::string& name = tag.lower_name;
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
    }
    if (foreign && tag.self_closing) return true;

    if (open_.size() >= kMaxDepth) {
      return is_essential(name);  // kept but not tracked: the stack stays bounded
    }
    const bool element_foreign = foreign || name == "svg" || name == "math";
    open_.push_back({name, element_foreign, element_foreign && !is_integration_point(name)});
    return true;
  }

  void end_tag(std::size_t lt, const scanned_tag& tag) {
    pop_through(tag.lower_name);
    if (tag.attribute_count > kMaxAttributes ||
        (compact_ && tag.attribute_count > 0 && html_.find('<', lt + 1) >= tag.end)) {
      replace(lt, tag.end, "</" + std::string(tag.name) + ">");
    }
  }

  // Replaces the text html_[begin, end) by its compacted form.
  void compact_text(std::size_t begin, std::size_t end) {
    if (!compact_ || begin >= end) return;
    const std::string_view text = html_.substr(begin, end - begin);
    const std::string_view compacted = compacted_text(text);
    if (compacted.size() != text.size()) replace(begin, end, compacted);
  }

  // What a run of text shrinks to. Text steers the tree builder by being there and not all
  // whitespace: before the body, such text starts it (and so decides, say, whether a
  // <noscript> is read as in the head or in the body). So whitespace goes, and other text
  // becomes "x". Text made of only whitespace, letters, digits and character references
  // might be whitespace once decoded ("&#32;"), and NULs are dropped in some places: those
  // stay as they are.
  static std::string_view compacted_text(std::string_view text) {
    bool reference = false;
    bool word = false;
    bool other = false;
    for (const char c : text) {
      if (ascii::is_space(c)) continue;
      if (c == '\0') return text;
      if (c == '&') {
        reference = true;
      } else if (ascii::is_alnum(c) || c == '#' || c == ';') {
        word = true;
      } else {
        other = true;
      }
    }
    if (reference) return other ? "x" : text;
    return word || other ? "x" : "";
  }

  // The text of the CDATA section html_[begin, end).
  std::string_view cdata_text(std::size_t begin, std::size_t end) const {
    std::string_view text = html_.substr(begin, end - begin);
    if (text.ends_with("]]>")) text.remove_suffix(3);
    return text;
  }

  // The text of the CDATA section html_[begin, end) as markup for the same text.
  std::string escaped_cdata(std::size_t begin, std::size_t end) const {
    const std::string_view text = cdata_text(begin, end);
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
      if (c == '&') {
        out += "&amp;";
      } else if (c == '<') {
        out += "&lt;";
      } else {
        out += c;
      }
    }
    return out;
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
    out_.append(with);
    copied_ = end;
  }

  std::string_view html_;
  bool compact_;  // turned off where the limiter loses certainty about the tokenizer's state
  std::size_t pos_ = 0;
  std::size_t text_begin_ = 0;  // where the text before the next token begins
  std::vector<open_element> open_;
  bool changed_ = false;
  std::string out_;
  std::size_t copied_ = 0;  // html_ before this offset is in out_ (when changed_)
};

// ---- the tree ------------------------------------------------------------------------------

struct found_links {
  std::optional<std::string_view> base_href;  // of the first <base> with an href
  std::vector<std::string_view> hrefs;        // in document order
};

std::optional<std::string_view> attribute(const GumboElement& element, std::string_view name,
                                          GumboAttributeNamespaceEnum name_space) {
  for (unsigned int i = 0; i < element.attributes.length; ++i) {
    const auto* attr = static_cast<const GumboAttribute*>(element.attributes.data[i]);
    if (attr->attr_namespace == name_space && name == attr->name) {
      return std::string_view(attr->value);
    }
  }
  return std::nullopt;
}

void inspect(const GumboElement& element, found_links& found) {
  if (element.tag_namespace == GUMBO_NAMESPACE_HTML) {
    if (element.tag == GUMBO_TAG_A || element.tag == GUMBO_TAG_AREA ||
        element.tag == GUMBO_TAG_LINK) {
      if (const auto href = attribute(element, "href", GUMBO_ATTR_NAMESPACE_NONE)) {
        found.hrefs.push_back(*href);
      }
    } else if (element.tag == GUMBO_TAG_BASE && !found.base_href) {
      found.base_href = attribute(element, "href", GUMBO_ATTR_NAMESPACE_NONE);
    }
  } else if (element.tag_namespace == GUMBO_NAMESPACE_SVG && element.tag == GUMBO_TAG_A) {
    // SVG 2 prefers href; SVG 1.1 documents use xlink:href.
    auto href = attribute(element, "href", GUMBO_ATTR_NAMESPACE_NONE);
    if (!href) href = attribute(element, "href", GUMBO_ATTR_NAMESPACE_XLINK);
    if (href) found.hrefs.push_back(*href);
  }
}

// Iterative pre-order walk: a deep document must not overflow the stack.
found_links collect(const GumboNode* document) {
  found_links found;
  std::vector<const GumboNode*> pending{document};
  while (!pending.empty()) {
    const GumboNode* node = pending.back();
    pending.pop_back();
    const GumboVector* children = nullptr;
    if (node->type == GUMBO_NODE_DOCUMENT) {
      children = &node->v.document.children;
    } else if (node->type == GUMBO_NODE_ELEMENT) {
      inspect(node->v.element, found);
      children = &node->v.element.children;
    }
    // GUMBO_NODE_TEMPLATE: template contents are inert, like text and comments.
    if (children == nullptr) continue;
    for (unsigned int i = children->length; i-- > 0;) {
      pending.push_back(static_cast<const GumboNode*>(children->data[i]));
    }
  }
  return found;
}

// The URL relative links resolve against (HTML's "document base URL").
template <class String>
std::string base_url(std::string_view page_url, const std::optional<String>& base_href) {
  if (base_href) {
    auto base = resolve_link(page_url, *base_href);
    // Browsers ignore a base that would make every link a data: or javascript: URL.
    if (base && !base->starts_with("data:") && !base->starts_with("javascript:")) {
      return std::move(*base);
    }
  }
  return std::string(page_url);
}

// The distinct links of a page, resolved against its base URL, in the order first found.
class link_list {
 public:
  // At most `expected` links are added.
  link_list(std::string base, std::size_t expected) : base_(std::move(base)) {
    links_.reserve(expected);  // never reallocates: `seen_` views its strings
  }

  void add(std::string_view href) {
    auto link = resolve_link(base_, href);
    if (link && !seen_.contains(*link)) seen_.insert(links_.emplace_back(std::move(*link)));
  }

  std::vector<std::string> take() && { return std::move(links_); }

 private:
  std::string base_;
  std::vector<std::string> links_;
  std::unordered_set<std::string_view> seen_;
};

// Parses `markup` and hands what it finds to `use`, while the tree lives.
template <class Use>
void parse(std::string_view markup, Use use) {
  gumbo_arena arena;
  const GumboOptions options = arena.options();
  const GumboOutput* output = gumbo_parse_with_options(&options, markup.data(), markup.size());
  if (output != nullptr) use(collect(output->document));
}

std::vector<std::string> links_of_markup(std::string_view markup, std::string_view page_url) {
  std::vector<std::string> links;
  parse(markup, [&](const found_links& found) {
    link_list list(base_url(page_url, found.base_href), found.hrefs.size());
    for (const std::string_view href : found.hrefs)
      list.add(href);
    links = std::move(list).take();
  });
  return links;
}

// Each chunk is parsed and freed in turn, so only one small tree is in memory at a time.
std::vector<std::string> links_of_tags(link_tags& tags, std::string_view page_url) {
  std::optional<std::string> base_href;
  if (!tags.base.empty()) {
    parse(tags.base, [&](const found_links& found) {
      if (found.base_href) base_href.emplace(*found.base_href);
    });
  }
  link_list list(base_url(page_url, base_href), tags.count);
  for (std::string& chunk : tags.chunks) {
    parse(chunk, [&](const found_links& found) {
      for (const std::string_view href : found.hrefs)
        list.add(href);
    });
    std::string{}.swap(chunk);
  }
  return std::move(list).take();
}

std::vector<std::string> parse_links(std::string_view html, std::string_view page_url,
                                     markup_reading reading, std::string* owned) {
  if (html.empty()) return {};
  if (reading == markup_reading::compact) {
    if (std::optional<link_tags> tags = read_link_tags(html)) {
      if (owned != nullptr) std::string{}.swap(*owned);
      return links_of_tags(*tags, page_url);
    }
  }
  markup_limiter limiter(html, reading != markup_reading::whole);
  const std::string_view markup = limiter.run();
  // The page itself is not needed once shrunk: free it before gumbo builds its tree.
  if (owned != nullptr && markup.data() != html.data()) std::string{}.swap(*owned);
  return links_of_markup(markup, page_url);
}

}  // namespace

std::vector<std::string> extract_links(std::string_view html, std::string_view page_url,
                                       markup_reading reading) {
  return parse_links(html, page_url, reading, nullptr);
}

std::vector<std::string> extract_links_taking(std::string&& html, std::string_view page_url) {
  std::string page = std::move(html);
  return parse_links(page, page_url, markup_reading::compact, &page);
}

}  // namespace corocrawl
