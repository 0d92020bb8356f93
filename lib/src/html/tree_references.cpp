#include "html/tree_references.hpp"

#include <cstddef>
#include <string>
#include <utility>

#include "text/ascii.hpp"

namespace corocrawl {
namespace {

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

// A gumbo element's attributes.
class tree_attributes final : public element_attributes {
 public:
  explicit tree_attributes(const GumboElement& element) : element_(element) {}
  std::optional<std::string_view> value(std::string_view name, bool xlink) const override {
    return attribute(element_, name,
                     xlink ? GUMBO_ATTR_NAMESPACE_XLINK : GUMBO_ATTR_NAMESPACE_NONE);
  }

 private:
  const GumboElement& element_;
};

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
  if (html && element.tag == GUMBO_TAG_BASE) {
    if (!in_template && !found.base_href) found.base_href = attribute(element, "href");
  } else if (html && element.tag == GUMBO_TAG_STYLE) {
    found.styles.push_back({node, {}, false});
  } else {
    element_references(element.tag, html, element.tag_namespace == GUMBO_NAMESPACE_SVG,
                       tree_attributes(element), node, found.references);
  }
}

}  // namespace

void element_references(GumboTag tag, bool html, bool svg, const element_attributes& attributes,
                        const GumboNode* node, std::vector<found_reference>& references) {
  const auto add = [&](std::string_view name, reference_kind kind,
                       value_form form = value_form::url) {
    if (const auto value = attributes.value(name, false)) {
      references.push_back({node, name, *value, kind, form});
    }
  };
  constexpr auto document = reference_kind::document;
  constexpr auto resource = reference_kind::resource;
  if (html) {
    switch (tag) {
      case GUMBO_TAG_A:
      case GUMBO_TAG_AREA:
        add("href", document);
        break;
      case GUMBO_TAG_LINK:
        if (const auto kind = link_kind_of(attributes.value("rel", false).value_or(""))) {
          add("href", *kind);
        }
        break;
      case GUMBO_TAG_IMG:
      case GUMBO_TAG_SOURCE:
        add("src", resource);
        add("srcset", resource, value_form::srcset);
        break;
      case GUMBO_TAG_SCRIPT:
      case GUMBO_TAG_EMBED:
      case GUMBO_TAG_AUDIO:
      case GUMBO_TAG_TRACK:
        add("src", resource);
        break;
      case GUMBO_TAG_OBJECT:
        add("data", resource);
        break;
      case GUMBO_TAG_VIDEO:
        add("src", resource);
        add("poster", resource);
        break;
      case GUMBO_TAG_INPUT:
        if (ascii::iequals(attributes.value("type", false).value_or(""), "image")) {
          add("src", resource);
        }
        break;
      case GUMBO_TAG_IFRAME:
      case GUMBO_TAG_FRAME:
        add("src", document);
        break;
      case GUMBO_TAG_META:
        if (ascii::iequals(attributes.value("http-equiv", false).value_or(""), "refresh")) {
          add("content", document, value_form::refresh);
        }
        break;
      default:
        break;
    }
  } else if (svg && tag == GUMBO_TAG_A) {
    // SVG 2 prefers href; SVG 1.1 documents use xlink:href.
    if (const auto href = attributes.value("href", false)) {
      references.push_back({node, "href", *href, document, value_form::url});
    } else if (const auto xlink = attributes.value("href", true)) {
      references.push_back({node, "xlink:href", *xlink, document, value_form::url});
    }
  }
}

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

}  // namespace corocrawl
