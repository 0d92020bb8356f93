// Folder mode's URLs as the files they name, so that reports of a built site point at its
// files ("site/blog/index.html:12:7") and stay the same from run to run, whatever port the
// folder was served on.
#include "report/page_files.hpp"

#include <string>
#include <system_error>

#include "serve/static_site_server.hpp"

namespace corocrawl {

namespace fs = std::filesystem;

namespace {

// `directory` (absolute and canonical, as the plan keeps it) as reports show it: relative to
// `cwd` when it lies below it ("" for `cwd` itself), else absolute. Lexical only: reports
// name thousands of places, and the file system is not asked again for each.
fs::path shown_directory(const fs::path& directory, const fs::path& cwd) {
  const fs::path relative = directory.lexically_relative(cwd);
  if (relative.empty() || *relative.begin() == "..") return directory;
  if (relative == ".") return {};
  return relative;
}

}  // namespace

folder_files::folder_files(const crawl_result& result, const fs::path& cwd) {
  folders_.reserve(result.folders.size());
  for (const served_folder& served : result.folders)
    folders_.push_back({served.url, shown_directory(served.directory, cwd).generic_string()});
}

std::optional<std::string> folder_files::file(std::string_view url) const {
  for (const folder& f : folders_) {
    // The folder's URL without its final '/' names the folder too (the server redirects it).
    const std::string_view prefix = f.url.substr(0, f.url.size() - 1);
    if (!url.starts_with(prefix)) continue;
    const std::string_view rest = url.substr(prefix.size());
    if (!rest.empty() && rest.front() != '/' && rest.front() != '?' && rest.front() != '#')
      continue;
    const auto suffix_at = rest.find_first_of("?#");
    const std::string_view path = rest.substr(0, suffix_at);
    const auto relative = target_to_relative_path(path.empty() ? "/" : std::string(path));
    if (!relative) return std::nullopt;
    // Joined as text, as `shown / relative` joins them: both are normal already (the relative
    // path has no empty, "." or ".." segment), so no path needs taking apart again.
    std::string text = f.shown;
    const auto join = [&text](std::string_view part) {
      if (!text.empty() && text.back() != '/') text += '/';
      text += part;
    };
    join(*relative);
    if (path.size() <= 1 || path.ends_with('/')) join("index.html");
    if (suffix_at != std::string_view::npos) text += rest.substr(suffix_at);
    return text;
  }
  return std::nullopt;
}

std::optional<std::string> file_of(const crawl_result& result, std::string_view url,
                                   const fs::path& cwd) {
  return folder_files(result, cwd).file(url);
}

page_locator report_locator(const crawl_result& result, fs::path cwd) {
  std::error_code ec;
  if (auto canonical = fs::weakly_canonical(cwd, ec); !ec) cwd = std::move(canonical);
  return [files = folder_files(result, cwd)](std::string_view url) {
    return files.file(url).value_or(std::string(url));
  };
}

}  // namespace corocrawl
