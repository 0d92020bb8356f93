#include "store/packed_source.hpp"

namespace corocrawl {

packed_source source_packing::pack(const stored_source& source) {
  constexpr std::uint32_t kMaxColumn = 0xff'ffff;
  if (source.column <= kMaxColumn && source.tag < packed_source::kWide) {
    return {
        .page = source.page, .line = source.line, .column_tag = source.column << 8 | source.tag};
  }
  wide_.push_back(source);
  return {.page = source.page,
          .line = static_cast<std::uint32_t>(wide_.size() - 1),
          .column_tag = packed_source::kWide};
}

stored_source source_packing::unpack(const packed_source& packed) const {
  if ((packed.column_tag & 0xff) == packed_source::kWide) return wide_[packed.line];
  return {.page = packed.page,
          .line = packed.line,
          .column = packed.column_tag >> 8,
          .tag = packed.column_tag & 0xff};
}

}  // namespace corocrawl
