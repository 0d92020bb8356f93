#pragma once
// Link extraction from HTML with a real HTML5 parser (gumbo).

#include <string>
#include <string_view>
#include <vector>

namespace corocrawl {

/// How much of a page gumbo parses. compact (the default) gives it a shrunk copy, several
/// times faster to parse and smaller in memory: text runs, comments and attributes that
/// cannot change which links the page has are reduced or left out first. whole parses the
/// page as it is. Both give the same links (the tests compare them).
enum class markup_reading { compact, whole };

/// Parses `html` and returns the distinct links of the page, in document order: the href of
/// every <a>, <area> and <link> element, resolved against the page's <base href> (itself
/// resolved against `page_url`) or `page_url`, and normalised (see resolve_link). Nothing in
/// comments, <script>, <style>, <template> or text is a link. Any scheme is returned
/// (mailto:, ftp: ...); hrefs that cannot be resolved are skipped. Never throws on malformed
/// markup or invalid UTF-8.
std::vector<std::string> extract_links(std::string_view html, std::string_view page_url,
                                       markup_reading reading = markup_reading::compact);

/// The same, reading compacted, for a page handed over: it is freed as soon as its compacted
/// copy is made, so a large page and its parse tree are not in memory at once.
std::vector<std::string> extract_links_taking(std::string&& html, std::string_view page_url);

}  // namespace corocrawl
