// The synthetic benchmark site. Everything about a page (size, links, text) comes from
// splitmix64 streams seeded with the page index, never from std:: distributions, whose output
// differs between standard libraries: the site is the same on every machine.
#include "synthetic_site.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "page_writer.hpp"

namespace corocrawl::bench {
namespace {

class splitmix64 {
 public:
  explicit splitmix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  /// A number in [0, n), n > 0. The modulo bias (n / 2^64) is far below anything measurable.
  std::uint64_t below(std::uint64_t n) { return next() % n; }

 private:
  std::uint64_t state_;
};

// Independent streams per page, so that, e.g., the size does not change with the link count.
enum class stream : std::uint64_t { links = 1, text = 2, size = 3, broken = 4 };

splitmix64 rng_for(std::uint64_t index, stream which) {
  splitmix64 seeder(index * 8 + static_cast<std::uint64_t>(which) + 0x243f6a8885a308d3ULL);
  return splitmix64(seeder.next());
}

constexpr std::uint64_t pages_per_dir = 1000;
constexpr std::uint64_t broken_one_in = 200;
constexpr std::uint64_t fragment_count = 12;

enum class link_form : std::uint8_t { root_relative, relative };

struct planned_link {
  link_target target;
  link_form form = link_form::root_relative;
  int fragment = -1;  ///< "#sec-<fragment>" appended when >= 0
};

std::string decimal(std::uint64_t value) {
  return std::to_string(value);
}

// Which links a page has and how it spells them; the text of the page plays no part.
std::vector<planned_link> plan_links(std::uint64_t index, const site_shape& shape) {
  auto rng = rng_for(index, stream::links);
  const std::uint64_t pages = shape.pages;
  const std::size_t wanted = min_links + rng.below(max_links - min_links + 1);

  std::vector<planned_link> plan;
  plan.reserve(wanted);
  const auto contains = [&plan](const link_target& target) {
    return std::any_of(plan.begin(), plan.end(),
                       [&target](const planned_link& link) { return link.target == target; });
  };
  const auto add = [&plan, &rng](const link_target& target) {
    planned_link link{.target = target};
    link.form = rng.below(10) < 4 ? link_form::root_relative : link_form::relative;
    if (rng.below(5) == 0) link.fragment = static_cast<int>(rng.below(fragment_count));
    plan.push_back(link);
  };

  // The children of a binary tree over the pages make every page reachable from page 0.
  for (const std::uint64_t child : {2 * index + 1, 2 * index + 2}) {
    if (child < pages) add({.value = child});
  }
  auto broken_rng = rng_for(index, stream::broken);
  const bool has_broken = broken_rng.below(broken_one_in) == 0;
  if (has_broken) add({.missing = true, .value = broken_rng.below(missing_targets)});

  // Other pages: a quarter in the page's own directory (relative "p123.html" links), the rest
  // anywhere. Probing past taken pages keeps this finite and the targets distinct.
  const std::size_t page_links_wanted =
      std::min<std::uint64_t>(wanted - (has_broken ? 1 : 0), pages - 1);
  std::size_t page_count = plan.size() - (has_broken ? 1 : 0);
  const std::uint64_t dir_start = index / pages_per_dir * pages_per_dir;
  const std::uint64_t dir_pages = std::min(pages_per_dir, pages - dir_start);
  while (page_count < page_links_wanted) {
    std::uint64_t candidate =
        rng.below(4) == 0 ? dir_start + rng.below(dir_pages) : rng.below(pages);
    while (candidate == index || contains({.value = candidate}))
      candidate = (candidate + 1) % pages;
    add({.value = candidate});
    ++page_count;
  }
  return plan;
}

std::string render_href(std::uint64_t index, const planned_link& link) {
  std::string href;
  const auto& target = link.target;
  if (link.form == link_form::root_relative) {
    href = target_path(target);
  } else {
    // Relative to the page's directory: "/" for page 0, "/s<d>/" for the others.
    const std::string up = index == 0 ? "" : "../";
    if (target.missing) {
      href = up + "missing/" + decimal(target.value) + ".html";
    } else if (target.value == 0) {
      href = index == 0 ? "./" : "../";
    } else if (index != 0 && target.value / pages_per_dir == index / pages_per_dir) {
      href = "p" + decimal(target.value) + ".html";
    } else {
      href = up + page_file(target.value);
    }
  }
  if (link.fragment >= 0) href += "#sec-" + decimal(static_cast<std::uint64_t>(link.fragment));
  return href;
}

// ---- text ----

constexpr std::array<std::string_view, 64> words = {"lorem",      "ipsum",        "dolor",
                                                    "sit",        "amet",         "consectetur",
                                                    "adipiscing", "elit",         "sed",
                                                    "do",         "eiusmod",      "tempor",
                                                    "incididunt", "ut",           "labore",
                                                    "et",         "dolore",       "magna",
                                                    "aliqua",     "enim",         "ad",
                                                    "minim",      "veniam",       "quis",
                                                    "nostrud",    "exercitation", "ullamco",
                                                    "laboris",    "nisi",         "aliquip",
                                                    "ex",         "ea",           "commodo",
                                                    "consequat",  "duis",         "aute",
                                                    "irure",      "in",           "reprehenderit",
                                                    "voluptate",  "velit",        "esse",
                                                    "cillum",     "fugiat",       "nulla",
                                                    "pariatur",   "excepteur",    "sint",
                                                    "occaecat",   "cupidatat",    "non",
                                                    "proident",   "sunt",         "culpa",
                                                    "qui",        "officia",      "deserunt",
                                                    "mollit",     "anim",         "id",
                                                    "est",        "laborum",      "crawler",
                                                    "coroutine"};

constexpr auto padded_words = pad_words(words);

const padded_word& word(splitmix64& rng) {
  return padded_words[rng.below(words.size())];
}

void append_capitalized(std::string& out, const padded_word& w) {
  out += static_cast<char>(w.text[0] - 'a' + 'A');
  out.append(w.text.data() + 1, w.size - 1U);
}

void append_words(page_writer& out, splitmix64& rng, std::uint64_t min_count,
                  std::uint64_t max_count, bool capitalize) {
  const auto count = min_count + rng.below(max_count - min_count + 1);
  for (std::uint64_t i = 0; i < count; ++i) {
    if (i != 0) out.put(' ');
    out.put(word(rng), i == 0 && capitalize);
  }
}

// A word's emphasis, by rng.below(16): <em> for 0, <strong> for 1, none for the rest. Taken
// from tables rather than branches: the choices are random, and each mispredicted branch cost
// more than writing a word.
constexpr std::array<std::string_view, 16> opening_tags = {"<em>", "<strong>"};
constexpr std::array<std::string_view, 16> closing_tags = {"</em>", "</strong>"};
constexpr auto padded_openings = pad_words(opening_tags);
constexpr auto padded_closings = pad_words(closing_tags);

void append_sentence(page_writer& out, splitmix64& rng) {
  const auto count = 5 + rng.below(10);
  out.put(word(rng), true);
  for (std::uint64_t i = 1; i < count; ++i) {
    out.put(' ');
    const auto emphasis = rng.below(16);
    out.put(padded_openings[emphasis]);
    out.put(word(rng));
    out.put(padded_closings[emphasis]);
    if (i + 1 < count) out.put_if(',', rng.below(8) == 0);
  }
  out.put('.');
}

// Exactly `length` bytes of words (the last one possibly cut), the first one capitalized.
void append_exact_text(page_writer& out, splitmix64& rng, std::size_t length) {
  bool first = true;
  while (length > 0) {
    if (!first) {
      out.put(' ');
      --length;
    }
    const padded_word& w = word(rng);
    const std::size_t take = std::min<std::size_t>(length, w.size);
    const std::size_t at = out.size();
    out.put(w, first);
    out.truncate(at + take);
    length -= take;
    first = false;
  }
}

// ---- blocks ----

// The page's links rendered as <a> elements; blocks consume them in order from `next`.
struct anchor_queue {
  std::vector<std::string> anchors;
  std::size_t next = 0;

