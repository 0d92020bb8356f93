#include <boost/json.hpp>
#include <ostream>
#include <string>
#include <string_view>

#include "corocrawl/report.hpp"
#include "corocrawl/version.hpp"
#include "report/json_text.hpp"
#include "report/problem_text.hpp"

namespace corocrawl {

namespace json = boost::json;

namespace {

constexpr const char* schema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

json::object rule(std::string_view id, std::string_view description) {
  return {{"id", id}, {"shortDescription", {{"text", description}}}};
}

// A page as an artifactLocation's "uri", which is a URI reference: a URL as it is (normalised
// already), a file path with every byte outside RFC 3986's pchar set and "/" escaped
// ("site/a b.html" is "site/a%20b.html").
std::string artifact_uri(std::string_view page, std::string_view located) {
  if (located == page) return std::string(page);
  static constexpr std::string_view allowed =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/";
  std::string uri;
  for (const char c : located) {
    if (allowed.find(c) != std::string_view::npos) {
      uri += c;
    } else {
      constexpr std::string_view hex = "0123456789ABCDEF";
      const auto byte = static_cast<unsigned char>(c);
      uri += '%';
      uri += hex[byte >> 4];
      uri += hex[byte & 0xF];
    }
  }
  return uri;
}

json::object location(std::string_view page, std::uint32_t line, std::uint32_t column,
                      const page_locator& locate) {
  const std::string uri = artifact_uri(page, locate(page));
  json::object physical{{"artifactLocation", {{"uri", json_text(uri)}}}};
  if (line > 0) physical["region"] = {{"startLine", line}, {"startColumn", column}};
  return {{"physicalLocation", std::move(physical)}};
}

// Writes a result per place of each of `links`, each after `separator` (then ",").
void write_results(std::ostream& out, std::string_view& separator, const broken_list& links,
                   bool error, const page_locator& locate, const crawl_result& result) {
  for (const auto& link : links) {
    const bool fragment = link.error == "missing fragment";
    const std::string_view rule_id = !error     ? "link-warning"
                                     : fragment ? "missing-fragment"
                                                : "broken-link";
    const auto write = [&](const link_source* source, json::array locations) {
      json::object one{{"ruleId", rule_id},
                       {"level", error ? "error" : "warning"},
                       {"message", {{"text", json_text(problem_message(link, source, locate))}}},
                       {"locations", std::move(locations)}};
      // SARIF's own word for what a baseline knew: "unchanged"; else "new".
      if (result.baseline) one["baselineState"] = is_known(result, link.url) ? "unchanged" : "new";
      out << separator << json::serialize(one);
      separator = ",";
    };
    for (const link_source* source : distinct_places(link.sources, locate))
      write(source, json::array{location(source->page, source->line, source->column, locate)});
    if (link.sources.empty()) {
      json::array locations;
      if (!link.referrers.empty())
        locations.push_back(location(link.referrers.front(), 0, 0, locate));
      write(nullptr, std::move(locations));
    }
  }
}

}  // namespace

void write_sarif_report(std::ostream& out, const crawl_result& result, const page_locator& locate) {
  const json::object driver{
      {"name", "corocrawl"},
      {"version", version},
      {"informationUri", project_url},
      {"rules",
       json::array{
           rule("broken-link", "A link or reference to a URL that is broken"),
           rule("missing-fragment", "A link to a #fragment that its page does not have"),
           rule("link-warning", "A link whose status is reported as a warning, or rate limited")}}};
  // One log, one run: written a result at a time, as there may be millions.
  out << R"({"$schema":)" << json::serialize(json::string(schema))
      << R"(,"version":"2.1.0","runs":[{"tool":)"
      << json::serialize(json::object{{"driver", driver}}) << R"(,"results":[)";
  std::string_view separator = "";
  write_results(out, separator, result.broken, true, locate, result);
  write_results(out, separator, result.warnings, false, locate, result);
  write_results(out, separator, result.rate_limited, false, locate, result);
  out << "]}]}\n";
}

}  // namespace corocrawl
