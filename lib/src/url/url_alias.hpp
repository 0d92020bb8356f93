#pragma once
// Links to one address taken as links to another: --base-url's production address stands for
// the folder served on 127.0.0.1, so a built site's absolute links are checked against it.

#include <string>
#include <string_view>

namespace corocrawl {

class url_alias {
 public:
  /// `from` and `to`: normalised URLs whose paths end with '/'.
  url_alias(std::string_view from, std::string_view to)
      : from_(without_final_slash(from)), to_(without_final_slash(to)) {}

  /// Writes `url` with `from` replaced by `to` into `out` and returns true, when `url` is
  /// `from` or lies below it ("https://a.test/docs/x#y" for "https://a.test/docs/"; also
  /// "https://a.test/docs", which the server redirects). False otherwise, `out` untouched.
  bool rewrite(std::string_view url, std::string& out) const {
    if (!url.starts_with(from_)) return false;
    const std::string_view rest = url.substr(from_.size());
    if (!rest.empty() && rest.front() != '/' && rest.front() != '?' && rest.front() != '#')
      return false;  // "https://a.test/docs2", "https://a.test.evil/"
    out.assign(to_).append(rest);
    return true;
  }

 private:
  static std::string without_final_slash(std::string_view url) {
    return std::string(url.ends_with('/') ? url.substr(0, url.size() - 1) : url);
  }

  std::string from_;
  std::string to_;
};

}  // namespace corocrawl
