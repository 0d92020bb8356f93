#pragma once
// Link extraction from HTML with a real HTML5 parser (gumbo).

#include <chrono>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "text/text_hashes.hpp"
#include "text/text_map.hpp"

namespace corocrawl {

/// How a parse ended.
enum class parse_outcome {
  complete,     ///< every link of the page was found
  gave_up,      ///< one of gumbo's assert()s fired: none or only some links were found
  over_budget,  ///< the parse took longer than its budget and was abandoned
  stopped,      ///< the parse was abandoned because a stop was requested
  /// a page read in pieces (page_in_pieces) turned out to need reading whole: nothing found
  needs_whole_page,
};

/// What bounds a parse of a page handed over to extract_links_taking. gumbo's cost is not
/// always linear in the page (some hostile nestings are quadratic in it): whatever the page,
/// a parse ends within a few milliseconds of `stop` being requested or of `budget` running
/// out, having found none or only some of the links then.
struct parse_limits {
  std::stop_token stop;
  std::chrono::steady_clock::duration budget = std::chrono::seconds(10);
};

/// How a reference's target is checked: a document may be crawled (fetched with GET and parsed
/// when in scope and of a parsable type); a resource is only checked (HEAD first).
enum class reference_kind : std::uint8_t { document, resource };

struct page_link {
  /// Resolved against the base, normalised by resolve_link (no fragment); its text is kept by
  /// the page_links the link is in (see link_index), and moves with it.
  std::string_view url;
  reference_kind kind;   ///< document if any of its references is a document, else resource
  std::size_t hash = 0;  ///< url_hash(url), computed where the link is found

  bool operator==(const page_link&) const = default;
};

/// A reference's element and attribute. A page names few pairs, each kept once in its
/// page_links::tags.
struct reference_tag {
  /// Lower-case tag name ("img", "a"; "a" for SVG <a> too; "style" for a <style> element's
  /// text, "css" in a stylesheet), kept by the page_links.
  std::string_view element;
  /// Static string: "href", "src", "srcset", "data", "poster", "content", "xlink:href"; for
  /// CSS, "style" (a style attribute), "url" or "import".
  std::string_view attribute;

  /// Whether a reference of this tag is in CSS (a style attribute's or element's url(),
  /// image-set() or @import) rather than an attribute's value.
  bool in_css() const {
    return attribute == "style" || attribute == "url" || attribute == "import";
  }

  bool operator==(const reference_tag&) const = default;
};

/// The text after the first '#' of a reference's URL as written (character references
/// decoded, ASCII whitespace around it stripped), when it has a '#'; the text is kept by the
/// page_links. 16 bytes, where std::optional<std::string_view> takes 24: a big page has tens
/// of thousands of references. Its size is below 4 GiB, as a page's lines and columns are.
class reference_fragment {
 public:
  reference_fragment() = default;  ///< none: the URL has no '#'
  explicit reference_fragment(std::string_view text)
      : text_(text.data() != nullptr ? text.data() : ""),
        size_(static_cast<std::uint32_t>(text.size())),
        hash_(id_hash(text)) {}

  explicit operator bool() const { return text_ != nullptr; }
  /// The text; empty when there is none.
  std::string_view operator*() const { return {text_, size_}; }
  /// id_hash() of the text, computed with the page's parse.
  std::uint32_t hash() const { return hash_; }
  std::optional<std::string_view> get() const {
    if (text_ == nullptr) return std::nullopt;
    return **this;
  }

  bool operator==(const reference_fragment& other) const { return get() == other.get(); }

 private:
  const char* text_ = nullptr;
  std::uint32_t size_ = 0;
  std::uint32_t hash_ = 0;
};
static_assert(sizeof(reference_fragment) == 16);

/// One reference as written in the page, in document order (source order for the compact
/// reading). 32 bytes: its element, attribute and fragment are kept by the page_links.
struct page_reference {
  std::uint32_t link;        ///< index into page_links::links
  std::uint32_t tag;         ///< index into page_links::tags: its element and attribute
  std::uint32_t line = 0;    ///< 1-based, of the tag's '<'
  std::uint32_t column = 0;  ///< 1-based, in code points (UTF-8 lead bytes) from the line's start
  reference_fragment fragment;

