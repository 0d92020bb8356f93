#include "html/element_names.hpp"

#include <array>
#include <cstddef>

namespace corocrawl::html {
namespace {

struct named_traits {
  std::string_view name;
  std::uint32_t traits;
};

constexpr std::uint32_t raw = raw_text_trait;
constexpr std::uint32_t voids = void_trait;
constexpr std::uint32_t same = closes_same_trait;
constexpr std::uint32_t essential = essential_trait;
constexpr std::uint32_t refs = holds_references_trait;
constexpr std::uint32_t confuses = confuses_gumbo_trait;
constexpr std::uint32_t breaks = breaks_out_trait;
constexpr std::uint32_t table = table_part_trait;
constexpr std::uint32_t svg_point = svg_integration_trait;
constexpr std::uint32_t math_point = math_integration_trait;
constexpr std::uint32_t special = reader_special_trait;

// Every name any list holds, once, with all its traits.
constexpr named_traits kNames[] = {
    {"a", same | essential},
    {"annotation-xml", essential},
    {"area", voids | essential},
    {"audio", refs},
    {"b", breaks},
    {"base", voids | essential | special},
    {"basefont", voids},
    {"bgsound", voids},
    {"big", breaks},
    {"blockquote", breaks},
    {"body", essential | breaks | special},
    {"br", voids | breaks},
    {"caption", confuses | table},
    {"center", breaks},
    {"code", breaks},
    {"col", voids | confuses | table},
    {"colgroup", confuses | table},
    {"dd", same | breaks},
    {"desc", essential | svg_point},
    {"div", breaks},
    {"dl", breaks},
    {"dt", same | breaks},
    {"em", breaks},
    {"embed", voids | refs | breaks},
    {"foreignobject", essential | svg_point},
    {"form", special},
    {"frame", voids | essential | refs | confuses | special},
    {"frameset", essential | confuses | special},
    {"h1", breaks},
    {"h2", breaks},
    {"h3", breaks},
    {"h4", breaks},
    {"h5", breaks},
    {"h6", breaks},
    {"head", essential | breaks | special},
    {"hr", voids | breaks},
    {"html", essential | confuses | special},
    {"i", breaks},
    {"iframe", raw | refs},
    {"image", voids | refs},
    {"img", voids | refs | breaks},
    {"input", voids | refs},
    {"isindex", special},
    {"keygen", voids},
    {"li", same | breaks},
    {"link", voids | essential},
    {"listing", breaks},
    {"math", essential | special},
    {"menu", breaks},
    {"meta", voids | refs | breaks},
    {"mi", essential | math_point},
    {"mn", essential | math_point},
    {"mo", essential | math_point},
    {"ms", essential | math_point},
    {"mtext", essential | math_point},
    {"nobr", breaks},
    {"noembed", raw},
    {"noframes", raw},
    {"noscript", special},
    {"object", refs},
    {"ol", breaks},
    {"optgroup", same | confuses},
    {"option", same | confuses},
    {"p", same | breaks},
    {"param", voids},
    {"plaintext", special},
    {"pre", breaks},
    {"rb", same},
    {"rp", same},
    {"rt", same},
    {"ruby", breaks},
    {"s", breaks},
    {"script", raw | refs},
    {"select", essential | confuses | special},
    {"small", breaks},
    {"source", voids | refs},
    {"span", breaks},
    {"strike", breaks},
    {"strong", breaks},
    {"style", raw | refs},
    {"sub", breaks},
    {"sup", breaks},
    {"svg", essential | special},
    {"table", breaks | special},
    {"tbody", confuses | table},
    {"td", same | confuses | table},
    {"template", essential | confuses | special},
    {"textarea", raw},
    {"tfoot", confuses | table},
    {"th", same | confuses | table},
    {"thead", confuses | table},
    {"title", raw | essential | svg_point},
    {"tr", same | confuses | table},
    {"track", voids | refs},
    {"tt", breaks},
    {"u", breaks},
    {"ul", breaks},
    {"var", breaks},
    {"video", refs},
    {"wbr", voids},
    {"xmp", raw},
};

constexpr std::size_t kLongest = 14;  // "annotation-xml"
constexpr std::size_t kSlots = 512;   // a power of two, over four times the names

constexpr std::size_t hash(std::string_view name) {
  std::size_t h = name.size();
  for (const char c : name)
    h = h * 31 + static_cast<unsigned char>(c);
  return h;
}

// Open addressing with linear probing: each slot holds an index into kNames plus one, or 0.
constexpr std::array<std::uint8_t, kSlots> make_slots() {
  std::array<std::uint8_t, kSlots> slots{};
  for (std::size_t i = 0; i < std::size(kNames); ++i) {
    std::size_t slot = hash(kNames[i].name) & (kSlots - 1);
    while (slots[slot] != 0)
      slot = (slot + 1) & (kSlots - 1);
    slots[slot] = static_cast<std::uint8_t>(i + 1);
  }
  return slots;
}

constexpr auto kSlotTable = make_slots();
static_assert(std::size(kNames) < 255);

// Names are a few bytes: compared here, where std::equal or == would call memcmp.
bool same_bytes(std::string_view a, std::string_view b) {
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k] != b[k]) return false;
  }
  return true;
}

}  // namespace

std::uint32_t name_traits(std::string_view name) {
  if (name.empty() || name.size() > kLongest) return 0;
  for (std::size_t slot = hash(name) & (kSlots - 1);; slot = (slot + 1) & (kSlots - 1)) {
    const std::uint8_t entry = kSlotTable[slot];
    if (entry == 0) return 0;
    const named_traits& known = kNames[entry - 1];
    if (known.name.size() == name.size() && same_bytes(known.name, name)) return known.traits;
  }
}

}  // namespace corocrawl::html
