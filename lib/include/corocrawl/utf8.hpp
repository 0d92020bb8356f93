#pragma once
// Text from servers (headers, URLs, error details) made safe to write: valid UTF-8 for the JSON
// summary, and no control characters for a terminal.

#include <string>
#include <string_view>

namespace corocrawl {

/// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
/// U+10FFFF).
bool is_valid_utf8(std::string_view text);

/// `text` with each ill-formed sequence replaced by U+FFFD, one per maximal subpart (the
/// Unicode and WHATWG practice: "\xE2\x82" is one U+FFFD, "\xC0\x80" two, and a byte that
/// cannot continue a sequence starts the next one). Well-formed text comes back unchanged.
std::string to_valid_utf8(std::string_view text);

/// to_valid_utf8(text) with the characters a terminal acts on replaced by U+FFFD too: C0
/// controls (ESC, CR, LF, TAB...), DEL, C1 controls, and the bidirectional overrides and
/// isolates that can make a URL read differently from what it is.
std::string to_terminal_text(std::string_view text);

}  // namespace corocrawl
