// Link extraction with gumbo 0.10.1. Pages are untrusted input, and that version has
// weaknesses: gumbo_destroy_output() recurses once per nesting level (300000 nested elements
// overflow an 8 MiB stack), so gumbo allocates from gumbo_arena, which frees every block at
// once; slow paths and assert()s on hostile markup are kept away by what gumbo is given:
// link tags alone (link_tags.hpp), or markup that limit_markup() has limited
// (markup_limiter.hpp), and an assert that still fires ends only the parse (parse_guarded).
// A parse also ends early when asked to stop or when it runs past its budget (parse_watch).

#include "html/links.hpp"

#include <gumbo.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "css/css_links.hpp"
#include "html/html_scan.hpp"
#include "html/link_tags.hpp"
#include "html/markup_limiter.hpp"
#include "html/parse_guard.hpp"
#include "html/text_positions.hpp"
#include "text/ascii.hpp"
#include "text/charset.hpp"
#include "url/url.hpp"

namespace corocrawl {
namespace {

using html::position_counter;
using html::raw_text_end;
using html::scan_tag;
using html::text_position;

// ---- how long a parse may go on ------------------------------------------------------------

// Whether a parse should be abandoned: a stop was requested, or its budget ran out. Polled
// often (at every allocation gumbo makes, and for every link resolved), it looks at the
// stop token and the clock only every kPollsPerCheck polls: cheap enough for the hot path,
// and often enough that even gumbo's quadratic paths, which allocate once per tag, are
// abandoned within milliseconds.
class parse_watch {
 public:
  explicit parse_watch(const parse_limits& limits)
      : stop_(limits.stop), deadline_(std::chrono::steady_clock::now() + limits.budget) {}

  /// Why the parse must end now, or nullopt.
  std::optional<parse_outcome> poll() noexcept {
    if (--countdown_ > 0) return std::nullopt;
    countdown_ = kPollsPerCheck;
    if (stop_.stop_requested()) return parse_outcome::stopped;
    if (std::chrono::steady_clock::now() > deadline_) return parse_outcome::over_budget;
    return std::nullopt;
  }

 private:
  static constexpr int kPollsPerCheck = 256;
  std::stop_token stop_;
  std::chrono::steady_clock::time_point deadline_;
  int countdown_ = kPollsPerCheck;
};

// ---- gumbo's memory ------------------------------------------------------------------------

// A bump allocator for one parse: gumbo makes a million small allocations for a 2.5 MB page,
// and frees none of those that make up the tree. Nothing is freed before the arena goes
// (but the latest block, which gumbo's growing buffers often give back at once), so the
// tree is never walked to free it.
class gumbo_arena {
 public:
  explicit gumbo_arena(parse_watch& watch) : watch_(watch) {}
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

