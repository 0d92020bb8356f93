#pragma once
// How every report names a problem URL's state and the places pages reference it, so that the
// text, Markdown, JUnit, SARIF and GitHub outputs say the same thing the same way.

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "corocrawl/crawl.hpp"
#include "corocrawl/record.hpp"
#include "corocrawl/report.hpp"

namespace corocrawl {

/// "404", "error timed out", "200 missing fragment", with " (external)" for another site's.
inline std::string problem_status(const broken_link& link) {
  std::string text = link.status ? std::to_string(*link.status) : std::string("error");
  if (link.error) text += " " + *link.error;
  if (link.external) text += " (external)";
  return text;
}

/// "http://h/logo.png 404 (img src)": the URL (as `locate` names it), its state and, given a
/// source, the element and attribute there.
inline std::string problem_message(const broken_link& link, const link_source* source,
                                   const page_locator& locate) {
  std::string text = locate(link.url) + " " + problem_status(link);
  if (source != nullptr) text += " (" + source->element + " " + source->attribute + ")";
  return text;
}

/// `sources` without those that name a place named already: in folder mode "/" and
/// "/index.html" are one file, and a place is reported once.
inline std::vector<const link_source*> distinct_places(const std::vector<link_source>& sources,
                                                       const page_locator& locate) {
  std::vector<const link_source*> distinct;
  std::set<
      std::tuple<std::string, std::uint32_t, std::uint32_t, std::string_view, std::string_view>>
      seen;
  for (const link_source& s : sources) {
    if (seen.emplace(locate(s.page), s.line, s.column, s.element, s.attribute).second)
      distinct.push_back(&s);
  }
  return distinct;
}

/// A crawl's broken links as a baseline splits them: those it did not know, and those it did.
struct broken_groups {
  broken_list fresh;
  broken_list known;
};

inline broken_groups split_by_baseline(const crawl_result& result) {
  std::vector<std::size_t> fresh;
  std::vector<std::size_t> known;
  for (std::size_t i = 0; i < result.broken.size(); ++i)
    (is_known(result, result.broken[i].url) ? known : fresh).push_back(i);
  return {result.broken.picked(std::move(fresh)), result.broken.picked(std::move(known))};
}

/// "site/index.html:12:5 img src": the page as `locate` names it, line, column, element and
/// attribute, as editors and terminals link them.
inline std::string place_text(const link_source& source, const page_locator& locate) {
  return locate(source.page) + ":" + std::to_string(source.line) + ":" +
         std::to_string(source.column) + " " + source.element + " " + source.attribute;
}

}  // namespace corocrawl
