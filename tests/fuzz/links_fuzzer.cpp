// Fuzzes reference extraction (html/links.hpp): every reading of a page against the reading
// of its whole tree, on everything they find: links and their kinds, references with their
// elements, attributes, fragments and positions, anchors, inline CSS. Shrunk must find exactly
// what whole finds, in the same order; compact (reference tags alone where it can) the same
// sets, since tags come in source order and the tree builder moves misnested elements. Every
// link is normalised and listed once, and every reference points at one. The link tags read
// from the raw input in pieces (link_tag_stream) must be exactly those read from it whole.
//
// Input: the page, on http://example.com/dir/page.html.
//
// The raw input is read first, each way, as the crawler would read it: the readings compared
// below see it with gumbo's errors taken out (see next), so without this the library would
// never be given some inputs as written (a NUL starting an attribute name, say). Those raw
// readings are only checked for what holds of any page: no crash, normalised links listed
// once, and the outcome that gumbo's asserts call for.
//
// The whole reading errs where gumbo does, so those places are taken out of every compared
// reading:
// - gumbo 0.10.1 drops a NUL that starts an attribute name, where the HTML standard (and so
//   browsers, the limiter and the link-tag reader) make it U+FFFD in the name: "<a \0href>"
//   has no href. A NUL after whitespace, '/' or a quote is given to every reading as U+FFFD.
// - With parse errors off (gumbo_parse.cpp sets max_errors = 0), gumbo 0.10.1 leaves a repeated
//   attribute's name in its buffer, where it prefixes the next name: "<a x x href=y>" has
//   an attribute "xhref" and no link. Pages that may repeat an attribute name in a tag are
//   not compared (the readings that shrink tags drop such attributes, so they differ).
// - In SVG and MathML, gumbo 0.10.1 matches an end tag by its text, so "</math >" closes
//   nothing. The limiter writes such end tags bare, but not one with a '<' in it that could
//   open something ("</math <a href=x>"): pages with such an end tag are not compared.
//
// gumbo asserts on some markup the limiter does not know of; links.cpp then ends only that
// parse (parse_guarded turns the SIGABRT into a jump), and the page gives no links. Such a
// reading cannot be compared, so __assert_fail is interposed to count the asserts (the
// executable's definition wins over glibc's for gumbo's calls); it aborts as glibc's does.
// Pages where gumbo asserts are checked only for normalised, unique links and the outcome.
// Environment (scripts/fuzz sets the first for this target):
// - COROCRAWL_FUZZ_ASSERTS=DIR keeps each page that made gumbo assert as DIR/assert-HASH.html,
//   markup the limiter does not know of yet.
// - COROCRAWL_FUZZ_VERBOSE (any value) prints each assert's message, as glibc would. Off by
//   default: an assert is expected and survived, not a failure, and its message would read
//   like one in libFuzzer's log.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "check.hpp"
#include "html/link_tags.hpp"
#include "html/links.hpp"
#include "text/ascii.hpp"
#include "text/text_hashes.hpp"
#include "url/url.hpp"

namespace {

using corocrawl::markup_reading;
using links = std::vector<std::string>;
namespace ascii = corocrawl::ascii;

constexpr std::string_view kPage = "http://example.com/dir/page.html";
constexpr corocrawl::fuzz::checker check{"links"};

thread_local unsigned gumbo_asserts = 0;

}  // namespace

extern "C" [[noreturn]] void __assert_fail(const char* assertion, const char* file,
                                           unsigned int line, const char* function) noexcept {
  ++gumbo_asserts;
  if (std::getenv("COROCRAWL_FUZZ_VERBOSE") != nullptr) {
    std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, assertion);
  }
  std::abort();
}

