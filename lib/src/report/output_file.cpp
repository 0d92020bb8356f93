// Reports and summaries written through a descriptor, so the errno of a failed write is known,
// and replaced by rename(2), so a crash leaves the previous file whole.
#include "corocrawl/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <span>
#include <streambuf>
#include <utility>
#include <vector>

#include "sys/unique_fd.hpp"

namespace corocrawl {

namespace fs = std::filesystem;

namespace {

// An output buffer over a descriptor that keeps the errno of the first failed write; after it,
// every write fails, so the stream goes bad and stays bad.
//
// With `write_back`, for a file that is synced when done, the system is asked to start writing
// each kWriteBackEvery bytes to the disk as they are written (sync_file_range, where there is
// one): the sync then waits for the last of them only, not for the whole file, which the
// system would otherwise keep in memory until asked (the 10k site's summary of 10 MB took 7-9
// ms to sync after it was written). Best effort: the sync reports any failure.
class descriptor_buffer final : public std::streambuf {
 public:
  descriptor_buffer(int fd, bool write_back)
      : fd_(fd), buffer_(64 * 1024), write_back_(write_back) {
    reset_area();
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }

  std::streamsize xsputn(const char* data, std::streamsize size) override {
    if (size <= 0) return 0;  // an empty view's data may be null, which memcpy must not get
    if (size > epptr() - pptr()) {
      if (!drain()) return 0;
      if (size >= epptr() - pptr())
        return write_all(data, static_cast<std::size_t>(size)) ? size : 0;
    }
    std::memcpy(pptr(), data, static_cast<std::size_t>(size));
    pbump(static_cast<int>(size));
    return size;
  }

  int sync() override { return drain() ? 0 : -1; }

 private:
  void reset_area() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }

  bool drain() {
    const auto pending = static_cast<std::size_t>(pptr() - pbase());
    reset_area();
    return write_all(buffer_.data(), pending);
  }

  bool write_all(const char* data, std::size_t size) {
    if (error_ != 0) return false;
    error_ = corocrawl::write_all(fd_, std::as_bytes(std::span(data, size))).value();
    if (error_ != 0) return false;
    written_ += size;
    if (write_back_ && written_ - written_back_ >= kWriteBackEvery) start_write_back();
    return true;
  }

  void start_write_back() {
#if defined(SYNC_FILE_RANGE_WRITE)
    (void)::sync_file_range(fd_, static_cast<off_t>(written_back_),
                            static_cast<off_t>(written_ - written_back_), SYNC_FILE_RANGE_WRITE);
#endif
    written_back_ = written_;
  }

  static constexpr std::uint64_t kWriteBackEvery = 1024 * 1024;
  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
  bool write_back_;
  std::uint64_t written_ = 0;       // bytes written through this buffer
  std::uint64_t written_back_ = 0;  // of them, those the system was asked to write back
};

// The file a chain of symlinks leads to, or nullopt when a link on the way lives in /proc:
// /dev/stdout and /dev/fd/N lead to whatever a descriptor holds (a shell's "> out.txt"), and
// replacing that file would leave the descriptor, and what else is written to it, on a file
// no longer there. Those are written through instead.
std::optional<fs::path> file_behind_symlinks(fs::path current) {
  constexpr int max_links = 40;  // as the kernel's limit on a path walk
  for (int links = 0; links < max_links; ++links) {
    std::error_code ec;
    const auto parent = current.parent_path();
    const auto directory = fs::canonical(parent.empty() ? fs::path(".") : parent, ec);
    if (ec || directory == "/proc" || directory.string().starts_with("/proc/")) return std::nullopt;
    current = directory / current.filename();
    if (!fs::is_symlink(current, ec)) return ec ? std::nullopt : std::optional(current);
    const auto next = fs::read_symlink(current, ec);
    if (ec) return std::nullopt;
    current = next.is_absolute() ? next : directory / next;
  }
  return std::nullopt;
}

// How a path is written: through a temporary file renamed over `path`, or directly.
struct destination {
  bool replace = true;
  fs::path path;                   ///< where the temporary file is renamed to, or what is opened
  std::optional<mode_t> old_mode;  ///< permissions of the file being replaced
};

destination destination_of(const fs::path& path) {
  if (path.empty())
    throw output_error("", std::make_error_code(std::errc::no_such_file_or_directory));
  struct stat target {};
  if (::stat(path.c_str(), &target) != 0) {
    if (errno != ENOENT) throw output_error(path.string(), last_error());
    struct stat link {};
    // A dangling symlink: open() creates the file it names, as a normal create would.
    if (::lstat(path.c_str(), &link) == 0) return {false, path, std::nullopt};
    return {true, path, std::nullopt};  // a new file
  }
  // A device, FIFO or socket cannot be renamed over (and /dev/stdout is a magic link to one);
  // a directory fails when opened, with the system's reason.
  if (!S_ISREG(target.st_mode)) return {false, path, std::nullopt};
  const auto mode = static_cast<mode_t>(target.st_mode & 0777);
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    auto real = file_behind_symlinks(path);
    if (!real) return {false, path, std::nullopt};
    return {true, std::move(*real), mode};
  }
  return {true, path, mode};
}

