#include "sys/spill_file.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>

namespace corocrawl {

void warn_cannot_spill(std::string_view what, const std::error_code& error) {
  spdlog::warn("cannot spill {} to a temporary file in {} ({}): keeping them in memory", what,
               spill_file::directory(), error.message());
}

std::string spill_file::directory() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

std::optional<spill_file> spill_file::create(std::error_code& error) {
  const std::string dir = directory();
  // O_TMPFILE makes the file without a name; where the file system does not support it, a
  // named file is made and unlinked at once.
  unique_fd fd{::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)};
  if (!fd && (errno == EOPNOTSUPP || errno == EISDIR)) {
    std::string name = dir + "/corocrawl-spill-XXXXXX";
    fd = unique_fd{::mkostemp(name.data(), O_CLOEXEC)};
    if (fd) ::unlink(name.c_str());
  }
  if (!fd) {
    error = last_error();
    return std::nullopt;
  }
  error.clear();
  return spill_file(std::move(fd));
}

std::error_code spill_file::read_at(std::uint64_t offset, std::span<std::byte> into) const {
  while (!into.empty()) {
    const ::ssize_t got =
        ::pread(fd_.get(), into.data(), into.size(), static_cast<::off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return last_error();
    if (got == 0) return std::make_error_code(std::errc::io_error);  // the file is short
    into = into.subspan(static_cast<std::size_t>(got));
    offset += static_cast<std::uint64_t>(got);
  }
  return {};
}

}  // namespace corocrawl