  bool empty() const { return next == anchors.size(); }
  const std::string& take() { return anchors[next++]; }
};

void append_paragraph(page_writer& out, splitmix64& rng, anchor_queue& links) {
  out.put("<p>");
  const auto sentences = 2 + rng.below(4);
  for (std::uint64_t i = 0; i < sentences; ++i) {
    if (i != 0) out.put(' ');
    append_sentence(out, rng);
    if (!links.empty() && rng.below(3) == 0) {
      out.put(" See ");
      out.put(links.take());
      out.put('.');
    }
  }
  out.put("</p>\n");
}

void append_heading(page_writer& out, splitmix64& rng, int& section) {
  out.put("<h2 id=\"sec-");
  out.put_number(static_cast<std::uint64_t>(section++));
  out.put("\">");
  append_words(out, rng, 2, 5, true);
  out.put("</h2>\n");
}

void append_list(page_writer& out, splitmix64& rng, anchor_queue& links) {
  const bool ordered = rng.below(3) == 0;
  out.put(ordered ? "<ol>\n" : "<ul>\n");
  const auto items = 3 + rng.below(4);
  for (std::uint64_t i = 0; i < items; ++i) {
    out.put("<li>");
    append_words(out, rng, 3, 8, true);
    if (!links.empty() && rng.below(2) == 0) {
      out.put(": ");
      out.put(links.take());
    }
    out.put("</li>\n");
  }
  out.put(ordered ? "</ol>\n" : "</ul>\n");
}

void append_table(page_writer& out, splitmix64& rng) {
  out.put(
      "<table>\n<thead><tr><th>Item</th><th>Count</th><th>Notes</th></tr></thead>\n"
      "<tbody>\n");
  const auto rows = 3 + rng.below(5);
  for (std::uint64_t i = 0; i < rows; ++i) {
    out.put("<tr><td>");
    out.put(word(rng), true);
    out.put("</td><td>");
    out.put_number(rng.below(100000));
    out.put("</td><td>");
    append_words(out, rng, 2, 5, false);
    out.put("</td></tr>\n");
  }
  out.put("</tbody>\n</table>\n");
}

void append_block(page_writer& out, splitmix64& rng, anchor_queue& links, int& section) {
  const auto kind = rng.below(10);
  if (kind < 5) {
    append_paragraph(out, rng, links);
  } else if (kind < 7) {
    append_heading(out, rng, section);
    append_paragraph(out, rng, links);
  } else if (kind < 9) {
    append_list(out, rng, links);
  } else {
    append_table(out, rng);
  }
}

void append_list_item(page_writer& out, const std::string& anchor) {
  out.put("<li>");
  out.put(anchor);
  out.put("</li>\n");
}

constexpr std::size_t list_item_overhead = std::string_view("<li></li>\n").size();

void check_index(std::uint64_t index, const site_shape& shape) {
  validate(shape);
  if (index >= shape.pages)
    throw std::invalid_argument("page " + decimal(index) + " is not below --pages " +
                                decimal(shape.pages));
}

}  // namespace

void validate(const site_shape& shape) {
  if (shape.pages < 1 || shape.pages > max_pages)
    throw std::invalid_argument("--pages must be between 1 and " + decimal(max_pages) + ", not " +
                                decimal(shape.pages));
  if (shape.min_bytes < min_page_bytes || shape.min_bytes > max_page_bytes)
    throw std::invalid_argument("--min-bytes must be between " + decimal(min_page_bytes) + " and " +
                                decimal(max_page_bytes) + ", not " + decimal(shape.min_bytes));
  if (shape.max_bytes < shape.min_bytes || shape.max_bytes > max_page_bytes)
    throw std::invalid_argument("--max-bytes must be between --min-bytes (" +
                                decimal(shape.min_bytes) + ") and " + decimal(max_page_bytes) +
                                ", not " + decimal(shape.max_bytes));
}

std::string page_path(std::uint64_t index) {
  return index == 0 ? "/" : "/" + page_file(index);
}

std::string page_file(std::uint64_t index) {
  if (index == 0) return "index.html";
  return "s" + decimal(index / pages_per_dir) + "/p" + decimal(index) + ".html";
}

std::string missing_path(std::uint64_t k) {
  return "/missing/" + decimal(k) + ".html";
}

std::optional<std::uint64_t> page_index(std::string_view path, std::uint64_t pages) {
  if (pages == 0) return std::nullopt;
  if (path == "/" || path == "/index.html") return 0;
  // Canonical decimals only ("/s01/..." is not a page): digits, no leading zero but for "0".
  const auto take_number = [&path](std::uint64_t& value) {
    const auto end = path.find_first_not_of("0123456789");
    const auto digits = path.substr(0, end);
    if (digits.empty() || (digits.size() > 1 && digits.front() == '0')) return false;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc{} || ptr != digits.data() + digits.size()) return false;
    path.remove_prefix(digits.size());
    return true;
  };
  const auto take = [&path](std::string_view literal) {
    if (!path.starts_with(literal)) return false;
    path.remove_prefix(literal.size());
    return true;
  };
  std::uint64_t dir = 0;
  std::uint64_t index = 0;
  if (!take("/s") || !take_number(dir) || !take("/p") || !take_number(index) || !take(".html"))
    return std::nullopt;
  if (!path.empty() || index == 0 || index >= pages || index / pages_per_dir != dir)
    return std::nullopt;
  return index;
}

