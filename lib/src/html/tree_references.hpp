#pragma once
// The walk of a gumbo tree that finds, as HTML's elements define them, what links.hpp
// promises: the references (which element, which attribute, what kind), the anchors, the
// inline CSS, and the first <base href>. Values are taken as gumbo decoded them; resolving
// them is reference_list's.

#include <gumbo.h>

#include <optional>
#include <string_view>
#include <vector>

#include "html/attribute_values.hpp"
#include "html/gumbo_parse.hpp"
#include "html/links.hpp"

namespace corocrawl {

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

// An element's attributes, however they are held: `value(name, xlink)` is the value of
// attribute `name` (in the XLink namespace when `xlink`), nullopt when it has none.
class element_attributes {
 public:
  virtual std::optional<std::string_view> value(std::string_view name, bool xlink) const = 0;

 protected:
  ~element_attributes() = default;
};

// Appends to `references` the references of the element `tag` (an HTML element when `html`,
// else an SVG or MathML one) with `attributes`, as HTML defines them (<base> and <style> are
// not references: collect() reads them). `node` is what the references carry.
void element_references(GumboTag tag, bool html, bool svg, const element_attributes& attributes,
                        const GumboNode* node, std::vector<found_reference>& references);

// Iterative pre-order walk: a deep document must not overflow the stack. Template contents
// are walked too (their links reach users once scripts run), but hold no anchor or base.
found_links collect(const GumboNode* document);

/// Parses `markup` (parse_tree, gumbo_parse.hpp) and hands what collect() finds to `use`,
/// while the tree lives; `use` is not called when the parse did not complete.
template <class Use>
parse_outcome parse_references(std::string_view markup, parse_watch& watch, Use use) {
  return parse_tree(markup, watch, [&](const GumboNode* document) { use(collect(document)); });
}

}  // namespace corocrawl
