#pragma once
// What the crawler learned about each URL it fetched.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "corocrawl/failure.hpp"

namespace corocrawl {

/// One URL fetched (or tried), as in the chapter's FetchStatistic.
struct fetch_record {
  std::string url;                       ///< normalised
  std::optional<unsigned> status;        ///< none when every try failed
  std::optional<std::string> next_url;   ///< absolute redirect target
  std::optional<std::string> error;      ///< "connection reset", "redirect limit reached"...
  std::optional<fetch_failure> failure;  ///< kind of failure when status is none
  int tries = 0;
  std::uint64_t size = 0;                   ///< body bytes
  std::optional<std::string> content_type;  ///< media type without parameters
  std::optional<std::string> encoding;      ///< charset; "utf-8" by default for HTML and XML
  std::size_t num_urls = 0;                 ///< distinct in-scope links on the page
  std::size_t num_new_urls = 0;             ///< of those, not seen before this page
  std::optional<std::string> referrer;      ///< first page that linked here; none for roots
  /// Out of the crawl's scope: checked (its redirects followed), never parsed or crawled.
  bool external = false;
  /// The request whose answer this is: "GET", or "HEAD" for a resource whose HEAD answered
  /// (a HEAD that fails or answers an error status is followed by a GET, whose answer counts).
  std::string method = "GET";
  /// Taken from the cache (crawl_options::cache) instead of fetched: an external URL found OK
  /// in an earlier run. Its status, content type, encoding and method are that run's; tries
  /// and size are 0.
  bool cached = false;
};

/// Where a record_list's records come from: the crawl's own tables (or a vector, for a result
/// made by hand). A library user reads records through record_list and never needs one.
class record_source {
 public:
  virtual ~record_source() = default;
  virtual std::size_t size() const = 0;
  virtual fetch_record at(std::size_t index) const = 0;  ///< index < size()
};

/// The records of a crawl: a read-only random-access range that builds each fetch_record
/// when it is read. A crawl keeps its records in compact tables (URLs stored once, referred to
/// by number), so a million records cost a fraction of a million fetch_records, and writing
/// them out needs only one at a time. Copies share the records.
class record_list {
 public:
  class iterator {
   public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::input_iterator_tag;  // reading gives values, not references
    using value_type = fetch_record;
    using reference = fetch_record;
    using difference_type = std::ptrdiff_t;

    iterator() = default;
    iterator(const record_source* source, std::size_t index) : source_(source), index_(index) {}
    fetch_record operator*() const { return source_->at(index_); }
    fetch_record operator[](difference_type n) const { return *(*this + n); }
    iterator& operator++() { return *this += 1; }
    iterator operator++(int) { return std::exchange(*this, *this + 1); }
    iterator& operator--() { return *this -= 1; }
    iterator operator--(int) { return std::exchange(*this, *this - 1); }
    iterator& operator+=(difference_type n) {
      index_ = static_cast<std::size_t>(static_cast<difference_type>(index_) + n);
      return *this;
    }
    iterator& operator-=(difference_type n) { return *this += -n; }
    friend iterator operator+(iterator it, difference_type n) { return it += n; }
    friend iterator operator+(difference_type n, iterator it) { return it += n; }
    friend iterator operator-(iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const iterator& a, const iterator& b) {
      return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.index_ == b.index_; }
    friend auto operator<=>(const iterator& a, const iterator& b) { return a.index_ <=> b.index_; }

   private:
    const record_source* source_ = nullptr;
    std::size_t index_ = 0;
  };

  record_list() = default;
  record_list(std::vector<fetch_record> records);  // NOLINT: implicit, for hand-made results
  record_list(std::initializer_list<fetch_record> records);
  explicit record_list(std::shared_ptr<const record_source> source);

  std::size_t size() const { return source_ ? source_->size() : 0; }
  bool empty() const { return size() == 0; }
  fetch_record operator[](std::size_t index) const { return source_->at(index); }
  /// Throws std::out_of_range when `index` >= size().
  fetch_record at(std::size_t index) const;
  fetch_record front() const { return (*this)[0]; }
  fetch_record back() const { return (*this)[size() - 1]; }
  iterator begin() const { return {source_.get(), 0}; }
  iterator end() const { return {source_.get(), size()}; }

 private:
  std::shared_ptr<const record_source> source_;
};

/// The statuses the crawler follows as redirects: 300, 301, 302, 303, 307 and 308.
bool is_redirect_status(unsigned status);

/// Broken: status >= 400 (but 429), every try failed, or a redirect that could not be
/// followed (its chain hit the limit, or it had no Location). A page over max_body keeps its
/// status and the error "body too large", and is not broken.
bool is_broken(const fetch_record& r);

/// Rate limited: still answering 429 Too Many Requests after every try.
bool is_rate_limited(const fetch_record& r);

/// Where a page references a URL: the element and attribute (`img` `srcset`, `style` `url`,
/// `a` `href` ...) and the line and column (1-based; the column counts characters) of the
/// element's tag, or of the `url(` or `@import` in a stylesheet (whose element is `css`).
struct link_source {
  std::string page;
  std::string element;
  std::string attribute;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  friend bool operator==(const link_source&, const link_source&) = default;
  friend auto operator<=>(const link_source&, const link_source&) = default;
};

/// A URL with a problem (broken, rate limited, a warning) and every fetched page that links (or
/// redirects) to it, with each place a page references it. The URL of a missing fragment
/// is the page's with the fragment ("page.html#intro").
struct broken_link {
  std::string url;
  std::optional<unsigned> status;
  std::optional<std::string> error;
  std::vector<std::string> referrers;  ///< sorted
  std::vector<link_source> sources;    ///< sorted by page, line and column
  bool external = false;
};

}  // namespace corocrawl
