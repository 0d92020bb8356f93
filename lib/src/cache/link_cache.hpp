#pragma once
// The cache of one crawl (--cache FILE): the OK answers of external URLs from earlier runs,
// reused while younger than the maximum age so that repeated runs (CI) do not fetch other
// sites again, and this run's OK answers, written back at the end.
//
// Concurrent runs may share one file. The file is only ever replaced whole (a temporary file
// renamed over it, output_file), so a reader sees one run's file or another's, never a mix;
// and a save re-reads the file and merges into it under an exclusive lock on FILE.lock, so
// no run loses the entries another saved meanwhile.
//
// A cache is an optimisation, not an input: a file that cannot be read or is not a cache is
// reported and taken as empty (and replaced by the next save), never an error.
//
// Not thread-safe: the crawler uses it on its event loop's thread.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "cache/cache_file.hpp"
#include "corocrawl/record.hpp"

namespace corocrawl {

class link_cache {
 public:
  using time_point = std::chrono::system_clock::time_point;

  /// A cache kept in `file`, whose entries are reused while younger than `max_age`. Reads
  /// nothing yet: see load().
  link_cache(std::filesystem::path file, std::chrono::milliseconds max_age);

  /// Reads the file. Returns why it could not be used ("FILE: not JSON: ..."), then the cache
  /// starts empty; nullopt when it was read or does not exist yet.
  std::optional<std::string> load();

  /// The entry for `url` when it was checked less than the maximum age before `now` (and not
  /// after `now`: a clock set back does not make an entry young for ever).
  std::optional<cache_entry> lookup(std::string_view url, time_point now) const;

  /// Keeps `record`, of an external URL fetched at `now` and judged OK, for later runs when it
  /// is a success: a status 200-299 with no error (not "body too large"), fetched (not taken
  /// from the cache). Anything else (a redirect, a warning, a failure) is left out.
  void remember(const fetch_record& record, time_point now);

  /// Replaces the file, under the lock, by the entries it holds now merged with those loaded
  /// and those remembered: of two entries for one URL the one checked last wins, and of the
  /// file's and the loaded ones those checked more than the maximum age before `now` (or
  /// after it) are dropped. This run's own are always kept, so that a run with a maximum age
  /// of 0 refreshes the cache rather than emptying it. A file that is not a cache is
  /// replaced. Returns why the file could not be locked or written ("cannot write FILE: No
  /// space left on device"), else nullopt; on failure the file is as it was.
  std::optional<std::string> save(time_point now) const;

 private:
  /// Whether `entry` was checked at most `now` and, when `inclusive`, at most max_age_ before
  /// it, else less than max_age_ before it.
  bool within_max_age(const cache_entry& entry, time_point now, bool inclusive) const;

  std::filesystem::path file_;
  std::chrono::milliseconds max_age_;
  cache_entries loaded_;   // from the file, when load() read it
  cache_entries learned_;  // remembered in this run
};

}  // namespace corocrawl
