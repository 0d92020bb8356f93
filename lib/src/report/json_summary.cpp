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

// Folder mode's "file" beside a URL: the file it names (file_of in report.hpp), for URLs
// under a folder root.
class file_names {
 public:
  explicit file_names(const crawl_result& result) : result_(result) {
    if (!result.folders.empty()) cwd_ = std::filesystem::current_path();
  }
  void add(json::object& object, std::string_view url) const {
    if (result_.folders.empty()) return;
    if (const auto file = file_of(result_, url, cwd_)) object["file"] = json_text(*file);
  }

 private:
  const crawl_result& result_;
  std::filesystem::path cwd_;
};

json::object url_object(const fetch_record& r, const file_names& files) {
  json::object object{{"url", json_text(r.url)},
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
  files.add(object, r.url);
  return object;
}

json::array text_array(const std::vector<std::string>& texts) {
  json::array array;
  for (const auto& text : texts)
    array.emplace_back(json_text(text));
  return array;
}

json::array sources_array(const std::vector<link_source>& sources, const file_names& files) {
  json::array array;
  for (const auto& s : sources) {
    json::object source{{"page", json_text(s.page)},
                        {"element", json_text(s.element)},
                        {"attribute", json_text(s.attribute)},
                        {"line", s.line},
                        {"column", s.column}};
    files.add(source, s.page);
    array.emplace_back(std::move(source));
  }
  return array;
}

json::object broken_object(const broken_link& b, const file_names& files) {
  json::object object{{"url", json_text(b.url)},
                      {"status", optional_number(b.status)},
                      {"error", optional_text(b.error)},
                      {"external", b.external},
                      {"referrers", text_array(b.referrers)},
                      {"sources", sources_array(b.sources, files)}};
  files.add(object, b.url);
  return object;
}

json::object unchecked_object(const unchecked_url& u, const file_names& files) {
  json::object object{{"url", json_text(u.url)},
                      {"referrer", optional_text(u.referrer)},
                      {"reason", optional_text(u.reason)}};
  files.add(object, u.url);
  return object;
}

json::object skipped_object(const skipped_url& s, const file_names& files) {
  json::object object{{"url", json_text(s.url)},
                      {"reason", json_text(s.reason)},
                      {"referrer", optional_text(s.referrer)},
                      {"referrers", text_array(s.referrers)},
                      {"sources", sources_array(s.sources, files)}};
  files.add(object, s.url);
  return object;
}

// A JSON array written one element per line, one element at a time; stops early once the
// stream has failed (the caller reports the failure).
template <typename Range, typename ToObject>
void write_array(std::ostream& out, const Range& items, ToObject to_object,
                 const file_names& files) {
  out << '[';
  const char* separator = "\n";
  for (const auto& item : items) {
    if (!out) return;
    out << separator << json::serialize(to_object(item, files));
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
  const file_names files(result);
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
  write_array(out, result.records, url_object, files);
  out << ",\n\"broken\":";
  write_array(out, result.broken, broken_object, files);
  out << ",\n\"warnings\":";
  write_array(out, result.warnings, broken_object, files);
  out << ",\n\"rate_limited\":";
  write_array(out, result.rate_limited, broken_object, files);
  out << ",\n\"unchecked\":";
  write_array(out, result.unchecked, unchecked_object, files);
  out << ",\n\"skipped\":";
  write_array(out, result.skipped, skipped_object, files);
  if (result.baseline) {
    // The broken URLs as the baseline splits them; "broken" above lists them all.
    json::array fresh, known, fixed;
    for (const auto& link : result.broken)
      (is_known(result, link.url) ? known : fresh).emplace_back(json_text(link.url));
    for (const auto& name : result.baseline->fixed)
      fixed.emplace_back(json_text(name));
    out << ",\n\"baseline\":" << json::serialize(json::value(json_text(result.baseline->file)))
        << ",\n\"new\":" << json::serialize(fresh) << ",\n\"known\":" << json::serialize(known)
        << ",\n\"fixed\":" << json::serialize(fixed);
  }
  out << ",\n\"orphans\":";
  write_array(
      out, result.orphans, [](const std::string& url, const file_names&) { return json_text(url); },
      files);
  out << "}\n";
}

}  // namespace corocrawl