  bool operator==(const page_reference&) const = default;
};

/// CSS written in the page, to be scanned for url() and @import by the caller.
struct inline_css {
  std::string text;     ///< a <style> element's text, or a style attribute's decoded value
  std::string element;  ///< "style" for a <style> element, else the element carrying the attribute
  bool attribute = false;              ///< a style="" attribute
  std::uint32_t line = 0, column = 0;  ///< a <style> element: where its text starts (just after
                                       ///< the start tag's '>'); an attribute: its tag's '<'

  bool operator==(const inline_css&) const = default;
};

/// What a page references.
struct page_links {
  std::vector<page_link> links;              ///< distinct, in order of first reference
  std::vector<page_reference> references;    ///< every reference
  std::vector<reference_tag> tags;           ///< the references' elements and attributes
  std::vector<std::string> anchors;          ///< ids and <a name>s (not in <template> content)
  std::vector<std::uint32_t> anchor_hashes;  ///< id_hashes(anchors): sorted, each once
  std::vector<inline_css> styles;
  std::string base;      ///< the URL relative references were resolved against
  std::string encoding;  ///< the page's, as sniffed (WHATWG name: "UTF-8", "windows-1252" ...)
  parse_outcome outcome = parse_outcome::complete;
  /// The text of the links' URLs and of the references' elements and fragments, back to back
  /// in blocks that stay where they are when the page moves: a page's links and references
  /// cost a few allocations, not one each (see link_index).
  std::unique_ptr<std::pmr::monotonic_buffer_resource> link_text;
};

/// How links are added to a page, each distinct URL once: a URL listed already gives its
/// index, a new one is appended with its text copied into the page's link_text. The page must
/// outlive the index and gain links only through it.
class link_index {
 public:
  explicit link_index(page_links& page,
                      std::pmr::memory_resource* memory = std::pmr::get_default_resource());
  /// The index in the page's links of `url`; a document reference makes the link a document.
  std::uint32_t link(std::string_view url, reference_kind kind);
  /// The index in the page's tags of `element` (kept in the page's text) and `attribute`
  /// (a static string), mostly added once a page: a page names a few pairs many times.
  std::uint32_t tag(std::string_view element, std::string_view attribute);
  /// `text` kept in the page's text.
  std::string_view keep(std::string_view text);

 private:
  page_links& page_;
  text_map index_;  // keyed by views of the links' own text
};

/// The references of a page handed over (see extract_references below for which: it is the
/// same reading compact): the page is freed as soon as its reference tags are read, so a large
/// page and its parse tree are not in memory at once (a page the compact reading gives up on
/// stays until its positions are counted). Says whether the parse completed (else it found
/// none or only some references).
/// The page's bytes are decoded first, by the encoding HTML's sniffing gives (a BOM, then
/// `http_charset` from its Content-Type, then a <meta> charset, else UTF-8 when valid, else
/// windows-1252); queries of its links are encoded in that encoding, as browsers do.
page_links extract_links_taking(std::string&& html, std::string_view page_url,
                                const parse_limits& limits = {},
                                std::string_view http_charset = {});
/// The same of a page the caller keeps, and frees when it will: for a page small enough that
/// freeing it early saves little, whose memory the caller's thread should give back itself.
page_links extract_links_kept(std::string_view html, std::string_view page_url,
                              const parse_limits& limits = {}, std::string_view http_charset = {});

class link_tag_stream;
class tag_references;

/// A page read as its body arrives, for a body too big to be held whole as well as read. A
/// page that is UTF-8 by its BOM, by `http_charset` (its Content-Type's) or by a <meta>
/// charset in its first 1024 bytes has its link tags read from each piece (link_tag_stream,
/// html/link_tags.hpp), and the references of each chunk of 1,024 tags taken in as it
/// completes, holding only what is not read yet and the references found; any other page is
/// kept whole, to be read as extract_links_taking reads it. Until its first chunk is read, or
/// its first MiB, the page's bytes are kept too: a page that turns out to need a tree before
/// then (a <select> in its header, say) is read whole from them.
class page_in_pieces {
 public:
  page_in_pieces(std::string page_url, std::string http_charset);
  ~page_in_pieces();
  page_in_pieces(page_in_pieces&&) noexcept;
  page_in_pieces& operator=(page_in_pieces&&) noexcept;

