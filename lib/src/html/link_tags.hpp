#pragma once
// A page's link tags, listed without a tree where no tree could change which they are.
//
// HTML's tree builder makes an element of every <a>, <area>, <link>, <base>, <img>, <script>
// ... start tag the tokenizer reads, wherever it stands: misnested markup is closed, reopened
// or moved, never dropped. It drops such tags only inside <select>, puts SVG/MathML
// namespaces on them in foreign content, and frameset documents lose the body; in a
// <template> that starts with <col> it drops everything else. So for a page without
// <select>, <frameset> and such templates, the references are in the reference tags, and
// gumbo needs to read only those. SVG and MathML are allowed as islands this reader follows
// exactly (every end tag closes the element it is in; no HTML breaks out, no HTML inside),
// where only SVG <a> is a link.
//
// Anchors (id, and name on <a>) and style attributes are on any element, and the tree builder
// drops some start tags: <html>, <head> and <body> ones merge into the element there is,
// table parts outside a table are ignored, and a <form> inside another. The reader follows
// which tables and forms are open (outside templates) as far as it is sure, and gives up
// where it is not, or where such a tag that may be dropped carries an id or a style. Values
// without a character reference are taken as written; gumbo decodes the others from the
// chunk (their tags written there too). <style> text is taken as written.
//
// The links come in source order. The tree's order differs where misnested markup makes the
// tree builder move elements (a table moves misplaced content in front of itself, formatting
// elements are reopened elsewhere): the same links, in another order. A <base> after a table
// makes the reader give up, since the first <base> in the tree might be another one.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "html/links.hpp"
#include "html/tree_references.hpp"

namespace corocrawl {

inline constexpr std::uint32_t kNoSlot = UINT32_MAX;

// Where a tag written to a chunk comes from.
struct tag_place {
  std::size_t offset = 0;  // of its '<' in the chunk
  std::uint32_t line = 0;  // of its '<' in the page
  std::uint32_t column = 0;
  std::string element;  // its lower-case name in the page ("img" for <image>)
  // The entries of link_tags::anchors and ::styles that its element in the chunk decodes.
  std::uint32_t id_slot = kNoSlot;
  std::uint32_t name_slot = kNoSlot;
  std::uint32_t style_slot = kNoSlot;
  // Its reference attributes' values (see link_chunk::plain), by the element's reference
  // attributes in the order written: bit i of `present` says it has the i-th, whose value is
  // link_chunk::markup[value_begin[i], + value_size[i]) as written, or, where bit i of
  // `decoded` is set, link_chunk::decoded[value_begin[i], + value_size[i]).
  bool svg = false;  // an SVG <a>, else an HTML element
  std::uint8_t present = 0;
  std::uint8_t decoded = 0;
  std::array<std::uint32_t, 2> value_begin{};
  std::array<std::uint32_t, 2> value_size{};
  bool operator==(const tag_place&) const = default;
};

struct link_chunk {
  std::string markup;             // the tags, as markup
  std::vector<tag_place> places;  // by offset
  // Whether every value its tags hold reads as written, or holds only character references
  // HTML reads the same everywhere (decoded into `decoded`), and nothing gumbo replaces. Then
  // gumbo need not read the markup: plain_references() gives what the tree would.
  bool plain = true;
  std::string decoded;  // the reference values that held such character references, decoded
  bool operator==(const link_chunk&) const = default;
};

struct link_tags {
  std::string base;                // the first <base> with an href, as markup; or empty
  std::vector<link_chunk> chunks;  // the reference tags, a bounded number per chunk
  std::size_t count = 0;           // tags in all chunks
  // In source order; nullopt where a chunk's element decodes it (see tag_place).
  std::vector<std::optional<std::string>> anchors;
  std::vector<std::optional<inline_css>> styles;
  bool operator==(const link_tags&) const = default;
};

/// The reference tags of `html`, or nothing when its tree could change which tags they are
/// (then it must be parsed as a whole).
std::optional<link_tags> read_link_tags(std::string_view html);

class link_tag_reader;

/// The reference tags of a page given in pieces, as read_link_tags() reads them from the whole
/// page: the same tags, values and places, or nothing where it gives nothing. Between pieces
/// it keeps only what it has not read yet: the token the last piece ended in (a tag, a
/// comment, a raw-text element such as a <script>, not ended yet), so a big page need not be
/// held whole to be read. A token is read once it has ended; one longer than the pieces is
/// tried again when what is held has doubled, so reading stays linear in the page.
class link_tag_stream {
 public:
  link_tag_stream();
  ~link_tag_stream();
  link_tag_stream(link_tag_stream&&) noexcept;
  link_tag_stream& operator=(link_tag_stream&&) noexcept;

  /// Reads the page's next `piece`. False once the page is known to need a tree (finish()
  /// gives nothing then): later pieces are not read.
  bool add(std::string_view piece);
  /// The page ended with the last piece added: its reference tags, or nothing when its tree
  /// could change which tags they are. Call once.
  std::optional<link_tags> finish();
  /// The bytes held, not read yet.
  std::size_t held() const { return held_.size(); }
  /// The chunks of tags complete so far (link_tags::chunks: each of a bounded number of
  /// tags), to be read before the page ends, with tags() for the anchors and styles their
  /// elements decode. Once a chunk is taken, the page's <base> is fixed: one read later
  /// (which would change how the chunks taken read) makes the stream give up.
  std::vector<link_chunk> take_chunks();
  /// The tags read so far: the page's <base>, and the anchors and styles, which go on growing.
  link_tags& tags();

 private:
  std::unique_ptr<link_tag_reader> reader_;
  std::string held_;            // the pieces from the first byte not read on
  std::size_t read_again_ = 0;  // read again once held_ is this long
  bool gave_up_ = false;
};

/// The references of the element at `place` in a plain chunk, as collect() finds them in the
/// chunk's tree (their node null), appended to `references`.
void plain_references(const link_chunk& chunk, const tag_place& place,
                      std::vector<found_reference>& references);

}  // namespace corocrawl
