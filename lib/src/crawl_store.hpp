#pragma once
// A crawl's URLs and records in compact tables: every URL stored once and referred to by
// number, repeated strings (content types, errors) stored once. It is the record_source of
// the crawl's result, so the result shares the tables instead of copying them.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "corocrawl/record.hpp"
#include "url_table.hpp"

namespace corocrawl {

class crawl_store final : public record_source {
 public:
  url_table& urls() { return urls_; }
  const url_table& urls() const { return urls_; }

  /// Adds the record of URL `url` whose first referrer is `referrer`; `record.url` and
  /// `record.referrer` are not read: the ids say them.
  void add(url_table::id url, std::optional<url_table::id> referrer, const fetch_record& record);

  /// Orders the records by URL; call once every record is in.
  void sort_by_url();

  /// The records, sorted once sort_by_url() has run.
  std::size_t size() const override { return records_.size(); }
  fetch_record at(std::size_t index) const override;

 private:
  static constexpr std::uint32_t kNone = 0xffff'ffff;
  struct stored_record {
    url_table::id url;
    url_table::id referrer;
    std::uint64_t size;
    std::uint32_t num_urls;
    std::uint32_t num_new_urls;
    std::int32_t tries;
    std::uint32_t status;  // 0: none
    // Labels: indexes into labels_, or kNone.
    std::uint32_t next_url;
    std::uint32_t error;
    std::uint32_t failure;
    std::uint32_t content_type;
    std::uint32_t encoding;
  };

  std::uint32_t label(const std::optional<std::string>& text);
  std::optional<std::string> text(std::uint32_t label) const;

  url_table urls_;
  std::deque<stored_record> records_;
  std::vector<std::uint32_t> order_;  // indexes into records_, by URL
  std::deque<std::string> labels_;
  std::unordered_map<std::string_view, std::uint32_t> label_ids_;  // views into labels_
};

}  // namespace corocrawl
