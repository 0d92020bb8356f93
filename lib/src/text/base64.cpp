// Base64 (RFC 4648) and Basic credentials.

#include "text/base64.hpp"

#include <cstddef>
#include <cstdint>

namespace corocrawl {

std::string basic_authorization(std::string_view user_colon_password) {
  return "Basic " + base64(user_colon_password);
}

std::string base64(std::string_view bytes) {
  constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  const auto byte_at = [&](std::size_t k) -> std::uint32_t {
    return k < bytes.size() ? static_cast<unsigned char>(bytes[k]) : 0U;
  };
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t group = byte_at(i) << 16 | byte_at(i + 1) << 8 | byte_at(i + 2);
    const std::size_t present = bytes.size() - i;  // 1, 2, or 3 and more
    out += kAlphabet[(group >> 18) & 0x3F];
    out += kAlphabet[(group >> 12) & 0x3F];
    out += present > 1 ? kAlphabet[(group >> 6) & 0x3F] : '=';
    out += present > 2 ? kAlphabet[group & 0x3F] : '=';
  }
  return out;
}

}  // namespace corocrawl
