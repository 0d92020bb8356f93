#pragma once
// Folder mode's URLs as the files they name (file_of in corocrawl/report.hpp), for reports
// that name thousands of them: each folder's directory as shown is worked out once, not for
// every URL. Const and free of caches: it may be used from several threads at once. It refers
// to the crawl_result it was made from, which must outlive it.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corocrawl/report.hpp"

namespace corocrawl {

class folder_files {
 public:
  /// The folders of `result`, shown relative to `cwd` when below it.
  folder_files(const crawl_result& result, const std::filesystem::path& cwd);
  /// What file_of(result, url, cwd) gives.
  std::optional<std::string> file(std::string_view url) const;

 private:
  struct folder {
    std::string_view url;  // the folder's URL, with its final '/'
    std::string shown;     // its directory as reports show it, normal ("" for the cwd itself)
  };
  std::vector<folder> folders_;
};

}  // namespace corocrawl
