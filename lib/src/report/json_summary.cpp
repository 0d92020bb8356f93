// The corocrawl-summary/1 document. It is written piece by piece, one URL record at a time,
// so a crawl of a million URLs never holds the whole document in memory.
#include <boost/json.hpp>
#include <cmath>
#include <cstdio>

#include "corocrawl/report.hpp"
#include "report/config_echo.hpp"
#include "report/json_text.hpp"

namespace corocrawl {

namespace json = boost::json;

namespace {

json::value optional_text(const std::optional<std::string>& value) {
  if (!value) return nullptr;
  return json_text(*value);
}

json::value optional_number(const std::optional<unsigned>& value) {
  if (!value) return nullptr;
  return *value;
}

json::object url_object(const fetch_record& r) {
  return {{"url", json_text(r.url)},
          {"status", optional_number(r.status)},
          {"next_url", optional_text(r.next_url)},
          {"error", optional_text(r.error)},
          {"tries", r.tries},
          {"size", r.size},
          {"content_type", optional_text(r.content_type)},
          {"encoding", optional_text(r.encoding)},
          {"num_urls", r.num_urls},
          {"num_new_urls", r.num_new_urls},
          {"referrer", optional_text(r.referrer)},
          {"external", r.external},
          {"method", json_text(r.method)},
          {"cached", r.cached}};
}

json::array text_array(const std::vector<std::string>& texts) {
  json::array array;
  for (const auto& text : texts)
    array.emplace_back(json_text(text));
  return array;
}

json::array sources_array(const std::vector<link_source>& sources) {
  json::array array;
  for (const auto& s : sources) {
    array.emplace_back(json::object{{"page", json_text(s.page)},
                                    {"element", json_text(s.element)},
                                    {"attribute", json_text(s.attribute)},
                                    {"line", s.line},
                                    {"column", s.column}});
  }
  return array;
}

json::object broken_object(const broken_link& b) {
  return {{"url", json_text(b.url)},
          {"status", optional_number(b.status)},
          {"error", optional_text(b.error)},
          {"external", b.external},
          {"referrers", text_array(b.referrers)},
          {"sources", sources_array(b.sources)}};
}

json::object unchecked_object(const unchecked_url& u) {
  return {{"url", json_text(u.url)},
          {"referrer", optional_text(u.referrer)},
          {"reason", optional_text(u.reason)}};
}

json::object skipped_object(const skipped_url& s) {
  return {{"url", json_text(s.url)},
          {"reason", json_text(s.reason)},
          {"referrer", optional_text(s.referrer)},
          {"referrers", text_array(s.referrers)},
          {"sources", sources_array(s.sources)}};
}

// A JSON array written one element per line, one element at a time; stops early once the
// stream has failed (the caller reports the failure).
template <typename Range, typename ToObject>
void write_array(std::ostream& out, const Range& items, ToObject to_object) {
  out << '[';
  const char* separator = "\n";
  for (const auto& item : items) {
    if (!out) return;
    out << separator << json::serialize(to_object(item));
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
    roots.emplace_back(json_text(root));
  json::object stats;
  for (const auto& [key, count] : result_stats(result))
    stats[json_text(key)] = count;

  out << "{\"schema\":\"corocrawl-summary/1\",\n"
      << "\"roots\":" << json::serialize(roots) << ",\n"
      << "\"config\":" << json::serialize(config_echo(options)) << ",\n"
      << "\"elapsed_seconds\":" << three_decimals(result.elapsed.count()) << ",\n"
      << "\"interrupted\":" << (result.interrupted ? "true" : "false") << ",\n"
      << "\"timed_out\":" << (result.timed_out ? "true" : "false") << ",\n"
      << "\"failure\":"
      << (result.failure ? json::serialize(json::value(json_text(*result.failure))) : "null")
      << ",\n"
      << "\"passed\":" << (passed(result, options.fail_on_rate_limit) ? "true" : "false") << ",\n"
      << "\"stats\":" << json::serialize(stats) << ",\n"
      << "\"connections\":{\"opened\":" << result.connections << ",\"requests\":" << result.requests
      << ",\"requests_per_connection\":" << per_connection(result) << "},\n"
      << "\"urls\":";
  write_array(out, result.records, url_object);
  out << ",\n\"broken\":";
  write_array(out, result.broken, broken_object);
  out << ",\n\"warnings\":";
  write_array(out, result.warnings, broken_object);
  out << ",\n\"rate_limited\":";
  write_array(out, result.rate_limited, broken_object);
  out << ",\n\"unchecked\":";
  write_array(out, result.unchecked, unchecked_object);
  out << ",\n\"skipped\":";
  write_array(out, result.skipped, skipped_object);
  out << ",\n\"orphans\":";
  write_array(out, result.orphans, [](const std::string& url) { return json_text(url); });
  out << "}\n";
}

}  // namespace corocrawl
