// --baseline's file: the broken URLs of an earlier crawl's JSON summary.
#include "config/baseline_file.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <fstream>
#include <iterator>

#include "corocrawl/errors.hpp"

namespace corocrawl {

namespace json = boost::json;

namespace {

[[noreturn]] void baseline_error(std::string_view name, const std::filesystem::path& file,
                                 std::string_view why) {
  throw config_error(std::string(name) + ": \"" + file.string() + "\" " + std::string(why));
}

}  // namespace

std::vector<std::string> read_baseline(std::string_view name, const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) baseline_error(name, file, "cannot be read");
  const std::string text{std::istreambuf_iterator<char>(in), {}};
  if (in.bad()) baseline_error(name, file, "cannot be read");

  boost::system::error_code ec;
  const json::value doc = json::parse(text, ec);
  if (ec) baseline_error(name, file, "is not JSON: " + ec.message());
  const auto* summary = doc.if_object();
  const auto* schema = summary ? summary->if_contains("schema") : nullptr;
  if (!schema || !schema->is_string() || schema->get_string() != "corocrawl-summary/1")
    baseline_error(name, file, "is not a corocrawl JSON summary (schema corocrawl-summary/1)");
  const auto* broken = summary->if_contains("broken");
  if (!broken || !broken->is_array()) baseline_error(name, file, "has no \"broken\" list");

  std::vector<std::string> names;
  for (const json::value& entry : broken->get_array()) {
    const auto* object = entry.if_object();
    const auto* named = object ? object->if_contains("file") : nullptr;
    if (!named && object) named = object->if_contains("url");
    if (!named || !named->is_string())
      baseline_error(name, file, "has a broken entry without a \"url\"");
    names.emplace_back(named->get_string());
  }
  std::ranges::sort(names);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace corocrawl
