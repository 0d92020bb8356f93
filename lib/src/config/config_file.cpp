// The corocrawl.toml reader: reads a config file (never waiting on a FIFO, never more than
// max_config_file_size), parses it as TOML and reads each key as its option's kind takes it.

#include <fcntl.h>
#include <sys/stat.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "config/config_detail.hpp"
#include "config/key_suggestion.hpp"
#include "config/toml_values.hpp"
#include "corocrawl/config.hpp"
#include "corocrawl/errors.hpp"
#include "corocrawl/option_table.hpp"
#include "sys/unique_fd.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

using namespace detail;  // the helpers config_detail.hpp shares

[[noreturn]] void fail_reading(const std::string& display, int error) {
  fail(display + ": cannot read config file: " + std::system_category().message(error));
}

/// The file's content, at most max_config_file_size bytes. Opening never waits (O_NONBLOCK:
/// a FIFO without a writer would block open); reads then block as for any reader, so that a
/// pipe is read until its writer closes it.
std::string read_file(const fs::path& file, const std::string& display) {
  const unique_fd fd(::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd) {
    if (errno == ENOENT) fail(display + ": no such config file");
    fail_reading(display, errno);
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) fail_reading(display, errno);
  if (S_ISDIR(info.st_mode)) fail(display + ": is a directory, not a config file");
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) {
    fail_reading(display, errno);
  }

  std::string content;
  if (const auto ec = read_up_to(fd.get(), max_config_file_size, content))
    fail_reading(display, ec.value());
  if (content.size() > max_config_file_size) {
    fail(display + ": more than " + std::to_string(max_config_file_size) +
         " bytes (1 MiB), too large for a config file");
  }
  // A FIFO no process has opened for writing reads as empty at once: an error, not a silent
  // empty config (its writer may simply not have started yet).
  if (content.empty() && S_ISFIFO(info.st_mode)) {
    fail(display + ": nothing to read: the FIFO has no writer (or its writer wrote nothing)");
  }
  return content;
}

}  // namespace

std::vector<given_value> read_config_file(const fs::path& file,
                                          std::span<const option_spec* const> specs) {
  const std::string display = file.string();
  const std::string content = read_file(file, display);
  toml::table table;
  try {
    table = toml::parse(content, display);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    fail(display + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) +
         ": TOML syntax error: " + std::string(e.description()));
  }
  const toml_values values(display, fs::absolute(file).parent_path());
  std::vector<std::string_view> known_keys;
  for (const option_spec* spec : specs)
    if (!spec->key.empty()) known_keys.push_back(spec->key);

  std::vector<given_value> given;
  for (const auto& [key_node, node] : table) {
    const std::string_view key = key_node.str();
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const option_spec* s) {
      return !s->key.empty() && s->key == key;
    });
    if (spec == specs.end()) {
      values.fail_at(key_node.source(),
                     "unknown key " + quoted(key) + suggestion_for(key, known_keys));
    }
    given.push_back(
        {static_cast<std::size_t>(spec - specs.begin()), values.read(**spec, key, node)});
  }
  return given;
}

void apply_config_file(const fs::path& file, crawl_options& into) {
  apply_config_file(file, crawl_option_table(), into);
}

}  // namespace corocrawl
