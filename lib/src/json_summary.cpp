// The corocrawl-summary/1 document. It is written piece by piece, one URL record at a time,
// so a crawl of a million URLs never holds the whole document in memory.
#include <boost/json.hpp>
#include <cmath>
#include <cstdio>

#include "corocrawl/report.hpp"

namespace corocrawl {

namespace json = boost::json;

namespace {

template <typename T>
json::value optional_value(const std::optional<T>& v) {
  if (!v) return nullptr;
  return json::value_from(*v);
}

json::object url_object(const fetch_record& r) {
  return {{"url", r.url},
          {"status", optional_value(r.status)},
          {"next_url", optional_value(r.next_url)},
          {"error", optional_value(r.error)},
          {"tries", r.tries},
          {"size", r.size},
          {"content_type", optional_value(r.content_type)},
          {"encoding", optional_value(r.encoding)},
          {"num_urls", r.num_urls},
          {"num_new_urls", r.num_new_urls},
          {"referrer", optional_value(r.referrer)}};
}

json::object broken_object(const broken_link& b) {
  json::array referrers;
  for (const auto& referrer : b.referrers)
    referrers.emplace_back(referrer);
  return {{"url", b.url},
          {"status", optional_value(b.status)},
          {"error", optional_value(b.error)},
          {"referrers", std::move(referrers)}};
}

json::object config_object(const crawl_options& options) {
  json::array exclude;
  for (const auto& pattern : options.exclude)
    exclude.emplace_back(pattern);
  return {{"max_tasks", options.max_tasks},
          {"max_redirect", options.max_redirect},
          {"max_tries", options.max_tries},
          {"strict", options.strict},
          {"exclude", std::move(exclude)}};
}

void write_links(std::ostream& out, const std::vector<broken_link>& links) {
  out << '[';
  const char* separator = "\n";
  for (const auto& link : links) {
    out << separator << json::serialize(broken_object(link));
    separator = ",\n";
  }
  out << ']';
}

// Boost.JSON writes doubles in exponent form ("1.234E0"); seconds read better as "1.234".
std::string three_decimals(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", std::isfinite(value) ? value : 0.0);
  return text;
}

std::string per_connection(const crawl_result& result) {
  if (result.connections == 0) return "0.000";
  return three_decimals(static_cast<double>(result.requests) /
                        static_cast<double>(result.connections));
}

}  // namespace

void write_json_summary(std::ostream& out, const crawl_result& result,
                        const crawl_options& options) {
  json::array roots;
  for (const auto& root : result.roots)
    roots.emplace_back(root);
  json::object stats;
  for (const auto& [key, count] : compute_stats(result.records))
    stats[key] = count;

  out << "{\"schema\":\"corocrawl-summary/1\",\n"
      << "\"roots\":" << json::serialize(roots) << ",\n"
      << "\"config\":" << json::serialize(config_object(options)) << ",\n"
      << "\"elapsed_seconds\":" << three_decimals(result.elapsed.count()) << ",\n"
      << "\"interrupted\":" << (result.interrupted ? "true" : "false") << ",\n"
      << "\"timed_out\":" << (result.timed_out ? "true" : "false") << ",\n"
      << "\"passed\":" << (passed(result, options.fail_on_rate_limit) ? "true" : "false") << ",\n"
      << "\"stats\":" << json::serialize(stats) << ",\n"
      << "\"connections\":{\"opened\":" << result.connections << ",\"requests\":" << result.requests
      << ",\"requests_per_connection\":" << per_connection(result) << "},\n"
      << "\"urls\":[";
  const char* separator = "\n";
  for (const auto& record : result.records) {
    out << separator << json::serialize(url_object(record));
    separator = ",\n";
  }
  out << "],\n\"broken\":";
  write_links(out, result.broken);
  out << ",\n\"rate_limited\":";
  write_links(out, result.rate_limited);
  out << "}\n";
}

}  // namespace corocrawl
