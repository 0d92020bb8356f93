#pragma once
// The JSON summary's "config": every library option as the crawl was given it, read through
// the option table, with secrets hidden. A CI job keeps the summary as an artifact, so a
// password, a token header or a proxy's credentials must never be in it.

#include <boost/json/object.hpp>
#include <string>
#include <string_view>

#include "corocrawl/options.hpp"

namespace corocrawl {

/// What replaces a hidden value (as url/root.hpp's without_userinfo writes a userinfo).
inline constexpr std::string_view redacted = "***";

/// Every option of crawl_option_table() by its config key; unset optional values are null,
/// durations are seconds, numbers are integers when whole, headers are objects of name and
/// value, `resolve` entries are "HOST:PORT:ADDR,...". Each descriptor's `secret` says what is
/// replaced by `redacted`.
boost::json::object config_echo(const crawl_options& options);

/// Whether a header of this name (any case) is known to carry no secret, so that its value may
/// be shown: Accept, Accept-Charset, Accept-Encoding, Accept-Language, Cache-Control, DNT,
/// Pragma, Referer, User-Agent. Every other header's value is hidden.
bool shows_header_value(std::string_view name);

}  // namespace corocrawl
