#include <string>
#include <string_view>

#include "corocrawl/report.hpp"
#include "corocrawl/utf8.hpp"
#include "report/problem_text.hpp"
#include "report/verdict.hpp"

namespace corocrawl {

namespace {

bool is_ascii_punctuation(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
         (c >= '{' && c <= '~');
}

// Text from outside as literal Markdown: every ASCII punctuation character backslash-escaped
// (CommonMark lets any of them be), line breaks as spaces, so a value can neither end its
// table cell nor become a link, emphasis or HTML.
std::string literal(std::string_view text) {
  std::string out;
  for (const char c : to_terminal_text(text)) {
    if (is_ascii_punctuation(c)) out += '\\';
    out += c;
  }
  return out;
}

std::string where(const broken_link& link, const page_locator& locate) {
  std::string cell;
  for (const link_source* s : distinct_places(link.sources, locate)) {
    if (!cell.empty()) cell += "<br>";
    cell += literal(place_text(*s, locate));
  }
  if (cell.empty()) {
    for (const auto& referrer : link.referrers) {
      if (!cell.empty()) cell += "<br>";
      cell += "linked from " + literal(locate(referrer));
    }
  }
  return cell.empty() ? "\\-" : cell;
}

void write_table(std::ostream& out, std::string_view title, const broken_list& links,
                 const page_locator& locate) {
  if (links.empty()) return;
  out << "\n### " << title << " (" << links.size() << ")\n\n";
  out << "| URL | Status | Where |\n|---|---|---|\n";
  for (std::size_t i = 0; i < links.size() && i < markdown_rows_at_most; ++i) {
    const auto& link = links[i];
    out << "| " << literal(locate(link.url)) << " | " << literal(problem_status(link)) << " | "
        << where(link, locate) << " |\n";
  }
  if (links.size() > markdown_rows_at_most)
    out << "\n… and " << links.size() - markdown_rows_at_most << " more (see the JSON summary)\n";
}

}  // namespace

void write_markdown_report(std::ostream& out, const crawl_result& result, bool fail_on_rate_limit,
                           const page_locator& locate) {
  // Our own words and counts: no text from outside.
  out << "## corocrawl: " << verdict_line(result, fail_on_rate_limit) << '\n';
  if (result.baseline) {
    const broken_groups groups = split_by_baseline(result);
    write_table(out, "New broken links", groups.fresh, locate);
    write_table(out, "Known broken links (in the baseline)", groups.known, locate);
    const auto& fixed = result.baseline->fixed;
    if (!fixed.empty()) {
      out << "\n### Fixed since the baseline (" << fixed.size() << ")\n\n";
      for (std::size_t i = 0; i < fixed.size() && i < markdown_rows_at_most; ++i)
        out << "- " << literal(fixed[i]) << '\n';
      if (fixed.size() > markdown_rows_at_most)
        out << "- … and " << fixed.size() - markdown_rows_at_most << " more\n";
    }
  } else {
    write_table(out, "Broken links", result.broken, locate);
  }
  write_table(out, "Warnings", result.warnings, locate);
  write_table(out, "Rate limited (429)", result.rate_limited, locate);
  if (!result.unchecked.empty()) {
    out << "\n### Left unchecked (" << result.unchecked.size() << ")\n\n";
    for (std::size_t i = 0; i < result.unchecked.size() && i < markdown_rows_at_most; ++i) {
      const auto& u = result.unchecked[i];
      out << "- " << literal(locate(u.url));
      if (u.reason) out << " \\(" << literal(*u.reason) << "\\)";
      out << '\n';
    }
    if (result.unchecked.size() > markdown_rows_at_most)
      out << "- … and " << result.unchecked.size() - markdown_rows_at_most << " more\n";
  }
}

}  // namespace corocrawl
