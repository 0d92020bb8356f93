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
#include <unordered_set>
#include <vector>

#include "html/link_tags.hpp"
#include "html/markup_limiter.hpp"
#include "html/parse_guard.hpp"
#include "url/url.hpp"

namespace corocrawl {
namespace {

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

// Adds `hrefs` to `list` unless the watch says to end first: then says why.
std::optional<parse_outcome> add_all(link_list& list, const std::vector<std::string_view>& hrefs,
                                     parse_watch& watch) {
  for (const std::string_view href : hrefs) {
    if (const auto outcome = watch.poll()) return outcome;
    list.add(href);
  }
  return std::nullopt;
}

page_links links_of_markup(std::string_view markup, std::string_view page_url, parse_watch& watch) {
  page_links page;
  page.outcome = parse(markup, watch, [&](const found_links& found) {
    link_list list(base_url(page_url, found.base_href), found.hrefs.size());
    if (const auto ended = add_all(list, found.hrefs, watch)) page.outcome = *ended;
    page.links = std::move(list).take();
  });
  return page;
}

// Each chunk is parsed and freed in turn, so only one small tree is in memory at a time. A
// chunk gumbo gives up on leaves the others to be read; a stop or the budget ends the reading.
page_links links_of_tags(link_tags& tags, std::string_view page_url, parse_watch& watch) {
  page_links page;
  std::string base(page_url);
  if (!tags.base.empty()) {
    page.outcome = parse(tags.base, watch, [&](const found_links& found) {
      base = base_url(page_url, found.base_href);
    });
  }
  link_list list(std::move(base), tags.count);
  for (std::string& chunk : tags.chunks) {
    if (page.outcome == parse_outcome::stopped || page.outcome == parse_outcome::over_budget) break;
    const auto outcome = parse(chunk, watch, [&](const found_links& found) {
      if (const auto ended = add_all(list, found.hrefs, watch)) page.outcome = *ended;
    });
    if (outcome != parse_outcome::complete) page.outcome = outcome;
    std::string{}.swap(chunk);
  }
  page.links = std::move(list).take();
  return page;
}

page_links parse_links(std::string_view html, std::string_view page_url, markup_reading reading,
                       std::string* owned, const parse_limits& limits) {
  if (html.empty()) return {};
  parse_watch watch(limits);
  if (reading == markup_reading::compact) {
    if (std::optional<link_tags> tags = read_link_tags(html)) {
      if (owned != nullptr) std::string{}.swap(*owned);
      return links_of_tags(*tags, page_url, watch);
    }
  }
  std::string limited;
  const std::string_view markup = limit_markup(html, reading != markup_reading::whole, limited);
  // The page itself is not needed once shrunk: free it before gumbo builds its tree.
  if (owned != nullptr && markup.data() != html.data()) std::string{}.swap(*owned);
  return links_of_markup(markup, page_url, watch);
}

}  // namespace

std::vector<std::string> extract_links(std::string_view html, std::string_view page_url,
                                       markup_reading reading) {
  return parse_links(html, page_url, reading, nullptr, parse_limits{}).links;
}

page_links extract_links_taking(std::string&& html, std::string_view page_url,
                                const parse_limits& limits) {
  std::string page = std::move(html);
  return parse_links(page, page_url, markup_reading::compact, &page, limits);
}

}  // namespace corocrawl