namespace {

void keep_asserting_page(std::string_view html) {
  const char* dir = std::getenv("COROCRAWL_FUZZ_ASSERTS");
  if (dir == nullptr) return;
  const std::string path =
      std::string(dir) + "/assert-" + std::to_string(std::hash<std::string_view>{}(html)) + ".html";
  std::ofstream(path, std::ios::binary).write(html.data(), static_cast<long>(html.size()));
}

void check_links(const links& found, std::string_view html) {
  for (auto link = found.begin(); link != found.end(); ++link) {
    check(corocrawl::normalize_url(*link) == *link, "link not normalised", html);
    check(std::find(found.begin(), link, *link) == link, "link listed twice", html);
  }
}

links urls(const corocrawl::page_links& page) {
  links out;
  for (const corocrawl::page_link& link : page.links)
    out.emplace_back(link.url);
  return out;
}

void check_page(const corocrawl::page_links& page, std::string_view html) {
  check_links(urls(page), html);
  std::vector<bool> referenced(page.links.size());
  for (const corocrawl::page_reference& reference : page.references) {
    check(reference.link < page.links.size(), "reference to no link", html);
    check(reference.line >= 1 && reference.column >= 1, "reference without a place", html);
    check(reference.tag < page.tags.size(), "reference to no tag", html);
    if (reference.link < page.links.size()) referenced[reference.link] = true;
    check(
        !reference.fragment || reference.fragment.hash() == corocrawl::id_hash(*reference.fragment),
        "fragment hash not its text's", html);
  }
  check(std::find(referenced.begin(), referenced.end(), false) == referenced.end(),
        "link without a reference", html);
  for (const corocrawl::page_link& link : page.links)
    check(link.hash == corocrawl::url_hash(link.url), "link hash not its URL's", html);
  check(page.anchor_hashes == corocrawl::id_hashes(page.anchors), "anchor hashes not the ids'",
        html);
  for (const corocrawl::inline_css& css : page.styles)
    check(css.line >= 1 && css.column >= 1, "inline CSS without a place", html);
}

// What a reading finds, in a form that compares across readings: references with their URL
// and kind (not the index of their link), in their order or sorted.
struct flat_page {
  std::vector<std::tuple<std::string, int, std::string, std::string, std::optional<std::string>,
                         std::uint32_t, std::uint32_t>>
      references;
  std::vector<std::pair<std::string, int>> links;
  std::vector<std::string> anchors;
  std::vector<std::tuple<std::uint32_t, std::uint32_t, bool, std::string, std::string>> styles;

  bool operator==(const flat_page&) const = default;

  flat_page sorted() const {
    flat_page out = *this;
    std::sort(out.references.begin(), out.references.end());
    std::sort(out.links.begin(), out.links.end());
    std::sort(out.anchors.begin(), out.anchors.end());
    std::sort(out.styles.begin(), out.styles.end());
    return out;
  }
};

flat_page flat(const corocrawl::page_links& page) {
  flat_page out;
  for (const corocrawl::page_link& link : page.links)
    out.links.emplace_back(link.url, static_cast<int>(link.kind));
  for (const corocrawl::page_reference& r : page.references) {
    if (r.link >= page.links.size()) continue;
    out.references.emplace_back(
        page.links[r.link].url, static_cast<int>(page.links[r.link].kind),
        std::string(page.tags[r.tag].element), std::string(page.tags[r.tag].attribute),
        r.fragment ? std::optional<std::string>(*r.fragment) : std::nullopt, r.line, r.column);
  }
  out.anchors = page.anchors;
  for (const corocrawl::inline_css& css : page.styles)
    out.styles.emplace_back(css.line, css.column, css.attribute, css.text, css.element);
  return out;
}

// `html` with the places where gumbo errs (see the top of this file) taken out.
std::string without_gumbo_errors(std::string_view html) {
  std::string out;
  out.reserve(html.size());
  for (std::size_t i = 0; i < html.size(); ++i) {
    const bool may_start_attribute_name =
        i > 0 && (ascii::is_space(html[i - 1]) || html[i - 1] == '/' || html[i - 1] == '"' ||
                  html[i - 1] == '\'');
    if (html[i] == '\0' && may_start_attribute_name) {
      out += "\xEF\xBF\xBD";  // U+FFFD
    } else {
      out += html[i];
    }
  }
  return out;
}

// An attribute name as a key that is equal for names gumbo makes equal: ASCII lower-cased,
// and each run of other bytes one '\x80' (UTF-8, invalid UTF-8, and control characters,
// which gumbo reads as U+FFFD). Different names may get the same key.
std::string name_key(std::string_view name) {
  std::string key;
  for (const char c : name) {
    if (ascii::is_control(c) || static_cast<unsigned char>(c) >= 0x80) {
      if (key.empty() || key.back() != '\x80') key += '\x80';
    } else {
      key += ascii::to_lower(c);
    }
  }
  return key;
}

// True when a '<' in `text` is followed by a letter, '/', '!' or '?'.
bool opens_something(std::string_view text) {
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    const char next = text[i + 1];
    if (text[i] == '<' && (ascii::is_alpha(next) || next == '/' || next == '!' || next == '?'))
      return true;
  }
  return false;
}

