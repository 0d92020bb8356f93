#pragma once
// The assert guard, private to html/: gumbo parses that end without ending the process.
// Debian builds gumbo with its assert()s, and hostile markup can still reach one that
// limit_markup() does not know of; a parse may also have to be abandoned (a stop, its budget).
// parse_guarded runs gumbo so that either jumps back out of that parse alone. How the guard
// touches the program's signal handling is run_crawl's contract (corocrawl/crawl.hpp).

#include <gumbo.h>

#include <string_view>

#include "html/links.hpp"

namespace corocrawl {

/// What a guarded parse gave.
struct guarded_parse {
  const GumboOutput* output = nullptr;  // null when the parse did not complete
  parse_outcome outcome = parse_outcome::complete;
};

/// Installs the guard the first time it is called in the process (install_abort_guard's
/// contract: the first parse does, whether or not it needs gumbo).
void install_abort_guard_once();

/// Parses `markup` with gumbo. An assert() in gumbo on this thread ends the parse with
/// gave_up; abandon_parse() ends it with its outcome; either way the output is null, and what
/// gumbo allocated is the caller's arena's to drop (nothing is freed here).
guarded_parse parse_guarded(const GumboOptions& options, std::string_view markup);

/// Ends the guarded parse under way on this thread with `outcome`: called from inside gumbo
/// (its allocator), never outside a parse.
[[noreturn]] void abandon_parse(parse_outcome outcome) noexcept;

}  // namespace corocrawl
