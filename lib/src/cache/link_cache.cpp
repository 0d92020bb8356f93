#include "cache/link_cache.hpp"

#include <system_error>
#include <utility>
#include <variant>

#include "corocrawl/output_file.hpp"
#include "sys/file_lock.hpp"

namespace corocrawl {

link_cache::link_cache(std::filesystem::path file, std::chrono::milliseconds max_age)
    : file_(std::move(file)), max_age_(max_age) {}

std::optional<std::string> link_cache::load() {
  cache_contents read = read_cache_file(file_);
  loaded_ = std::move(read.entries);
  if (read.problem) return file_.string() + ": " + *read.problem;
  return std::nullopt;
}

std::optional<cache_entry> link_cache::lookup(std::string_view url, time_point now) const {
  const auto found = loaded_.find(url);
  if (found == loaded_.end() || !within_max_age(found->second, now, false)) return std::nullopt;
  return found->second;
}

void link_cache::remember(const fetch_record& record, time_point now) {
  // A redirect is not an answer of its own, and an error (a body too large) is not a success.
  if (record.cached || record.error || !record.status || *record.status < 200 ||
      *record.status > 299) {
    return;
  }
  learned_.insert_or_assign(record.url,
                            cache_entry{.status = *record.status,
                                        .content_type = record.content_type,
                                        .encoding = record.encoding,
                                        .head = record.method == "HEAD",
                                        .checked = std::chrono::floor<std::chrono::seconds>(now)});
}

std::optional<std::string> link_cache::save(time_point now) const {
  std::filesystem::path lock_file = file_;
  lock_file += ".lock";
  const auto lock = file_lock::acquire(lock_file);
  if (const auto* ec = std::get_if<std::error_code>(&lock)) {
    return "cannot lock " + lock_file.string() + ": " + ec->message();
  }
  // Read again: another run may have saved since load(). A problem was reported by load(),
  // or the file was replaced by something else meanwhile: either way it is replaced.
  cache_entries merged = read_cache_file(file_).entries;
  merge_entries(merged, loaded_);
  std::erase_if(merged,
                [&](const auto& entry) { return !within_max_age(entry.second, now, true); });
  merge_entries(merged, learned_);
  try {
    output_file out(file_);
    out.stream() << cache_text(merged);
    out.commit();
  } catch (const output_error& e) {
    return "cannot write " + file_.string() + ": " + e.code().message();
  }
  return std::nullopt;
}

bool link_cache::within_max_age(const cache_entry& entry, time_point now, bool inclusive) const {
  const auto age = now - entry.checked;
  if (age < age.zero()) return false;
  return inclusive ? age <= max_age_ : age < max_age_;
}

}  // namespace corocrawl
