// The human report, the seed's "*** Report ***" in spirit: a line per URL, the broken links
// with the pages that link to them, the counters and a one-line verdict.
#include <cstdio>
#include <string>

#include "corocrawl/report.hpp"

namespace corocrawl {

namespace {

std::string status_text(const fetch_record& r) {
  return r.status ? std::to_string(*r.status) : std::string("error");
}

void write_url_line(std::ostream& out, const fetch_record& r) {
  out << r.url << ' ' << status_text(r);
  if (!r.status) {
    out << ' ' << r.error.value_or("failed") << " (" << r.tries
        << (r.tries == 1 ? " try)" : " tries)");
  } else if (r.next_url) {
    out << " redirect " << *r.next_url;
    if (r.error) out << " (" << *r.error << ')';
  } else {
    out << ' ' << r.content_type.value_or("-") << ' ' << r.encoding.value_or("-") << ' ' << r.size;
    if (r.num_urls > 0) out << ' ' << r.num_new_urls << '/' << r.num_urls;
    if (r.error) out << " (" << *r.error << ')';
  }
  out << '\n';
}

void write_links(std::ostream& out, std::string_view title, const std::vector<broken_link>& links) {
  if (links.empty()) return;
  out << title << " (" << links.size() << "):\n";
  for (const auto& b : links) {
    out << "  " << b.url << ' ' << (b.status ? std::to_string(*b.status) : std::string("error"));
    if (b.error) out << ' ' << *b.error;
    out << '\n';
    for (const auto& referrer : b.referrers)
      out << "    linked from " << referrer << '\n';
  }
}

std::string count_of(std::size_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

void write_verdict(std::ostream& out, const crawl_result& result, bool fail_on_rate_limit) {
  const auto urls = result.records.size();
  const auto broken = result.broken.size();
  const auto limited = result.rate_limited.size();
  if (result.interrupted)
    out << "INTERRUPTED: stopped after " << count_of(urls, "URL") << ", " << broken
        << " broken so far\n";
  else if (result.timed_out)
    out << "TIMED OUT: stopped by --max-time after " << count_of(urls, "URL") << ", " << broken
        << " broken so far\n";
  else if (broken > 0)
    out << "FAILED: " << count_of(broken, "broken URL") << " of " << urls << " checked\n";
  else if (fail_on_rate_limit && limited > 0)
    out << "FAILED: " << count_of(limited, "rate-limited URL") << " of " << urls << " checked\n";
  else
    out << "PASSED: " << count_of(urls, "URL") << " checked, nothing broken"
        << (limited > 0 ? " (" + std::to_string(limited) + " rate limited)" : "") << "\n";
}

}  // namespace

void write_text_report(std::ostream& out, const crawl_result& result, const crawl_options& options,
                       bool errors_only) {
  if (errors_only) {
    write_links(out, "Broken links", result.broken);
    write_links(out, "Rate limited (429)", result.rate_limited);
    write_verdict(out, result, options.fail_on_rate_limit);
    return;
  }
  out << "*** Report ***\n";
  for (const auto& record : result.records)
    write_url_line(out, record);
  write_links(out, "Broken links", result.broken);
  write_links(out, "Rate limited (429)", result.rate_limited);

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
  for (const auto& [key, count] : compute_stats(result.records)) {
    char line[96];
    std::snprintf(line, sizeof line, "%10llu %s\n", static_cast<unsigned long long>(count),
                  key.c_str());
    out << line;
  }
  write_verdict(out, result, options.fail_on_rate_limit);
}

}  // namespace corocrawl
