#include "outputs.hpp"

#include <algorithm>

#include "corocrawl/errors.hpp"

namespace corocrawl::cli {
namespace {

output_request parse_request(std::string_view setting) {
  // Kept as "FORMAT:FILE" by the outputs option kind, FORMAT checked there.
  const auto colon = setting.find(':');
  const auto format_name = setting.substr(0, colon);
  const auto file = setting.substr(colon + 1);
  const auto format = std::ranges::find(report_format_names, format_name);
  output_request request{static_cast<report_format>(format - report_format_names.begin())};
  if (file != "-") request.path = std::string(file);
  return request;
}

std::string name_of(const output_request& r) {
  return std::string(report_format_names[static_cast<std::size_t>(r.format)]);
}

}  // namespace

std::string_view output_name(report_format format) {
  switch (format) {
    case report_format::text:
      return "the report";
    case report_format::json:
      return "the JSON summary";
    case report_format::junit:
      return "the JUnit report";
    case report_format::markdown:
      return "the Markdown report";
    case report_format::github:
      return "the GitHub annotations";
    case report_format::sarif:
      return "the SARIF log";
  }
  return "the output";
}

std::vector<output_request> output_requests(const settings& s) {
  std::vector<output_request> requests;
  for (const std::string& setting : s.outputs)
    requests.push_back(parse_request(setting));
  if (s.json_path) {
    output_request json{report_format::json};
    json.option = "--json";
    if (*s.json_path != "-") json.path = *s.json_path;
    requests.push_back(json);
  }

  const output_request* on_stdout = nullptr;
  for (const auto& r : requests) {
    if (r.path) {
      const auto same = [&](const output_request& other) { return other.path == r.path; };
      if (std::ranges::count_if(requests, same) > 1)
        throw config_error("--output: \"" + *r.path + "\" is named by two outputs");
      continue;
    }
    if (on_stdout != nullptr) {
      throw config_error("--output: only one output can go to stdout, and " + name_of(*on_stdout) +
                         " and " + name_of(r) + " both do (give one of them a FILE)");
    }
    on_stdout = &r;
  }

  const bool text_asked = std::ranges::any_of(
      requests, [](const output_request& r) { return r.format == report_format::text; });
  if (s.report != report_mode::none && !text_asked) {
    requests.push_back(
        {report_format::text, std::nullopt, on_stdout != nullptr ? stream::err : stream::out});
  }
  return requests;
}

}  // namespace corocrawl::cli
