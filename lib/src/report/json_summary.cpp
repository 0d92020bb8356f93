// The corocrawl-summary/1 document. It is written piece by piece, one URL record at a time,
// so a crawl of a million URLs never holds the whole document in memory.
#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

#include "corocrawl/report.hpp"
#include "report/block_helper.hpp"
#include "report/config_echo.hpp"
#include "report/json_text.hpp"
#include "report/json_writer.hpp"
#include "report/page_files.hpp"

namespace corocrawl {

namespace json = boost::json;

namespace {

// Folder mode's "file" beside a URL: the file it names (file_of in report.hpp), for URLs
// under a folder root.
class file_names {
 public:
  explicit file_names(const crawl_result& result)
      : files_(result, result.folders.empty() ? std::filesystem::path()
                                              : std::filesystem::current_path()) {}
  void add(json_writer& out, std::string_view url) const {
    if (const auto file = files_.file(url)) out.key("file").string(*file);
  }

 private:
  folder_files files_;
};

void write_url(json_writer& out, const fetch_record& r, const file_names& files) {
  out.begin_object();
  out.key("url").string(r.url);
  out.key("status").optional_number(r.status);
  out.key("next_url").optional_string(r.next_url);
  out.key("error").optional_string(r.error);
  out.key("tries").number(std::int64_t{r.tries});
  out.key("size").number(r.size);
  out.key("content_type").optional_string(r.content_type);
  out.key("encoding").optional_string(r.encoding);
  out.key("num_urls").number(std::uint64_t{r.num_urls});
  out.key("num_new_urls").number(std::uint64_t{r.num_new_urls});
  out.key("referrer").optional_string(r.referrer);
  out.key("external").boolean(r.external);
  out.key("method").string(r.method);
  out.key("cached").boolean(r.cached);
  files.add(out, r.url);
  out.end_object();
}

void write_texts(json_writer& out, const std::vector<std::string>& texts) {
  out.begin_array();
  for (const auto& text : texts)
    out.string(text);
  out.end_array();
}

void write_sources(json_writer& out, const std::vector<link_source>& sources,
                   const file_names& files) {
  out.begin_array();
  for (const auto& s : sources) {
    out.begin_object();
    out.key("page").string(s.page);
    out.key("element").string(s.element);
    out.key("attribute").string(s.attribute);
    out.key("line").number(std::uint64_t{s.line});
    out.key("column").number(std::uint64_t{s.column});
    files.add(out, s.page);
    out.end_object();
  }
  out.end_array();
}

void write_broken(json_writer& out, const broken_link& b, const file_names& files) {
  out.begin_object();
  out.key("url").string(b.url);
  out.key("status").optional_number(b.status);
  out.key("error").optional_string(b.error);
  out.key("external").boolean(b.external);
  out.key("referrers");
  write_texts(out, b.referrers);
  out.key("sources");
  write_sources(out, b.sources, files);
  files.add(out, b.url);
  out.end_object();
}

void write_unchecked(json_writer& out, const unchecked_url& u, const file_names& files) {
  out.begin_object();
  out.key("url").string(u.url);
  out.key("referrer").optional_string(u.referrer);
  out.key("reason").optional_string(u.reason);
  files.add(out, u.url);
  out.end_object();
}

void write_skipped(json_writer& out, const skipped_url& s, const file_names& files) {
  out.begin_object();
  out.key("url").string(s.url);
  out.key("reason").string(s.reason);
  out.key("referrer").optional_string(s.referrer);
  out.key("referrers");
  write_texts(out, s.referrers);
  out.key("sources");
  write_sources(out, s.sources, files);
  files.add(out, s.url);
  out.end_object();
}

// A JSON array written one element per line, one element at a time; stops early once the
// stream has failed (the caller reports the failure).
template <typename Range, typename WriteItem>
void write_array(json_writer& out, const Range& items, WriteItem write_item,
                 const file_names& files) {
  out.raw("[");
  std::string_view separator = "\n";
  for (const auto& item : items) {
    if (!out.good()) break;
    out.raw(separator);
    write_item(out, item, files);
    separator = ",\n";
  }
  out.raw("]");
}

// The same for a list the crawl built: its items built into one in turn, a block of them at a
// time, and on a machine of more than one core every other block formatted by a helper thread
// (the summary of a large crawl takes a tenth of its time, all of it after the crawl).
template <typename T, typename WriteItem>
void write_array(json_writer& out, const built_list<T>& items, WriteItem write_item,
                 const file_names& files) {
  constexpr std::size_t block_items = 256;
  const std::size_t blocks = (items.size() + block_items - 1) / block_items;
  const auto write_block = [&](std::size_t block, json_writer& into) {
    const std::size_t first = block * block_items;
    std::size_t i = first;
    items.for_each(first, std::min(first + block_items, items.size()), [&](const T& item) {
      if (!into.good()) return false;
      into.raw(i++ == 0 ? "\n" : ",\n");
      write_item(into, item, files);
      return true;
    });
  };
  const bool helped = std::thread::hardware_concurrency() > 1;
  block_helper helper(helped ? blocks : 0, [&](std::size_t block, std::string& text) {
    json_writer into;
    write_block(block, into);
    text = into.take_text();
  });
  out.raw("[");
  for (std::size_t block = 0; block < blocks && out.good(); ++block) {
    if (helper.helps(block)) {
      if (const auto text = helper.take(block)) {
        out.raw(*text);
        continue;
      }
    }
    write_block(block, out);
  }
  out.raw("]");
}

// Boost.JSON writes doubles in exponent form ("1.234E0"); seconds read better as "1.234".
std::string three_decimals(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", std::isfinite(value) ? value : 0.0);
  return text;
}

std::string per_connection(const crawl_result& result) {
  if (result.connections == 0) return "0.000";
  return three_decimals(static_cast<double>(result.requests) /
                        static_cast<double>(result.connections));
}

}  // namespace

void write_json_summary(std::ostream& stream, const crawl_result& result,
                        const crawl_options& options) {
  const file_names files(result);
  json::array roots;
  for (const auto& given : result.roots)
    roots.emplace_back(json_text(given));
  json::object stats;
  for (const auto& [key, count] : result_stats(result))
    stats[json_text(key)] = count;

  json_writer out(stream);
  out.raw("{\"schema\":\"corocrawl-summary/1\",\n\"roots\":")
      .raw(json::serialize(roots))
      .raw(",\n\"config\":")
      .raw(json::serialize(config_echo(options)))
      .raw(",\n\"elapsed_seconds\":")
      .raw(three_decimals(result.elapsed.count()))
      .raw(",\n\"interrupted\":")
      .raw(result.interrupted ? "true" : "false")
      .raw(",\n\"timed_out\":")
      .raw(result.timed_out ? "true" : "false")
      .raw(",\n\"failure\":")
      .raw(result.failure ? json::serialize(json::value(json_text(*result.failure))) : "null")
      .raw(",\n\"passed\":")
      .raw(passed(result, options.fail_on_rate_limit) ? "true" : "false")
      .raw(",\n\"stats\":")
      .raw(json::serialize(stats))
      .raw(",\n\"connections\":{\"opened\":");
  out.number(std::uint64_t{result.connections});
  out.raw(",\"requests\":");
  out.number(std::uint64_t{result.requests});
  out.raw(",\"requests_per_connection\":").raw(per_connection(result)).raw("},\n\"urls\":");
  write_array(out, result.records, write_url, files);
  out.raw(",\n\"broken\":");
  write_array(out, result.broken, write_broken, files);
  out.raw(",\n\"warnings\":");
  write_array(out, result.warnings, write_broken, files);
  out.raw(",\n\"rate_limited\":");
  write_array(out, result.rate_limited, write_broken, files);
  out.raw(",\n\"unchecked\":");
  write_array(out, result.unchecked, write_unchecked, files);
  out.raw(",\n\"skipped\":");
  write_array(out, result.skipped, write_skipped, files);
  if (result.baseline) {
    // The broken URLs as the baseline splits them; "broken" above lists them all.
    json::array fresh, known, fixed;
    for (const auto& link : result.broken)
      (is_known(result, link.url) ? known : fresh).emplace_back(json_text(link.url));
    for (const auto& name : result.baseline->fixed)
      fixed.emplace_back(json_text(name));
    out.raw(",\n\"baseline\":")
        .raw(json::serialize(json::value(json_text(result.baseline->file))))
        .raw(",\n\"new\":")
        .raw(json::serialize(fresh))
        .raw(",\n\"known\":")
        .raw(json::serialize(known))
        .raw(",\n\"fixed\":")
        .raw(json::serialize(fixed));
  }
  out.raw(",\n\"orphans\":");
  write_array(
      out, result.orphans,
      [](json_writer& writer, const std::string& url, const file_names&) { writer.string(url); },
      files);
  out.raw("}\n");
  out.flush();
}

}  // namespace corocrawl
