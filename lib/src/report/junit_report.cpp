#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "corocrawl/report.hpp"
#include "corocrawl/utf8.hpp"
#include "report/problem_text.hpp"

namespace corocrawl {

namespace {

// XML character data and attribute values: markup characters as entities, and the characters
// XML 1.0 forbids (C0 controls but tab, LF and CR) as U+FFFD.
std::string xml(std::string_view text) {
  std::string out;
  for (const char c : to_valid_utf8(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      // As references, which attribute values keep (a parser turns a literal tab or line
      // break there into a space).
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += "\xEF\xBF\xBD";
        else
          out += c;
    }
  }
  return out;
}

std::string places(const broken_link& link, const page_locator& locate) {
  std::string text;
  for (const link_source* s : distinct_places(link.sources, locate)) {
    text += place_text(*s, locate) + "\n";
  }
  if (link.sources.empty()) {
    for (const auto& referrer : link.referrers)
      text += "linked from " + locate(referrer) + "\n";
  }
  return text;
}

// Reads a problem list alongside the records: both are sorted by URL, so each problem is
// built once, when the records reach it.
class problem_cursor {
 public:
  explicit problem_cursor(const broken_list& links) : links_(links) {}
  /// The problem of `url`, if any; `url` must not sort before the one asked about last.
  const broken_link* find(std::string_view url) {
    while ((!current_ || current_->url < url) && next_ < links_.size())
      current_ = links_[next_++];
    return current_ && current_->url == url ? &*current_ : nullptr;
  }

 private:
  const broken_list& links_;
  std::size_t next_ = 0;
  std::optional<broken_link> current_;
};

void open_case(std::ostream& out, std::string_view url) {
  out << "    <testcase classname=\"corocrawl\" name=\"" << xml(url) << "\"";
}

void write_problem(std::ostream& out, std::string_view element, const broken_link& link,
                   const page_locator& locate) {
  open_case(out, locate(link.url));
  out << ">\n      <" << element << " type=\"" << (element == "failure" ? "broken" : "error")
      << "\" message=\"" << xml(problem_status(link)) << "\">" << xml(places(link, locate)) << "</"
      << element << ">\n    </testcase>\n";
}

// A broken URL: a failure, or skipped when the baseline knew it (it does not fail the build).
void write_broken(std::ostream& out, const crawl_result& result, const broken_link& link,
                  const page_locator& locate) {
  if (!is_known(result, link.url)) {
    write_problem(out, "failure", link, locate);
    return;
  }
  open_case(out, locate(link.url));
  out << ">\n      <skipped message=\""
      << xml("known broken (in the baseline): " + problem_status(link)) << "\"/>\n"
      << "      <system-out>" << xml(places(link, locate)) << "</system-out>\n    </testcase>\n";
}

// What the baseline had broken and is not now: a suite of its own, every case passing.
void write_fixed(std::ostream& out, const crawl_result& result) {
  if (!result.baseline || result.baseline->fixed.empty()) return;
  const auto& fixed = result.baseline->fixed;
  out << "  <testsuite name=\"fixed since the baseline\" tests=\"" << fixed.size()
      << "\" failures=\"0\" errors=\"0\" skipped=\"0\">\n";
  for (const std::string& name : fixed) {
    open_case(out, name);
    out << "/>\n";
  }
  out << "  </testsuite>\n";
}

// Which records get a test case. In folder mode the URLs of one file ("/" and "/index.html",
// "/blog" and "/blog/") are one test case, named by the file: the broken record's, if any.
std::vector<bool> records_shown(const crawl_result& result, const page_locator& locate) {
  std::vector<bool> shown(result.records.size(), true);
  if (result.folders.empty()) return shown;
  std::vector<bool> broken(result.records.size());
  problem_cursor broken_at(result.broken);
  for (std::size_t i = 0; i < result.records.size(); ++i)
    broken[i] = broken_at.find(result.records[i].url) != nullptr;
  std::unordered_map<std::string, std::size_t> chosen;
  for (std::size_t i = 0; i < result.records.size(); ++i) {
    const auto [it, first] = chosen.try_emplace(locate(result.records[i].url), i);
    if (first) continue;
    if (broken[i] && !broken[it->second]) {
      shown[it->second] = false;
      it->second = i;
    } else {
      shown[i] = false;
    }
  }
  return shown;
}

}  // namespace

void write_junit_report(std::ostream& out, const crawl_result& result, bool fail_on_rate_limit,
                        const page_locator& locate) {
  std::size_t failures = 0;
  const std::vector<bool> shown = records_shown(result, locate);
  std::size_t tests = static_cast<std::size_t>(std::ranges::count(shown, true)) +
                      result.unchecked.size() + result.skipped.size();
  for (const auto& link : result.broken) {
    if (link.url.find('#') != std::string::npos) ++tests;  // a missing fragment: no record
    if (!is_known(result, link.url)) ++failures;
  }
  const std::size_t known = result.baseline ? result.baseline->known.size() : 0;
  const std::size_t fixed = result.baseline ? result.baseline->fixed.size() : 0;
  if (fail_on_rate_limit) failures += result.rate_limited.size();
  char time[32];
  std::snprintf(time, sizeof time, "%.3f", result.elapsed.count());
  std::string name = "corocrawl";
  for (const auto& given : result.roots)
    name += " " + locate(given);

  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"corocrawl\" tests=\"" << tests + fixed << "\" failures=\"" << failures
      << "\" errors=\"" << result.unchecked.size() << "\" time=\"" << time << "\">\n"
      << "  <testsuite name=\"" << xml(name) << "\" tests=\"" << tests << "\" failures=\""
      << failures << "\" errors=\"" << result.unchecked.size() << "\" skipped=\""
      << result.skipped.size() + known << "\" time=\"" << time << "\">\n";
  problem_cursor broken_at(result.broken);
  problem_cursor limited_at(result.rate_limited);
  problem_cursor warning_at(result.warnings);
  for (std::size_t i = 0; i < result.records.size(); ++i) {
    if (!shown[i]) continue;
    const fetch_record record = result.records[i];
    const auto* broken = broken_at.find(record.url);
    const auto* limited = limited_at.find(record.url);
    const auto* warning = warning_at.find(record.url);
    if (broken) {
      write_broken(out, result, *broken, locate);
    } else if (limited && fail_on_rate_limit) {
      write_problem(out, "failure", *limited, locate);
    } else {
      open_case(out, locate(record.url));
      if (!warning) warning = limited;
      if (warning) {
        out << ">\n      <system-out>"
            << xml(problem_status(*warning) + "\n" + places(*warning, locate))
            << "</system-out>\n    </testcase>\n";
      } else {
        out << "/>\n";
      }
    }
  }
  for (const auto& link : result.broken) {
    if (link.url.find('#') != std::string::npos) write_broken(out, result, link, locate);
  }
  for (const auto& unchecked : result.unchecked) {
    open_case(out, locate(unchecked.url));
    out << ">\n      <error type=\"unchecked\" message=\""
        << xml("left unchecked" + (unchecked.reason ? ": " + *unchecked.reason : std::string()))
        << "\"/>\n    </testcase>\n";
  }
  for (const auto& skipped : result.skipped) {
    open_case(out, locate(skipped.url));
    out << ">\n      <skipped message=\"" << xml(skipped.reason) << "\"/>\n    </testcase>\n";
  }
  out << "  </testsuite>\n";
  write_fixed(out, result);
  out << "</testsuites>\n";
}

}  // namespace corocrawl
