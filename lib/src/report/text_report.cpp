// The human report, the chapter's "*** Report ***" in spirit: a line per URL, the broken links
// with where pages reference them, warnings, what was left unchecked or skipped, sitemap
// orphans, the counters and a one-line verdict.
#include <algorithm>
#include <cstdio>
#include <string>

#include "corocrawl/report.hpp"
#include "corocrawl/utf8.hpp"
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

void write_url_line(std::ostream& out, const fetch_record& r) {
  out << shown(r.url) << ' ' << status_text(r.status);
  if (!r.status) {
    out << ' ' << shown(r.error.value_or("failed")) << " (" << r.tries
        << (r.tries == 1 ? " try)" : " tries)");
  } else if (r.next_url) {
    out << " redirect " << shown(*r.next_url);
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
                   const std::vector<std::string>& referrers) {
  for (const auto& s : sources) {
    out << "    " << shown(s.page) << ':' << s.line << ':' << s.column << ' ' << shown(s.element)
        << ' ' << shown(s.attribute) << '\n';
  }
  for (const auto& referrer : referrers) {
    if (std::ranges::find(sources, referrer, &link_source::page) == sources.end())
      out << "    linked from " << shown(referrer) << '\n';
  }
}

void write_links(std::ostream& out, std::string_view title, const std::vector<broken_link>& links) {
  if (links.empty()) return;
  out << title << " (" << links.size() << "):\n";
  for (const auto& b : links) {
    out << "  " << shown(b.url) << ' ' << status_text(b.status);
    if (b.error) out << ' ' << shown(*b.error);
    if (b.external) out << " (external)";
    out << '\n';
    write_sources(out, b.sources, b.referrers);
  }
}

void write_referrer(std::ostream& out, const std::optional<std::string>& referrer) {
  if (referrer) out << "    linked from " << shown(*referrer) << '\n';
}

// The first listed_at_most of `items`, then how many more there are.
template <typename Item, typename WriteOne>
void write_some(std::ostream& out, std::string_view title, const std::vector<Item>& items,
                WriteOne write_one) {
  if (items.empty()) return;
  out << title << " (" << items.size() << "):\n";
  for (std::size_t i = 0; i < items.size() && i < listed_at_most; ++i)
    write_one(items[i]);
  if (items.size() > listed_at_most)
    out << "  ... and " << items.size() - listed_at_most << " more (see the JSON summary)\n";
}

void write_unchecked(std::ostream& out, const std::vector<unchecked_url>& unchecked) {
  write_some(out, "Left unchecked", unchecked, [&out](const unchecked_url& u) {
    out << "  " << shown(u.url);
    if (u.reason) out << " (" << shown(*u.reason) << ')';
    out << '\n';
    write_referrer(out, u.referrer);
  });
}

void write_skipped(std::ostream& out, const std::vector<skipped_url>& skipped) {
  write_some(out, "Skipped", skipped, [&out](const skipped_url& s) {
    out << "  " << shown(s.url) << " (" << shown(s.reason) << ")\n";
    if (s.sources.empty() && s.referrers.empty()) write_referrer(out, s.referrer);
    write_sources(out, s.sources, s.referrers);
  });
}

void write_orphans(std::ostream& out, const std::vector<std::string>& orphans) {
  write_some(out, "Orphans (in a sitemap, linked from no page)", orphans,
             [&out](const std::string& url) { out << "  " << shown(url) << '\n'; });
}

}  // namespace

void write_text_report(std::ostream& out, const crawl_result& result, const crawl_options& options,
                       bool errors_only) {
  if (errors_only) {
    write_links(out, "Broken links", result.broken);
    write_links(out, "Warnings", result.warnings);
    write_links(out, "Rate limited (429)", result.rate_limited);
    write_unchecked(out, result.unchecked);
    out << verdict(result, options.fail_on_rate_limit) << '\n';
    return;
  }
  out << "*** Report ***\n";
  for (const auto& record : result.records)
    write_url_line(out, record);
  write_links(out, "Broken links", result.broken);
  write_links(out, "Warnings", result.warnings);
  write_links(out, "Rate limited (429)", result.rate_limited);
  write_unchecked(out, result.unchecked);
  write_skipped(out, result.skipped);
  write_orphans(out, result.orphans);

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
  out << verdict(result, options.fail_on_rate_limit) << '\n';
}

}  // namespace corocrawl