// True when gumbo may misread a tag of `html` (see the top of this file): a start tag that
// may repeat an attribute name (ASCII case-insensitive), or an end tag with a '<' in it that
// could open something (which the limiter leaves alone, so gumbo may match "</math <a>" by
// its text and close nothing). Reads tags as the tokenizer does, but anywhere (also in
// comments and raw text): it may say true where gumbo reads every tag right, never false
// where it does not.
bool gumbo_may_misread_a_tag(std::string_view html) {
  const std::size_t n = html.size();
  for (std::size_t lt = html.find('<'); lt != std::string_view::npos; lt = html.find('<', lt + 1)) {
    const bool start_tag = lt + 1 < n && ascii::is_alpha(html[lt + 1]);
    const bool end_tag = lt + 2 < n && html[lt + 1] == '/' && ascii::is_alpha(html[lt + 2]);
    if (!start_tag && !end_tag) continue;
    std::vector<std::string> names;
    const std::size_t name_begin = lt + (end_tag ? 2 : 1);
    std::size_t i = name_begin;
    while (i < n && !ascii::is_space(html[i]) && html[i] != '/' && html[i] != '>')
      ++i;
    while (true) {
      while (i < n && (ascii::is_space(html[i]) || html[i] == '/'))
        ++i;
      if (i >= n || html[i] == '>') break;
      const std::size_t attribute_begin = i++;  // a leading '=' belongs to the name
      while (i < n && !ascii::is_space(html[i]) && html[i] != '/' && html[i] != '>' &&
             html[i] != '=')
        ++i;
      std::string name = name_key(html.substr(attribute_begin, i - attribute_begin));
      if (start_tag && std::find(names.begin(), names.end(), name) != names.end()) return true;
      names.push_back(std::move(name));
      std::size_t after_name = i;
      while (after_name < n && ascii::is_space(html[after_name]))
        ++after_name;
      if (after_name >= n || html[after_name] != '=') continue;
      i = after_name + 1;
      while (i < n && ascii::is_space(html[i]))
        ++i;
      if (i < n && (html[i] == '"' || html[i] == '\'')) {
        const std::size_t close = html.find(html[i], i + 1);
        if (close == std::string_view::npos) break;
        i = close + 1;
      } else {
        while (i < n && !ascii::is_space(html[i]) && html[i] != '>')
          ++i;
      }
    }
    if (end_tag && opens_something(html.substr(name_begin, i - name_begin))) return true;
  }
  return false;
}

}  // namespace

// The link tags of `html` read in pieces (link_tag_stream) must be those read from the whole
// page, whatever the cuts: here pieces of 1 to 16 bytes, their sizes taken in turn from the
// page's own bytes, so each input cuts itself its own way.
void check_read_in_pieces(std::string_view html) {
  corocrawl::link_tag_stream stream;
  bool going_on = true;
  for (std::size_t at = 0, k = 0; going_on && at < html.size(); ++k) {
    const std::size_t size = std::min<std::size_t>(
        1 + static_cast<unsigned char>(html[k % html.size()]) % 16, html.size() - at);
    going_on = stream.add(html.substr(at, size));
    at += size;
  }
  const auto whole = corocrawl::read_link_tags(html);
  check((going_on ? stream.finish() : std::nullopt) == whole,
        "link tags read in pieces and from the whole page differ", html);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  check_read_in_pieces(raw);
  const std::string page = without_gumbo_errors(raw);
  const std::string_view html = page;
  if (page != raw) {
    // The raw input, as the crawler would be given it (see the top of this file); when it is
    // the page itself, the readings below cover it.
    gumbo_asserts = 0;
    check_page(corocrawl::extract_references(raw, kPage, markup_reading::whole), raw);
    check_page(corocrawl::extract_references(raw, kPage, markup_reading::shrunk), raw);
    const unsigned before_compact = gumbo_asserts;
    const corocrawl::page_links compact = corocrawl::extract_links_taking(std::string(raw), kPage);
    check_page(compact, raw);
    check((compact.outcome == corocrawl::parse_outcome::complete) ==
              (gumbo_asserts == before_compact),
          "raw compact: the outcome is wrong", raw);
    if (gumbo_asserts > 0) keep_asserting_page(raw);
  }

  gumbo_asserts = 0;
  const corocrawl::page_links whole =
      corocrawl::extract_references(html, kPage, markup_reading::whole);
  const unsigned whole_asserts = gumbo_asserts;
  const corocrawl::page_links shrunk =
      corocrawl::extract_references(html, kPage, markup_reading::shrunk);
  const unsigned shrunk_asserts = gumbo_asserts - whole_asserts;
  const corocrawl::page_links compact = corocrawl::extract_links_taking(std::string(html), kPage);
  const unsigned compact_asserts = gumbo_asserts - whole_asserts - shrunk_asserts;

  // No stop is requested and the budget (10 s) is far from reached on a page of max_len.
  const bool complete = compact.outcome == corocrawl::parse_outcome::complete;
  check(complete == (compact_asserts == 0), "compact: the outcome is wrong", html);
  check_page(whole, html);
  check_page(shrunk, html);
  check_page(compact, html);
  if (gumbo_asserts > 0) {
    keep_asserting_page(html);
    return 0;  // a reading gumbo gave up on finds nothing: nothing to compare
  }
  if (gumbo_may_misread_a_tag(html)) return 0;
  const flat_page whole_found = flat(whole);
  const flat_page compact_found = flat(compact);
  check(flat(shrunk) == whole_found, "shrunk and whole reading differ", html);
  check(compact_found.sorted() == whole_found.sorted(), "compact and whole reading differ", html);
  check(corocrawl::extract_links(html, kPage, markup_reading::whole) == urls(whole),
        "extract_links and extract_references differ", html);
  check(flat(corocrawl::extract_references(html, kPage)) == compact_found,
        "extract_references and extract_links_taking differ", html);
  return 0;
}