std::string target_path(const link_target& target) {
  return target.missing ? missing_path(target.value) : page_path(target.value);
}

std::vector<page_link> page_links(std::uint64_t index, const site_shape& shape) {
  check_index(index, shape);
  std::vector<page_link> links;
  for (const auto& planned : plan_links(index, shape))
    links.push_back({.target = planned.target, .href = render_href(index, planned)});
  return links;
}

std::uint64_t page_size(std::uint64_t index, const site_shape& shape) {
  auto rng = rng_for(index, stream::size);
  return shape.min_bytes + rng.below(shape.max_bytes - shape.min_bytes + 1);
}

std::string synthetic_page(std::uint64_t index, const site_shape& shape) {
  std::string page;
  append_synthetic_page(page, index, shape);
  return page;
}

void append_synthetic_page(std::string& out, std::uint64_t index, const site_shape& shape) {
  check_index(index, shape);
  const std::size_t end = out.size() + page_size(index, shape);
  auto rng = rng_for(index, stream::text);

  anchor_queue links;
  for (const auto& planned : plan_links(index, shape)) {
    std::string anchor = "<a href=\"" + render_href(index, planned) + "\">";
    append_capitalized(anchor, word(rng));
    anchor += "</a>";
    links.anchors.push_back(std::move(anchor));
  }
  // Bytes the footer needs to list links [i, end) — whatever the blocks have not placed.
  std::vector<std::size_t> footer_items(links.anchors.size() + 1, 0);
  for (std::size_t i = links.anchors.size(); i-- > 0;)
    footer_items[i] = footer_items[i + 1] + links.anchors[i].size() + list_item_overhead;
  const std::string footer_open = "</main>\n<footer>\n<ul>\n";
  const std::string footer_close = "</ul>\n<p>Synthetic site, page " + decimal(index) + " of " +
                                   decimal(shape.pages) + ".</p>\n</footer>\n</body>\n</html>\n";
  const auto tail_size = [&](std::size_t next) {
    return footer_open.size() + footer_items[next] + footer_close.size();
  };

  page_writer page(out, end - out.size());
  page.put(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
  append_words(page, rng, 2, 4, true);
  page.put("</title>\n</head>\n<body>\n<header><p>Synthetic site</p></header>\n<nav>\n<ul>\n");
  const auto nav_items = std::min<std::size_t>(links.anchors.size(), 2 + rng.below(5));
  while (links.next < nav_items)
    append_list_item(page, links.take());
  page.put("</ul>\n</nav>\n<main>\n<h1>");
  append_words(page, rng, 2, 6, true);
  page.put("</h1>\n");

  // Whole blocks while they fit; the first that does not is taken back.
  int section = 0;
  for (;;) {
    const auto mark = page.size();
    const auto mark_next = links.next;
    append_block(page, rng, links, section);
    if (page.size() + tail_size(links.next) > end) {
      page.truncate(mark);
      links.next = mark_next;
      break;
    }
  }
  // Then a paragraph (or whitespace) of exactly the bytes left.
  const auto used = page.size() + tail_size(links.next);
  const std::size_t left = used < end ? end - used : 0;
  constexpr std::size_t paragraph_overhead = std::string_view("<p></p>\n").size();
  if (left >= paragraph_overhead) {
    page.put("<p>");
    append_exact_text(page, rng, left - paragraph_overhead);
    page.put("</p>\n");
  } else {
    page.put(left, '\n');
  }

  page.put(footer_open);
  while (!links.empty())
    append_list_item(page, links.take());
  page.put(footer_close);
}

site_expectation expected(const site_shape& shape) {
  validate(shape);
  std::vector<bool> seen(shape.pages, false);
  std::array<bool, missing_targets> missing_seen{};
  std::vector<std::uint64_t> queue;
  queue.reserve(shape.pages);
  seen[0] = true;
  queue.push_back(0);

  site_expectation result;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const auto index = queue[head];
    result.bytes += page_size(index, shape);
    for (const auto& link : plan_links(index, shape)) {
      if (link.target.missing) {
        missing_seen[link.target.value] = true;
      } else if (!seen[link.target.value]) {
        seen[link.target.value] = true;
        queue.push_back(link.target.value);
      }
    }
  }
  result.pages_reachable = queue.size();
  result.broken =
      static_cast<std::uint64_t>(std::count(missing_seen.begin(), missing_seen.end(), true));
  result.urls = result.pages_reachable + result.broken;
  return result;
}

}  // namespace corocrawl::bench
