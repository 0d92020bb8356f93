// Reading and writing corocrawl-cache/1 (cache_file.hpp). Reading trusts nothing: the file
// may be from another version, cut by a full disk elsewhere, or edited by hand.

#include "cache/cache_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cerrno>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "corocrawl/utf8.hpp"
#include "sys/unique_fd.hpp"

namespace corocrawl {
namespace {

namespace json = boost::json;

/// The entry `value` describes, or why it is not one.
std::variant<cache_entry, std::string> entry_of(const json::value& value) {
  const auto* fields = value.if_object();
  if (fields == nullptr) return "not an object";
  cache_entry entry;
  const auto* status = fields->if_contains("status");
  if (status == nullptr || !status->is_int64() || status->as_int64() < 200 ||
      status->as_int64() > 299) {
    return "\"status\" must be a number from 200 to 299";
  }
  entry.status = static_cast<unsigned>(status->as_int64());
  const auto* checked = fields->if_contains("checked");
  if (checked == nullptr || !checked->is_int64()) {
    return "\"checked\" must be a whole number of seconds";
  }
  entry.checked = std::chrono::sys_seconds(std::chrono::seconds(checked->as_int64()));
  const auto* method = fields->if_contains("method");
  if (method == nullptr || !method->is_string() ||
      (method->as_string() != "GET" && method->as_string() != "HEAD")) {
    return "\"method\" must be \"GET\" or \"HEAD\"";
  }
  entry.head = method->as_string() == "HEAD";
  for (auto [key, into] :
       {std::pair{"content_type", &entry.content_type}, std::pair{"encoding", &entry.encoding}}) {
    const auto* text = fields->if_contains(key);
    if (text == nullptr || text->is_null()) continue;
    if (!text->is_string()) return "\"" + std::string(key) + "\" must be a string or null";
    *into = std::string(text->as_string());
  }
  return entry;
}

cache_contents problem(std::string what) {
  return {.entries = {}, .problem = std::move(what)};
}

}  // namespace

cache_contents parse_cache(std::string_view text) {
  json::error_code ec;
  const json::value document = json::parse(text, ec);
  if (ec) return problem("not JSON: " + ec.message());
  const auto* top = document.if_object();
  const auto* format = top ? top->if_contains("format") : nullptr;
  if (format == nullptr || !format->is_string() || format->as_string() != cache_format) {
    return problem("not a corocrawl cache (\"format\" is not \"" + std::string(cache_format) +
                   "\")");
  }
  const auto* listed = top->if_contains("entries");
  if (listed == nullptr || !listed->is_object()) return problem("\"entries\" is not an object");
  cache_contents read;
  for (const auto& [url, value] : listed->as_object()) {
    auto entry = entry_of(value);
    if (auto* why = std::get_if<std::string>(&entry)) {
      return problem("entry \"" + to_valid_utf8(url.substr(0, 200)) + "\": " + *why);
    }
    read.entries.insert_or_assign(std::string(url), std::get<cache_entry>(std::move(entry)));
  }
  return read;
}

std::string cache_text(const cache_entries& entries) {
  std::vector<const cache_entries::value_type*> sorted;
  sorted.reserve(entries.size());
  for (const auto& entry : entries)
    sorted.push_back(&entry);
  std::ranges::sort(sorted, {},
                    [](const auto* entry) -> const std::string& { return entry->first; });

  std::string out = "{\"format\":\"" + std::string(cache_format) + "\",\"entries\":{";
  const char* separator = "\n";
  for (const auto* entry : sorted) {
    const auto& [url, e] = *entry;
    json::object fields{{"status", e.status},
                        {"checked", e.checked.time_since_epoch().count()},
                        {"method", e.head ? "HEAD" : "GET"}};
    for (auto [key, text] :
         {std::pair{"content_type", &e.content_type}, std::pair{"encoding", &e.encoding}}) {
      if (*text) {
        fields[key] = to_valid_utf8(**text);
      } else {
        fields[key] = nullptr;
      }
    }
    out += separator;
    out += json::serialize(json::string(to_valid_utf8(url)));
    out += ':';
    out += json::serialize(fields);
    separator = ",\n";
  }
  out += "\n}}\n";
  return out;
}

cache_contents read_cache_file(const std::filesystem::path& path) {
  // Not waiting on a FIFO that nobody writes to: only a regular file is read.
  const unique_fd fd{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (!fd.is_open()) {
    if (errno == ENOENT) return {};
    return problem("cannot read it: " + last_error().message());
  }
  struct stat file {};
  if (::fstat(fd.get(), &file) != 0) return problem("cannot read it: " + last_error().message());
  if (!S_ISREG(file.st_mode)) return problem("not a regular file");
  std::string text;
  if (const auto ec = read_up_to(fd.get(), max_cache_file_size, text)) {
    return problem("cannot read it: " + ec.message());
  }
  if (text.size() > max_cache_file_size) {
    return problem("larger than " + std::to_string(max_cache_file_size >> 20) + " MiB");
  }
  return parse_cache(text);
}

void merge_entries(cache_entries& into, const cache_entries& from) {
  for (const auto& [url, entry] : from) {
    const auto [it, added] = into.try_emplace(url, entry);
    if (!added && it->second.checked < entry.checked) it->second = entry;
  }
}

}  // namespace corocrawl
