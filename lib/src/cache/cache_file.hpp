#pragma once
// The cache file's format, corocrawl-cache/1: the OK answers of external URLs with when each
// was fetched, as JSON, one entry per line, sorted by URL:
//
//   {"format":"corocrawl-cache/1","entries":{
//   "https://example.org/":{"status":200,"checked":1764000000,"method":"HEAD",
//                           "content_type":"text/html","encoding":"utf-8"}
//   }}
//
// (each entry on one line). `checked` is in Unix seconds; `content_type` and `encoding` may
// be null or left out. Readers ignore keys they do not
// know, so that fields can be added within the format.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "text/string_hash.hpp"

namespace corocrawl {

/// What the cache remembers of an external URL that was OK.
struct cache_entry {
  unsigned status = 200;                    ///< 200 to 299
  std::optional<std::string> content_type;  ///< as fetch_record has it
  std::optional<std::string> encoding;      ///< as fetch_record has it
  bool head = false;                        ///< the answer to a HEAD, not a GET
  std::chrono::sys_seconds checked{};       ///< when it was fetched
  friend bool operator==(const cache_entry&, const cache_entry&) = default;
};

/// The entries by URL, searched with a string_view.
using cache_entries = std::unordered_map<std::string, cache_entry, string_hash, std::equal_to<>>;

inline constexpr std::string_view cache_format = "corocrawl-cache/1";

/// Cache files are read up to this size; a larger one is not read. A million entries take
/// about 100 MB.
inline constexpr std::size_t max_cache_file_size = std::size_t{1} << 30;

/// What a cache file holds, or why it holds nothing usable.
struct cache_contents {
  cache_entries entries;
  /// Why the file was not read ("not JSON: ...", "entry \"URL\": ..."); then entries is empty.
  std::optional<std::string> problem;
};

/// Parses the text of a cache file. Any flaw (not JSON, another format, an entry of the wrong
/// shape or with a status outside 200-299) gives no entries and the first flaw in words: a
/// file half understood is not trusted.
cache_contents parse_cache(std::string_view text);

/// The text of a cache file holding `entries`, ending with a newline. Every string is
/// written as valid UTF-8.
std::string cache_text(const cache_entries& entries);

/// Reads and parses the cache file `path`. A file that does not exist holds no entries and
/// has no problem (the first run); one that cannot be read or is larger than
/// max_cache_file_size has the problem in words, with the system's reason.
cache_contents read_cache_file(const std::filesystem::path& path);

/// Adds the entries of `from` to `into`; of two entries for one URL, the one checked last
/// is kept.
void merge_entries(cache_entries& into, const cache_entries& from);

}  // namespace corocrawl