  // C callbacks: malloc semantics, no exceptions. gumbo allocates once per tag at least, so
  // this is where a parse is abandoned (before anything is allocated: no C++ object lives
  // between here and parse_guarded, which the jump returns to).
  static void* allocate(void* userdata, std::size_t size) noexcept {
    auto& self = *static_cast<gumbo_arena*>(userdata);
    if (const auto outcome = self.watch_.poll()) abandon_parse(*outcome);
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

  parse_watch& watch_;
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  std::size_t next_chunk_ = kFirstChunk;
  std::byte* next_ = nullptr;  // free space in the current chunk
  std::size_t free_ = 0;
  std::byte* latest_ = nullptr;  // the latest block from the current chunk
};

// ---- the tree ------------------------------------------------------------------------------

// How a reference's value holds its URLs.
enum class value_form : std::uint8_t { url, srcset, refresh };

struct found_reference {
  const GumboNode* node;
  std::string_view attribute;  // static
  std::string_view value;
  reference_kind kind;
  value_form form;
};

struct found_anchor {
  const GumboNode* node;
  std::string_view value;
  bool name;  // <a name>, else an id
};

struct found_style {
  const GumboNode* node;
  std::string_view value;  // an attribute's (a <style> element's text is read from the page)
  bool attribute;
};

struct found_links {
  std::optional<std::string_view> base_href;  // of the first <base> with an href
  std::vector<found_reference> references;    // in document order
  std::vector<found_anchor> anchors;
  std::vector<found_style> styles;
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

std::optional<std::string_view> attribute(const GumboElement& element, std::string_view name) {
  return attribute(element, name, GUMBO_ATTR_NAMESPACE_NONE);
}

// The kind of <link> with this rel, or nullopt when it is no reference at all.
std::optional<reference_kind> link_kind_of(std::string_view rel) {
  // "stylesheet" anywhere wins over the resource tokens; preconnect anywhere skips.
  bool stylesheet = false;
  bool resource = false;
  for (std::size_t i = 0; i < rel.size();) {
    while (i < rel.size() && ascii::is_space(rel[i]))
      ++i;
    std::size_t end = i;
    while (end < rel.size() && !ascii::is_space(rel[end]))
      ++end;
    if (end == i) break;
    const std::string token = ascii::to_lower(rel.substr(i, end - i));
    i = end;
    if (token == "preconnect" || token == "dns-prefetch") return std::nullopt;
    stylesheet = stylesheet || token == "stylesheet";
    resource = resource || token.ends_with("icon") || token == "preload" || token == "prefetch" ||
               token == "modulepreload" || token == "manifest";
  }
  if (stylesheet || !resource) return reference_kind::document;
  return reference_kind::resource;
}

void add_reference(found_links& found, const GumboNode* node, const GumboElement& element,
                   std::string_view name, reference_kind kind, value_form form = value_form::url) {
  if (const auto value = attribute(element, name)) {
    found.references.push_back({node, name, *value, kind, form});
  }
}

void inspect(const GumboNode* node, bool in_template, found_links& found) {
  // Implied elements and the tree builder's clones of formatting elements are no tags of the
  // page; the original of a clone is in the tree too.
  if ((node->parse_flags & (GUMBO_INSERTION_BY_PARSER | GUMBO_INSERTION_CONVERTED_FROM_END_TAG)) !=
      0) {
    return;
  }
  const GumboElement& element = node->v.element;
  const bool html = element.tag_namespace == GUMBO_NAMESPACE_HTML;
  if (!in_template) {
    if (const auto id = attribute(element, "id"); id && !id->empty()) {
      found.anchors.push_back({node, *id, false});
    }
    if (html && element.tag == GUMBO_TAG_A) {
      if (const auto name = attribute(element, "name"); name && !name->empty()) {
        found.anchors.push_back({node, *name, true});
      }
    }
  }
  if (const auto style = attribute(element, "style"); style && !style->empty()) {
    found.styles.push_back({node, *style, true});
  }
  constexpr auto document = reference_kind::document;
  constexpr auto resource = reference_kind::resource;
  if (html) {
    switch (element.tag) {
      case GUMBO_TAG_A:
      case GUMBO_TAG_AREA:
        add_reference(found, node, element, "href", document);
        break;
      case GUMBO_TAG_LINK:
        if (const auto kind = link_kind_of(attribute(element, "rel").value_or(""))) {
          add_reference(found, node, element, "href", *kind);
        }
        break;
      case GUMBO_TAG_IMG:
      case GUMBO_TAG_SOURCE:
        add_reference(found, node, element, "src", resource);
        add_reference(found, node, element, "srcset", resource, value_form::srcset);
        break;
      case GUMBO_TAG_SCRIPT:
      case GUMBO_TAG_EMBED:
      case GUMBO_TAG_AUDIO:
      case GUMBO_TAG_TRACK:
        add_reference(found, node, element, "src", resource);
        break;
      case GUMBO_TAG_OBJECT:
        add_reference(found, node, element, "data", resource);
        break;
      case GUMBO_TAG_VIDEO:
        add_reference(found, node, element, "src", resource);
        add_reference(found, node, element, "poster", resource);
        break;
      case GUMBO_TAG_INPUT:
        if (ascii::iequals(attribute(element, "type").value_or(""), "image")) {
          add_reference(found, node, element, "src", resource);
        }
        break;
      case GUMBO_TAG_IFRAME:
      case GUMBO_TAG_FRAME:
        add_reference(found, node, element, "src", document);
        break;
      case GUMBO_TAG_META:
        if (ascii::iequals(attribute(element, "http-equiv").value_or(""), "refresh")) {
          add_reference(found, node, element, "content", document, value_form::refresh);
        }
        break;
      case GUMBO_TAG_BASE:
        if (!in_template && !found.base_href) found.base_href = attribute(element, "href");
        break;
      case GUMBO_TAG_STYLE:
        found.styles.push_back({node, {}, false});
        break;
      default:
        break;
    }
  } else if (element.tag_namespace == GUMBO_NAMESPACE_SVG && element.tag == GUMBO_TAG_A) {
    // SVG 2 prefers href; SVG 1.1 documents use xlink:href.
    if (const auto href = attribute(element, "href")) {
      found.references.push_back({node, "href", *href, document, value_form::url});
    } else if (const auto xlink = attribute(element, "href", GUMBO_ATTR_NAMESPACE_XLINK)) {
      found.references.push_back({node, "xlink:href", *xlink, document, value_form::url});
    }
  }
}

// Iterative pre-order walk: a deep document must not overflow the stack. Template contents
// are walked too (their links reach users once scripts run), but hold no anchor or base.
found_links collect(const GumboNode* document) {
  found_links found;
  std::vector<std::pair<const GumboNode*, bool>> pending{{document, false}};
  while (!pending.empty()) {
    const auto [node, in_template] = pending.back();
    pending.pop_back();
    const GumboVector* children = nullptr;
    if (node->type == GUMBO_NODE_DOCUMENT) {
      children = &node->v.document.children;
    } else if (node->type == GUMBO_NODE_ELEMENT || node->type == GUMBO_NODE_TEMPLATE) {
      inspect(node, in_template, found);
      children = &node->v.element.children;
    }
    if (children == nullptr) continue;
    const bool inside = in_template || node->type == GUMBO_NODE_TEMPLATE;
    for (unsigned int i = children->length; i-- > 0;) {
      pending.emplace_back(static_cast<const GumboNode*>(children->data[i]), inside);
    }
  }
  return found;
}

// The URL relative links resolve against (HTML's "document base URL").
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

// ---- attribute values ----------------------------------------------------------------------

// The URLs of a srcset attribute, as HTML's "parse a srcset attribute" reads them: candidates
// are separated by commas, each a URL (which may hold commas; trailing ones are stripped) and
// descriptors; a candidate whose descriptors are invalid is dropped.
bool valid_integer(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), ascii::is_digit);
}

bool valid_float(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  const std::size_t whole = i;
  while (i < s.size() && ascii::is_digit(s[i]))
    ++i;
  bool digits = i > whole;
  if (i < s.size() && s[i] == '.') {
    const std::size_t fraction = ++i;
    while (i < s.size() && ascii::is_digit(s[i]))
      ++i;
    if (i == fraction) return false;
    digits = true;
  }
  if (!digits) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    const std::size_t exponent = i;
    while (i < s.size() && ascii::is_digit(s[i]))
      ++i;
    if (i == exponent) return false;
  }
  return i == s.size();
}

bool valid_descriptors(const std::vector<std::string_view>& descriptors) {
  bool width = false;
  bool density = false;
  bool height = false;
  for (const std::string_view d : descriptors) {
    const std::string_view number = d.substr(0, d.size() - 1);
    switch (d.back()) {
      case 'w':
        if (width || density || !valid_integer(number) ||
            number.find_first_not_of('0') == std::string_view::npos)
          return false;
        width = true;
        break;
      case 'x':
        if (width || density || height || !valid_float(number) || number.starts_with('-'))
          return false;
        density = true;
        break;
      case 'h':
        if (height || density || !valid_integer(number) ||
            number.find_first_not_of('0') == std::string_view::npos)
          return false;
        height = true;
        break;
      default:
        return false;
    }
  }
  return !height || width;
}

std::vector<std::string_view> srcset_urls(std::string_view input) {
  std::vector<std::string_view> urls;
  std::size_t pos = 0;
  const std::size_t n = input.size();
  while (true) {
    while (pos < n && (ascii::is_space(input[pos]) || input[pos] == ','))
      ++pos;
    if (pos >= n) return urls;
    const std::size_t url_begin = pos;
    while (pos < n && !ascii::is_space(input[pos]))
      ++pos;
    std::string_view url = input.substr(url_begin, pos - url_begin);
    std::vector<std::string_view> descriptors;
    if (url.ends_with(',')) {
      while (url.ends_with(','))
        url.remove_suffix(1);
    } else {
      // The descriptor tokenizer.
      while (pos < n && ascii::is_space(input[pos]))
        ++pos;
      std::size_t current = pos;  // where the current descriptor starts
      bool in_parens = false;
      while (true) {
        if (pos >= n) {
          if (pos > current) descriptors.push_back(input.substr(current, pos - current));
          break;
        }
        const char c = input[pos];
        if (in_parens) {
          in_parens = c != ')';
          ++pos;
        } else if (ascii::is_space(c)) {
          if (pos > current) descriptors.push_back(input.substr(current, pos - current));
          while (pos < n && ascii::is_space(input[pos]))
            ++pos;
          current = pos;
        } else if (c == ',') {
          if (pos > current) descriptors.push_back(input.substr(current, pos - current));
          ++pos;
          break;
        } else {
          in_parens = c == '(';
          ++pos;
        }
      }
    }
    if (valid_descriptors(descriptors)) urls.push_back(url);
  }
}

// The URL of a <meta http-equiv=refresh> content, as HTML's "shared declarative refresh
// steps" read it; nullopt when it has none (a refresh of the page itself, or no refresh).
std::optional<std::string_view> refresh_url(std::string_view input) {
  std::size_t pos = 0;
  const std::size_t n = input.size();
  const auto skip_spaces = [&] {
    while (pos < n && ascii::is_space(input[pos]))
      ++pos;
  };
  skip_spaces();
  const std::size_t time_begin = pos;
  while (pos < n && ascii::is_digit(input[pos]))
    ++pos;
  if (pos == time_begin && (pos >= n || input[pos] != '.')) return std::nullopt;
  while (pos < n && (ascii::is_digit(input[pos]) || input[pos] == '.'))
    ++pos;
  if (pos < n) {
    if (!ascii::is_space(input[pos]) && input[pos] != ';' && input[pos] != ',') return std::nullopt;
    skip_spaces();
    if (pos < n && (input[pos] == ';' || input[pos] == ',')) ++pos;
    skip_spaces();
  }
  if (pos >= n) return std::nullopt;
  std::string_view url = input.substr(pos);
  const auto next_is = [&](char c) { return pos < n && ascii::to_lower(input[pos]) == c; };
  if (next_is('u')) {
    ++pos;
    if (next_is('r')) {
      ++pos;
      if (next_is('l')) {
        ++pos;
        skip_spaces();
        if (pos < n && input[pos] == '=') {
          ++pos;
          skip_spaces();
          char quote = '\0';
          if (pos < n && (input[pos] == '\'' || input[pos] == '"')) quote = input[pos++];
          url = input.substr(pos);
          if (quote != '\0') url = url.substr(0, url.find(quote));
        }
      }
    }
  } else if (pos < n && (input[pos] == '\'' || input[pos] == '"')) {
    // "Skip quotes" also applies without "url=".
    const char quote = input[pos++];
    url = input.substr(pos);
    url = url.substr(0, url.find(quote));
  }
  return url;
}

// ---- the result ----------------------------------------------------------------------------

// Where a reference or an inline CSS is in the page.
struct place {
  std::string_view element;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

// The references of a page, their URLs resolved against its base URL, each distinct URL
// listed once in the order first found.
class reference_list {
 public:
  // `encoding`: the page's, in which queries are encoded (when it is not UTF-8).
  reference_list(std::string base, std::string_view encoding)
      : base_(std::move(base)),
        legacy_encoding_(!charset::is_utf8(encoding)),
        encoding_(encoding) {}

