#include "html/element_names.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "text/ascii.hpp"

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
constexpr unsigned kSlotBits = 8;     // 256 slots, over twice the names
constexpr std::size_t kSlots = std::size_t{1} << kSlotBits;

// A name (of at most kLongest bytes) as two words: its bytes, the first the lowest, NUL-padded,
// and its size in the top byte of `high`.
struct name_key {
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  constexpr bool operator==(const name_key&) const = default;
};

// Built in registers: bytes stored one at a time and read back as a word would wait for
// the stores (a failed store forwarding), which cost more than the rest of the lookup.
constexpr name_key key_of(std::string_view name, bool lower) {
  name_key key;
  for (std::size_t k = 0; k < name.size(); ++k) {
    const char c = lower ? ascii::to_lower(name[k]) : name[k];
    const std::uint64_t byte = static_cast<unsigned char>(c);
    if (k < 8) {
      key.low |= byte << (8 * k);
    } else {
      key.high |= byte << (8 * (k - 8));
    }
  }
  key.high |= std::uint64_t{name.size()} << 56;
  return key;
}

// The bytes of `word` with ASCII letters A-Z in lower case, eight at a time.
constexpr std::uint64_t lower_case_word(std::uint64_t word) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  const std::uint64_t low_bits = word & (0x7F * ones);  // no sum below carries into the next
  const std::uint64_t above_z = low_bits + (0x7F - 'Z') * ones;  // bit 7 where above 'Z'
  const std::uint64_t from_a = low_bits + (0x80 - 'A') * ones;   // bit 7 where 'A' or above
  const std::uint64_t upper = from_a & ~above_z & ~word & (0x80 * ones);
  return word | upper >> 2;  // 0x80 >> 2 is the case bit, 0x20
}

// The first `size` bytes of a word, for sizes 0 to 8.
constexpr std::array<std::uint64_t, 9> kBytesMask = {0,
                                                     0xff,
                                                     0xffff,
                                                     0xff'ffff,
                                                     0xffff'ffff,
                                                     0xff'ffff'ffff,
                                                     0xffff'ffff'ffff,
                                                     0xff'ffff'ffff'ffff,
                                                     ~std::uint64_t{0}};

// key_of(name, true) for `name` (at most kLongest bytes), a view into `text`. Most names of a
// page lie 16 bytes or more before its end: theirs are read as two words and lowered eight
// bytes at a time, not a byte at a time.
name_key lower_key_in(std::string_view text, std::string_view name) {
  const auto begin = static_cast<std::size_t>(name.data() - text.data());
  if (std::endian::native != std::endian::little || begin + 16 > text.size())
    return key_of(name, true);
  name_key key;
  std::memcpy(&key.low, name.data(), sizeof key.low);
  if (name.size() <= 8) {
    key.low = lower_case_word(key.low & kBytesMask[name.size()]);
  } else {
    key.low = lower_case_word(key.low);
    std::memcpy(&key.high, name.data() + 8, sizeof key.high);
    key.high = lower_case_word(key.high & kBytesMask[name.size() - 8]);
  }
  key.high |= std::uint64_t{name.size()} << 56;
  return key;
}

constexpr std::size_t slot_of(name_key key) {
  return static_cast<std::size_t>(
      ((key.low * 0x9E3779B97F4A7C15ULL) ^ key.high) * 0xC2B2AE3D27D4EB4FULL >> (64 - kSlotBits));
}

// Open addressing with linear probing: a slot holds a name's key and traits; an empty one a
// key of size 0, which no name has.
struct slot {
  name_key key;
  std::uint32_t traits = 0;
};

constexpr std::array<slot, kSlots> make_slots() {
  std::array<slot, kSlots> slots{};
  for (const named_traits& known : kNames) {
    const name_key key = key_of(known.name, false);
    std::size_t at = slot_of(key);
    while (slots[at].key != name_key{})
      at = (at + 1) & (kSlots - 1);
    slots[at] = {key, known.traits};
  }
  return slots;
}

constexpr auto kSlotTable = make_slots();

constexpr bool all_names_fit() {
  for (const named_traits& known : kNames) {
    if (known.name.empty() || known.name.size() > kLongest) return false;
  }
  return true;
}
static_assert(all_names_fit());

std::uint32_t traits_of(name_key key) {
  for (std::size_t at = slot_of(key);; at = (at + 1) & (kSlots - 1)) {
    const slot& here = kSlotTable[at];
    if (here.key == key) return here.traits;
    if (here.key == name_key{}) return 0;
  }
}

}  // namespace

std::uint32_t name_traits(std::string_view name) {
  if (name.empty() || name.size() > kLongest) return 0;
  return traits_of(key_of(name, false));
}

std::uint32_t name_traits_any_case(std::string_view name) {
  if (name.empty() || name.size() > kLongest) return 0;
  return traits_of(key_of(name, true));
}

std::uint32_t name_traits_in(std::string_view text, std::string_view name) {
  if (name.empty() || name.size() > kLongest) return 0;
  return traits_of(lower_key_in(text, name));
}

std::uint32_t lower_name_traits_in(std::string_view text, std::string_view name,
                                   std::string& lower) {
  if (name.empty() || name.size() > kLongest) {  // no name with traits
    lower = ascii::to_lower(name);
    return 0;
  }
  const name_key key = lower_key_in(text, name);
  std::array<char, 16> bytes{};
  std::memcpy(bytes.data(), &key.low, sizeof key.low);
  std::memcpy(bytes.data() + sizeof key.low, &key.high, sizeof key.high);
  lower.assign(bytes.data(), name.size());  // the size byte lies past the name
  return traits_of(key);
}

}  // namespace corocrawl::html
