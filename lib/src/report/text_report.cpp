// The human report: what needs fixing (broken links with where pages reference them,
// warnings, rate-limited and unchecked URLs), the counts and a one-line verdict; in full
// detail, the chapter's "*** Report ***" too: a line per URL, skipped URLs, sitemap orphans
// and every counter.
#include <algorithm>
#include <cstdio>
#include <string>

#include "corocrawl/report.hpp"
#include "corocrawl/utf8.hpp"
#include "report/problem_text.hpp"
#include "report/verdict.hpp"

namespace corocrawl {

namespace {

// Unchecked and skipped URLs can number in the thousands: the report lists this many of each,
// and the JSON summary all of them.
constexpr std::size_t listed_at_most = 20;

// Text from outside (servers, pages, the command line) as it may reach a terminal: a hostile
// server's header must not move the cursor or recolour the screen.
std::string shown(std::string_view text) {
  return to_terminal_text(text);
}

std::string status_text(const std::optional<unsigned>& status) {
  return status ? std::to_string(*status) : std::string("error");
}

// ANSI SGR colours, written only when the style asks for them.
enum class colour { red, yellow, green };

struct painter {
  bool on = false;
  std::string operator()(colour c, std::string_view text) const {
    if (!on) return std::string(text);
    const char* code = c == colour::red      ? "\x1b[1;31m"
                       : c == colour::yellow ? "\x1b[33m"
                                             : "\x1b[1;32m";
    return code + std::string(text) + "\x1b[0m";
  }
};

void write_url_line(std::ostream& out, const fetch_record& r, const page_locator& locate) {
  out << shown(locate(r.url)) << ' ' << status_text(r.status);
  if (!r.status) {
    out << ' ' << shown(r.error.value_or("failed")) << " (" << r.tries
        << (r.tries == 1 ? " try)" : " tries)");
  } else if (r.next_url) {
    out << " redirect " << shown(locate(*r.next_url));
    if (r.error) out << " (" << shown(*r.error) << ')';
  } else {
    out << ' ' << shown(r.content_type.value_or("-")) << ' ' << shown(r.encoding.value_or("-"))
        << ' ' << r.size;
    if (r.num_urls > 0) out << ' ' << r.num_new_urls << '/' << r.num_urls;
    if (r.error) out << " (" << shown(*r.error) << ')';
    if (r.cached) out << " (cached)";
  }
  out << '\n';
}

// Each place a page references the URL ("page:line:column element attribute", as editors
// and terminals link them), then the referrers that reference it otherwise (a redirect).
void write_sources(std::ostream& out, const std::vector<link_source>& sources,
                   const std::vector<std::string>& referrers, const page_locator& locate) {
  for (const link_source* place : distinct_places(sources, locate)) {
    const link_source& s = *place;
    out << "    " << shown(locate(s.page)) << ':' << s.line << ':' << s.column << ' '
        << shown(s.element) << ' ' << shown(s.attribute) << '\n';
  }
  for (const auto& referrer : referrers) {
    if (std::ranges::find(sources, referrer, &link_source::page) == sources.end())
      out << "    linked from " << shown(locate(referrer)) << '\n';
  }
}

void write_links(std::ostream& out, std::string_view title, const broken_list& links, colour c,
                 const text_style& style) {
  if (links.empty()) return;
  const painter paint{style.color};
  out << title << " (" << links.size() << "):\n";
  for (const auto& b : links) {
    out << "  " << shown(style.locate(b.url)) << ' ' << paint(c, shown(problem_status(b))) << '\n';
    write_sources(out, b.sources, b.referrers, style.locate);
  }
}

void write_referrer(std::ostream& out, const std::optional<std::string>& referrer,
                    const page_locator& locate) {
  if (referrer) out << "    linked from " << shown(locate(*referrer)) << '\n';
}

// The first listed_at_most of `items` (a vector or a built_list), then how many more there are.
template <typename Items, typename WriteOne>
void write_some(std::ostream& out, std::string_view title, const Items& items, WriteOne write_one) {
  if (items.empty()) return;
  out << title << " (" << items.size() << "):\n";
  for (std::size_t i = 0; i < items.size() && i < listed_at_most; ++i)
    write_one(items[i]);
  if (items.size() > listed_at_most)
    out << "  ... and " << items.size() - listed_at_most << " more (see the JSON summary)\n";
}

void write_unchecked(std::ostream& out, const built_list<unchecked_url>& unchecked,
                     const page_locator& locate) {
  write_some(out, "Left unchecked", unchecked, [&](const unchecked_url& u) {
    out << "  " << shown(locate(u.url));
    if (u.reason) out << " (" << shown(*u.reason) << ')';
    out << '\n';
    write_referrer(out, u.referrer, locate);
  });
}

void write_skipped(std::ostream& out, const built_list<skipped_url>& skipped,
                   const page_locator& locate) {
  write_some(out, "Skipped", skipped, [&](const skipped_url& s) {
    out << "  " << shown(locate(s.url)) << " (" << shown(s.reason) << ")\n";
    if (s.sources.empty() && s.referrers.empty()) write_referrer(out, s.referrer, locate);
    write_sources(out, s.sources, s.referrers, locate);
  });
}

void write_orphans(std::ostream& out, const std::vector<std::string>& orphans,
                   const page_locator& locate) {
  write_some(out, "Orphans (in a sitemap, linked from no page)", orphans,
             [&](const std::string& url) { out << "  " << shown(locate(url)) << '\n'; });
}

void write_fixed(std::ostream& out, const baseline_comparison& baseline) {
  write_some(out, "Fixed since the baseline", baseline.fixed,
             [&out](const std::string& name) { out << "  " << shown(name) << '\n'; });
}

void write_problems(std::ostream& out, const crawl_result& result, const text_style& style) {
  if (result.baseline) {
    const broken_groups groups = split_by_baseline(result);
    write_links(out, "New broken links", groups.fresh, colour::red, style);
    write_links(out, "Known broken links (in the baseline)", groups.known, colour::yellow, style);
    write_fixed(out, *result.baseline);
  } else {
    write_links(out, "Broken links", result.broken, colour::red, style);
  }
  write_links(out, "Warnings", result.warnings, colour::yellow, style);
  write_links(out, "Rate limited (429)", result.rate_limited, colour::yellow, style);
  write_unchecked(out, result.unchecked, style.locate);
}

// "533 URLs checked in 0.512 s: 1 broken, 0 warnings, 0 rate limited, 2 skipped"
void write_counts(std::ostream& out, const crawl_result& result) {
  char line[256];
  std::snprintf(line, sizeof line,
                "%zu URLs checked in %.3f s: %zu broken, %zu warnings, %zu rate limited, %zu "
                "skipped\n",
                result.records.size(), result.elapsed.count(), result.broken.size(),
                result.warnings.size(), result.rate_limited.size(), result.skipped.size());
  out << line;
}

void write_verdict(std::ostream& out, const crawl_result& result, const crawl_options& options,
                   const text_style& style) {
  const std::string text = verdict_line(result, options.fail_on_rate_limit);
  out << painter{style.color}(text.starts_with("PASSED") ? colour::green : colour::red, text)
      << '\n';
}

}  // namespace

void write_text_report(std::ostream& out, const crawl_result& result, const crawl_options& options,
                       const text_style& style) {
  if (style.detail != text_detail::full) {
    write_problems(out, result, style);
    if (style.detail == text_detail::problems) write_counts(out, result);
    write_verdict(out, result, options, style);
    return;
  }
  out << "*** Report ***\n";
  for (const auto& record : result.records)
    write_url_line(out, record, style.locate);
  write_problems(out, result, style);
  write_skipped(out, result.skipped, style.locate);
  write_orphans(out, result.orphans, style.locate);

  const double secs = result.elapsed.count();
  char timing[128];
  std::snprintf(timing, sizeof timing, "in %.3f secs (max_tasks=%d) (%.1f urls/sec)", secs,
                options.max_tasks,
                secs > 0 ? static_cast<double>(result.records.size()) / secs : 0.0);
  out << "Finished " << result.records.size() << " urls " << timing << '\n';
  if (result.connections > 0) {
    char reuse[128];
    std::snprintf(reuse, sizeof reuse, "%llu requests over %llu connections (%.1f each)\n",
                  static_cast<unsigned long long>(result.requests),
                  static_cast<unsigned long long>(result.connections),
                  static_cast<double>(result.requests) / static_cast<double>(result.connections));
    out << reuse;
  }
  for (const auto& [key, count] : result_stats(result)) {
    char line[96];
    std::snprintf(line, sizeof line, "%10llu %s\n", static_cast<unsigned long long>(count),
                  key.c_str());
    out << line;
  }
  write_verdict(out, result, options, style);
}

}  // namespace corocrawl