  // Adds the references of `found` (one attribute's value) at `at`.
  void add(const found_reference& found, const place& at) {
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

  void take_into(page_links& page) && {
    page.links = std::move(links_);
    page.references = std::move(references_);
    page.base = std::move(base_);
  }

 private:
  void add(std::string_view written, const found_reference& found, const place& at) {
    auto url = resolve_link(base_, legacy_encoding_ ? query_in_encoding(written) : written);
    if (!url) return;
    auto [entry, added] = index_.try_emplace(*url, static_cast<std::uint32_t>(links_.size()));
    if (added) {
      links_.push_back({std::move(*url), found.kind});
    } else if (found.kind == reference_kind::document) {
      links_[entry->second].kind = reference_kind::document;
    }
    page_reference reference{
        entry->second, std::string(at.element), found.attribute, std::nullopt, at.line, at.column};
    if (const std::size_t hash = written.find('#'); hash != std::string_view::npos) {
      reference.fragment = std::string(ascii::trim(written.substr(hash + 1)));
    }
    references_.push_back(std::move(reference));
  }

  // The URL standard encodes a link's query in the page's encoding (its path in UTF-8).
  std::string query_in_encoding(std::string_view written) const {
    const std::size_t query = written.find('?');
    const std::size_t end = std::min(written.find('#'), written.size());
    if (query == std::string_view::npos || query > end) return std::string(written);
    const std::string_view text = written.substr(query + 1, end - query - 1);
    if (std::ranges::all_of(text, [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
      return std::string(written);
    return std::string(written.substr(0, query + 1)) + charset::encode_for_query(text, encoding_) +
           std::string(written.substr(end));
  }

  std::string base_;
  bool legacy_encoding_;
  std::string_view encoding_;  // static
  std::vector<page_link> links_;
  std::vector<page_reference> references_;
  std::unordered_map<std::string, std::uint32_t> index_;
};

// Parses `markup` and hands what it finds to `use`, while the tree lives; `use` is not called
// when the parse did not complete.
template <class Use>
parse_outcome parse(std::string_view markup, parse_watch& watch, Use use) {
  gumbo_arena arena(watch);
  const GumboOptions options = arena.options();
  const auto parsed = parse_guarded(options, markup);
  if (parsed.output != nullptr) use(collect(parsed.output->document));
  return parsed.outcome;
}

// The lower-case name of the tag whose '<' is at html[lt].
std::string_view tag_name_at(std::string_view html, std::size_t lt, std::string& storage) {
  std::size_t end = lt + 1;
  while (end < html.size() && !ascii::is_space(html[end]) && html[end] != '/' && html[end] != '>')
    ++end;
  storage = ascii::to_lower(html.substr(lt + 1, end - lt - 1));
  return storage;
}

// The whole tree of `markup`, a limited copy of `html` (see `map`).
page_links references_of_markup(std::string_view html, std::string_view markup,
                                const offset_map& map, std::string_view page_url,
                                std::string_view encoding, parse_watch& watch) {
  page_links page;
  page.outcome = parse(markup, watch, [&](const found_links& found) {
    // Where each element's tag is in the page, and the positions of those (and of <style>
    // texts) counted in one pass.
    std::vector<std::size_t> offsets;  // by element found: references, then styles
    offsets.reserve(found.references.size() + found.styles.size());
    const auto page_offset_of = [&](const GumboNode* node) {
      return page_offset(map, node->v.element.start_pos.offset);
    };
    for (const found_reference& reference : found.references)
      offsets.push_back(page_offset_of(reference.node));
    std::vector<std::string_view> style_texts;
    for (const found_style& style : found.styles) {
      std::size_t at = page_offset_of(style.node);
      if (!style.attribute) {
        const std::size_t text = std::min(scan_tag(html, at + 1).end, html.size());
        const std::size_t end = raw_text_end(html, "style", text);
        style_texts.push_back(html.substr(text, end - text));
        at = text;
      }
      offsets.push_back(at);
    }
    std::vector<std::uint32_t> order(offsets.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return offsets[a] < offsets[b]; });
    std::vector<text_position> positions(offsets.size());
    position_counter counter(html);
    for (const std::uint32_t i : order)
      positions[i] = counter.at(offsets[i]);

    std::string name;
    const auto element_name = [&](const GumboNode* node, std::size_t at) -> std::string_view {
      const GumboElement& element = node->v.element;
      // An <image> tag makes an <img>.
      if (element.tag_namespace == GUMBO_NAMESPACE_HTML && element.tag == GUMBO_TAG_IMG)
        return "img";
      return tag_name_at(html, at, name);
    };

    reference_list list(base_url(page_url, found.base_href), encoding);
    for (std::size_t i = 0; i < found.references.size(); ++i) {
      if (const auto ended = watch.poll()) {
        page.outcome = *ended;
        break;
      }
      const found_reference& reference = found.references[i];
      list.add(reference,
               {element_name(reference.node, offsets[i]), positions[i].line, positions[i].column});
    }
    std::move(list).take_into(page);
    for (const found_anchor& anchor : found.anchors)
      page.anchors.emplace_back(anchor.value);
    std::size_t text = 0;
    for (std::size_t i = 0; i < found.styles.size(); ++i) {
      const found_style& style = found.styles[i];
      const std::size_t k = found.references.size() + i;
      if (style.attribute) {
        page.styles.push_back({std::string(style.value),
                               std::string(element_name(style.node, offsets[k])), true,
                               positions[k].line, positions[k].column});
      } else {
        page.styles.push_back({std::string(style_texts[text++]), "style", false, positions[k].line,
                               positions[k].column});
      }
    }
  });
  return page;
}

// Each chunk is parsed and freed in turn, so only one small tree is in memory at a time. A
// chunk gumbo gives up on leaves the others to be read; a stop or the budget ends the reading.
page_links references_of_tags(link_tags& tags, std::string_view page_url, std::string_view encoding,
                              parse_watch& watch) {
  page_links page;
  std::string base(page_url);
  if (!tags.base.empty()) {
    page.outcome = parse(tags.base, watch, [&](const found_links& found) {
      base = base_url(page_url, found.base_href);
    });
  }
  reference_list list(std::move(base), encoding);
  for (link_chunk& chunk : tags.chunks) {
    if (page.outcome == parse_outcome::stopped || page.outcome == parse_outcome::over_budget) break;
    const auto place_of = [&](const GumboNode* node) -> const tag_place* {
      const std::size_t offset = node->v.element.start_pos.offset;
      const auto it =
          std::lower_bound(chunk.places.begin(), chunk.places.end(), offset,
                           [](const tag_place& p, std::size_t o) { return p.offset < o; });
      return it != chunk.places.end() && it->offset == offset ? &*it : nullptr;
    };
    const auto outcome = parse(chunk.markup, watch, [&](const found_links& found) {
      for (const found_reference& reference : found.references) {
        if (const auto ended = watch.poll()) {
          page.outcome = *ended;
          return;
        }
        if (const tag_place* at = place_of(reference.node))
          list.add(reference, {at->element, at->line, at->column});
      }
      for (const found_anchor& anchor : found.anchors) {
        const tag_place* at = place_of(anchor.node);
        const std::uint32_t slot =
            at == nullptr ? kNoSlot : (anchor.name ? at->name_slot : at->id_slot);
        if (slot != kNoSlot) tags.anchors[slot] = std::string(anchor.value);
      }
      for (const found_style& style : found.styles) {
        const tag_place* at = place_of(style.node);
        if (at == nullptr || !style.attribute || at->style_slot == kNoSlot) continue;
        tags.styles[at->style_slot] =
            inline_css{std::string(style.value), at->element, true, at->line, at->column};
      }
    });
    if (outcome != parse_outcome::complete) page.outcome = outcome;
    std::string{}.swap(chunk.markup);
    std::vector<tag_place>{}.swap(chunk.places);
  }
  std::move(list).take_into(page);
  for (auto& anchor : tags.anchors) {
    if (anchor) page.anchors.push_back(std::move(*anchor));
  }
  for (auto& style : tags.styles) {
    if (style) page.styles.push_back(std::move(*style));
  }
  return page;
}

page_links parse_links(std::string_view html, std::string_view page_url, markup_reading reading,
                       std::string_view encoding, std::string* owned, const parse_limits& limits) {
  if (html.empty()) return {};
  parse_watch watch(limits);
  if (reading == markup_reading::compact) {
    if (std::optional<link_tags> tags = read_link_tags(html)) {
      if (owned != nullptr) std::string{}.swap(*owned);
      return references_of_tags(*tags, page_url, encoding, watch);
    }
  }
  // The page stays: the places of what the tree holds are counted in it.
  std::string limited;
  offset_map map;
  const std::string_view markup =
      limit_markup(html, reading != markup_reading::whole, limited, &map);
  return references_of_markup(html, markup, map, page_url, encoding, watch);
}

// Decodes the page (`owned`, when it may be freed early, holds it) as HTML's encoding
// sniffing says, reads it, and adds the references of its inline CSS.
page_links read_page(std::string_view bytes, std::string_view page_url, markup_reading reading,
                     std::string_view http_charset, std::string* owned,
                     const parse_limits& limits) {
  const auto sniffed = charset::sniff_html(bytes, http_charset);
  bytes.remove_prefix(sniffed.bom_length);
  std::optional<std::string> decoded;
  if (!charset::is_utf8(sniffed.encoding)) decoded = charset::decode(bytes, sniffed.encoding);
  if (decoded) {
    if (owned != nullptr) std::string{}.swap(*owned);
    owned = &*decoded;
    bytes = *decoded;
  }
  page_links page = parse_links(bytes, page_url, reading, sniffed.encoding, owned, limits);
  if (page.base.empty()) page.base = page_url;
  page.encoding = sniffed.encoding;
  add_inline_css_references(page, page.base);
  return page;
}

}  // namespace

page_links extract_references(std::string_view html, std::string_view page_url,
                              markup_reading reading, std::string_view http_charset) {
  return read_page(html, page_url, reading, http_charset, nullptr, parse_limits{});
}

std::vector<std::string> extract_links(std::string_view html, std::string_view page_url,
                                       markup_reading reading) {
  page_links page = read_page(html, page_url, reading, {}, nullptr, parse_limits{});
  std::vector<std::string> urls;
  urls.reserve(page.links.size());
  for (page_link& link : page.links)
    urls.push_back(std::move(link.url));
  return urls;
}

page_links extract_links_taking(std::string&& html, std::string_view page_url,
                                const parse_limits& limits, std::string_view http_charset) {
  std::string page = std::move(html);
  return read_page(page, page_url, markup_reading::compact, http_charset, &page, limits);
}

}  // namespace corocrawl
