#pragma once
// Base64, and the Basic credentials (RFC 7617) servers and proxies are sent in it.

#include <string>
#include <string_view>

namespace corocrawl {

/// "Basic " followed by the base64 of `user_colon_password` (RFC 7617).
std::string basic_authorization(std::string_view user_colon_password);

/// Base64 (RFC 4648, with padding).
std::string base64(std::string_view bytes);

}  // namespace corocrawl
