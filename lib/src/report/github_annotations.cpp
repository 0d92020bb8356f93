// GitHub Actions workflow commands: one annotation per place a page references a problem
// URL, so that the runner shows it on that file and line of a pull request's diff.
#include <algorithm>
#include <string>

#include "corocrawl/report.hpp"
#include "corocrawl/utf8.hpp"
#include "report/problem_text.hpp"
#include "report/verdict.hpp"

namespace corocrawl {

namespace {

// The runner reads "%", CR and LF as escapes in a command's message, and also ":" and "," in
// its properties (which they would end).
std::string escaped(std::string_view text, bool property) {
  std::string out;
  for (const char c : to_valid_utf8(text)) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void write_command(std::ostream& out, std::string_view command, const broken_link& link,
                   const link_source* source, const page_locator& locate) {
  out << "::" << command << ' ';
  if (source != nullptr) {
    out << "file=" << escaped(locate(source->page), true) << ",line=" << source->line
        << ",col=" << source->column << ',';
  }
  const std::string title = command == "error"    ? "broken link"
                            : command == "notice" ? "known broken link"
                                                  : "link warning";
  out << "title=" << escaped(title, true)
      << "::" << escaped(problem_message(link, source, locate), false) << '\n';
}

void write_links(std::ostream& out, std::string_view command, const broken_list& links,
                 const page_locator& locate, const crawl_result* known_from = nullptr) {
  for (const auto& link : links) {
    // Breakage the baseline knew does not fail the build: a notice, not an error.
    if (known_from != nullptr && is_known(*known_from, link.url)) {
      for (const link_source* source : distinct_places(link.sources, locate))
        write_command(out, "notice", link, source, locate);
      if (link.sources.empty()) write_command(out, "notice", link, nullptr, locate);
      continue;
    }
    for (const link_source* source : distinct_places(link.sources, locate))
      write_command(out, command, link, source, locate);
    // A problem URL that no page references in its markup (a root, a redirect's target) is
    // annotated once, without a place.
    if (link.sources.empty()) write_command(out, command, link, nullptr, locate);
  }
}

}  // namespace

void write_github_annotations(std::ostream& out, const crawl_result& result,
                              const page_locator& locate) {
  write_links(out, "error", result.broken, locate, &result);
  write_links(out, "warning", result.warnings, locate);
  write_links(out, "warning", result.rate_limited, locate);
  // A crawl that fails with nothing new broken (URLs left unchecked, a stop, --max-time) still
  // says so where the job's annotations are read.
  if (!passed(result) && new_broken_count(result) == 0) {
    out << "::error title=corocrawl::" << escaped(verdict_line(result, false), false) << '\n';
  }
}

}  // namespace corocrawl