// A file the user could not write is not replaced either, as open(O_TRUNC) would refuse it.
void require_writable(const fs::path& path) {
  if (::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) != 0 && errno != ENOENT)
    throw output_error(path.string(), last_error());
}

std::string random_name_part() {
  static constexpr std::string_view alphabet =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device device;
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::string part(10, ' ');
  for (auto& c : part)
    c = alphabet[pick(device)];
  return part;
}

// A new file next to `target` whose name no file had (O_EXCL, like mkstemp), created with mode
// 0666 so the umask and default ACLs apply as to any new file; then given `old_mode` if set.
// Throws output_error naming `shown`.
std::pair<unique_fd, fs::path> create_temporary(const fs::path& target,
                                                std::optional<mode_t> old_mode,
                                                const std::string& shown) {
  // The name stays well under NAME_MAX whatever the target's length.
  const auto name = target.filename().string().substr(0, 100);
  constexpr int attempts = 100;
  for (int i = 0; i < attempts; ++i) {
    fs::path candidate = target.parent_path() / ("." + name + ".corocrawl-" + random_name_part());
    unique_fd fd{::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)};
    if (!fd.is_open()) {
      if (errno == EEXIST) continue;
      throw output_error(shown, last_error());
    }
    // Best effort: some file systems (vfat) have no permissions to set.
    if (old_mode) (void)::fchmod(fd.get(), *old_mode);
    return {std::move(fd), std::move(candidate)};
  }
  throw output_error(shown, std::make_error_code(std::errc::file_exists));
}

}  // namespace

output_error::output_error(std::string target, std::error_code reason)
    : std::system_error(reason, target), target_(std::move(target)) {}

void check_output_path(const fs::path& path) {
  const auto where = destination_of(path);
  if (!where.replace) {
    struct stat target {};
    if (::stat(path.c_str(), &target) != 0) return;  // a dangling symlink: created when written
    if (S_ISDIR(target.st_mode))
      throw output_error(path.string(), std::make_error_code(std::errc::is_a_directory));
    require_writable(path);
    return;
  }
  if (where.old_mode) require_writable(where.path);
  auto [fd, temporary] = create_temporary(where.path, where.old_mode, path.string());
  fd.close();
  ::unlink(temporary.c_str());
}

struct output_file::impl {
  impl(unique_fd owned_fd, int fd, std::string shown_name, fs::path temporary_path = {},
       fs::path target = {})
      : name(std::move(shown_name)),
        temporary(std::move(temporary_path)),
        final_path(std::move(target)),
        owned(std::move(owned_fd)),
        buffer(fd, !temporary.empty()) {}
  ~impl() {
    if (!temporary.empty()) ::unlink(temporary.c_str());
  }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;

  std::string name;     ///< the path as given, or "stdout"
  fs::path temporary;   ///< the file being written, renamed to final_path; empty: none
  fs::path final_path;  ///< where the temporary file goes
  unique_fd owned;      ///< what this object opened; not open for a descriptor it was given
  descriptor_buffer buffer;
  std::ostream stream{&buffer};
};

output_file::output_file(const fs::path& path) {
  auto where = destination_of(path);
  if (!where.replace) {
    unique_fd fd{::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)};
    if (!fd.is_open()) throw output_error(path.string(), last_error());
    const int raw = fd.get();
    impl_ = std::make_unique<impl>(std::move(fd), raw, path.string());
    return;
  }
  if (where.old_mode) require_writable(where.path);
  auto [fd, temporary] = create_temporary(where.path, where.old_mode, path.string());
  const int raw = fd.get();
  impl_ = std::make_unique<impl>(std::move(fd), raw, path.string(), std::move(temporary),
                                 std::move(where.path));
}

output_file::output_file(int fd, std::string name)
    : impl_(std::make_unique<impl>(unique_fd{}, fd, std::move(name))) {}

output_file::~output_file() = default;
output_file::output_file(output_file&&) noexcept = default;
output_file& output_file::operator=(output_file&&) noexcept = default;

std::ostream& output_file::stream() {
  return impl_->stream;
}

void output_file::commit() {
  auto& file = *impl_;
  file.stream.flush();
  if (file.buffer.error() != 0)
    throw output_error(file.name, {file.buffer.error(), std::generic_category()});
  if (!file.owned.is_open()) return;  // a descriptor it was given: flushed is all
  // On disk before the rename, or a power cut could leave the new name on an empty file.
  if (!file.temporary.empty() && ::fsync(file.owned.get()) != 0)
    throw output_error(file.name, last_error());
  if (const auto ec = file.owned.close()) throw output_error(file.name, ec);
  if (file.temporary.empty()) return;
  if (::rename(file.temporary.c_str(), file.final_path.c_str()) != 0)
    throw output_error(file.name, last_error());
  file.temporary.clear();
  // Best effort, for the rename itself to survive a power cut.
  const auto directory = file.final_path.parent_path();
  const unique_fd dir{
      ::open(directory.empty() ? "." : directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (dir.is_open()) (void)::fsync(dir.get());
}

}  // namespace corocrawl