  /// The page's next bytes.
  void add(std::string_view piece);
  /// What extract_links_taking would find in the page, whose last bytes were added, but for
  /// the references take_read() gave; or, when its link tags alone could not say (the page
  /// needs a tree, which only the whole page gives), nothing and the outcome
  /// needs_whole_page: then it must be read whole. Call once.
  /// `limits` bound what is read then; what add() read had the default ones (parse_limits).
  page_links finish(const parse_limits& limits = {});
  /// The references of the chunks read so far that no take_read() gave yet, with their
  /// links (a link may come again in a later take), tags and text, and the page's base; no
  /// anchors or inline CSS: finish() gives those, and the references read after the last
  /// take. Taken as they come, a big page's references are not held until its end.
  page_links take_read();
  /// The bytes held: what is not read yet, and the page's bytes while they are kept.
  std::size_t held() const;

 private:
  std::string page_url_;
  std::string http_charset_;
  // The page's bytes: until its encoding is known, while it is kept whole, and while it is
  // read in pieces until its first chunk is read (or a MiB of it); then nothing.
  std::string start_;
  bool decided_ = false;
  std::string_view encoding_;              // when the page is read in pieces: UTF-8's name
  std::unique_ptr<link_tag_stream> tags_;  // when the page is read in pieces
  // The references of the chunks read so far, from the first chunk complete on.
  std::unique_ptr<tag_references> references_;
};

/// Makes the assert guard SIGABRT's action, unless it is already: the action in place is kept as
/// the one every SIGABRT but an assert inside a parse goes to (run_crawl in corocrawl/crawl.hpp
/// states the contract). A crawl calls it as it starts, and the first parse of the process too.
/// One system call when the guard is in place, two when it is not; thread-safe, but not against
/// the program changing SIGABRT's action on another thread at the same time.
void install_abort_guard();

// ---- For tests, benchmarks and fuzzers --------------------------------------------------
// The crawl reads pages with extract_links_taking only. extract_references and extract_links,
// and the markup_reading they take, let the tests and fuzzers check that the three readings
// find the same, and the benchmarks time each one.

/// How much of a page gumbo parses. All three give the same references, anchors and inline
/// CSS (the tests compare them; compact in source order); extract_links_taking always reads
/// compact.
/// - compact (the default): only the page's reference tags, where nothing on the page lets
///   HTML's tree builder change which tags are elements (no <select> or <frameset>, SVG and
///   MathML simply nested: see link_tags.hpp); else as shrunk. Its memory stays small
///   however large the page.
/// - shrunk: a shrunk copy of the page, several times faster to parse and smaller in memory
///   than the page: text runs, comments and attributes that cannot change which links the
///   page has are reduced or left out.
/// - whole: the page as it is.
enum class markup_reading { compact, shrunk, whole };

/// Parses `html` and returns what the page references, each reference with its place:
/// - documents: the href of <a>, <area>, SVG <a> (or its xlink:href) and <link> (rel
///   stylesheet among them; but a rel of only icon/preload/prefetch/modulepreload/manifest
///   tokens makes a resource, and preconnect/dns-prefetch a link that is skipped); the src of
///   <iframe> and <frame>; the URL of <meta http-equiv=refresh content="N; url=...">;
/// - resources: the src and srcset of <img> and <source>; the src of <script>, <embed>,
///   <audio>, <track> and <input type=image>; <video> src and poster; <object> data.
/// In HTML content, <template> and <noscript> content included. Each URL is resolved against
/// the page's <base href> (itself resolved against `page_url`) or `page_url`, and normalised
/// (see resolve_link); links are those URLs, distinct, in document order (reading tags,
/// compact gives source order, which differs where misnested markup makes the tree builder
/// move elements). Also the page's anchors (id on any element, name on <a>, outside template
/// content), and its inline CSS (<style> text as written, style attributes decoded), whose
/// url(), image-set() and @import references are among the references too (see
/// add_inline_css_references in css/css_links.hpp). Nothing in comments, <script> or text is
/// a reference. The bytes are decoded as extract_links_taking says. Any scheme is returned
/// (mailto:, data: ...); values that cannot be resolved are skipped. Never throws on malformed
/// markup or invalid UTF-8; a page that still trips one of gumbo's assert()s gives nothing (gumbo
/// prints the assertion to stderr).
page_links extract_references(std::string_view html, std::string_view page_url,
                              markup_reading reading = markup_reading::compact,
                              std::string_view http_charset = {});

/// The URLs of extract_references(html, page_url, reading).links.
std::vector<std::string> extract_links(std::string_view html, std::string_view page_url,
                                       markup_reading reading = markup_reading::compact);

}  // namespace corocrawl
