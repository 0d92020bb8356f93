// Exclude patterns on Boost.Regex (header-only since Boost 1.76): its matcher keeps its
// backtracking state on the heap, not the stack (the non-recursive matcher is the only one for
// C++11 and later), and throws instead of running on when a search exceeds a number of steps.
// std::regex recursed per character and per group, and had no such limit.

#include "url/url_pattern.hpp"

#include <algorithm>
#include <boost/regex.hpp>
#include <iterator>
#include <memory>
#include <string>

#include "corocrawl/errors.hpp"
#include "text/ascii.hpp"

namespace corocrawl {
namespace {

// The allocator of the search's match results. It is ours only so that the matcher of our
// searches, perl_matcher<const char*, search_allocator<...>, ...>, is a specialization no
// other code uses, whose step limit is set below without touching anyone else's searches.
template <class T>
struct search_allocator {
  using value_type = T;
  search_allocator() = default;
  template <class U>
  search_allocator(const search_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return std::allocator<T>{}.allocate(n); }
  void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>{}.deallocate(p, n); }
  template <class U>
  bool operator==(const search_allocator<U>&) const noexcept {
    return true;
  }
};

using search_results = boost::match_results<const char*, search_allocator<boost::csub_match>>;

}  // namespace
}  // namespace corocrawl

namespace boost::BOOST_REGEX_DETAIL_NS {

// The step limit of our searches: Boost's own estimate (the larger of N*S^2 and N^2, plus
// 100,000, for a URL of N bytes and a pattern of S states), lowered to max_search_steps.
// Boost's estimate grows without bound with the pattern: "a*a*...a*z" with 500 "a*" on an
// 8 KiB URL was allowed 8e9 steps, over a minute.
template <>
void perl_matcher<const char*, corocrawl::search_allocator<csub_match>,
                  regex::traits_type>::estimate_max_state_count(std::random_access_iterator_tag*) {
  const double n = static_cast<double>(std::max<std::ptrdiff_t>(1, std::distance(base, last)));
  const double s = static_cast<double>(std::max<std::size_t>(1, re.size()));
  constexpr double floor = 100'000;
  const double boost_estimate = std::max(n * s * s, n * n) + floor;
  max_state_count = static_cast<std::ptrdiff_t>(
      std::min(boost_estimate, static_cast<double>(corocrawl::max_search_steps)));
}

}  // namespace boost::BOOST_REGEX_DETAIL_NS

namespace corocrawl {
namespace {

// ECMAScript is Boost's Perl syntax. "no_mod_m": "^" and "$" match at the ends of the URL
// only, not at line breaks, as in ECMAScript without the m flag.
constexpr auto syntax = boost::regex::ECMAScript | boost::regex::no_mod_m;

// How deep `pattern` nests groups. Counts every "(" that is not escaped or inside a bracket
// expression; the Perl extensions that can hide a "(" from the compiler (\Q...\E, comments)
// only make the count higher than the compiler's.
std::size_t nesting_depth(std::string_view pattern) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\') {
      ++i;  // the escaped character, whatever it is
    } else if (in_class) {
      in_class = c != ']';
    } else if (c == '[') {
      in_class = true;
      // A "]" first in the expression ("[]a]", "[^]a]") is a literal.
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') ++i;
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') ++i;
    } else if (c == '(') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ')' && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

// Boost reads the number of a repetition count ("a{N}", "a{M,N}") or back-reference ("\\N")
// into an int without saying when it overflows: "a{4294967297}" then matches nothing and
// "a{1,99999999999999999999}" only its own text. A number of more than 9 digits there (maybe
// also in a bracket expression, where it would be text) is refused instead.
bool has_too_large_number(std::string_view pattern) {
  const auto digits_after = [&](std::size_t i) {
    std::size_t n = 0;
    while (i + 1 + n < pattern.size() && ascii::is_digit(pattern[i + 1 + n]))
      ++n;
    return n;
  };
  bool in_braces = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\') {
      if (digits_after(i) > 9) return true;
      ++i;  // the escaped character
    } else if (c == '{' || (c == ',' && in_braces)) {
      in_braces = true;
      if (digits_after(i) > 9) return true;
    } else if (c == '}') {
      in_braces = false;
    }
  }
  return false;
}

// Boost's message without the copy of the pattern it appends ("  The error occurred while
// parsing the regular expression: '...>>>HERE>>>...'."), which our message already shows.
std::string compiler_message(const boost::regex_error& e) {
  std::string message = e.what();
  if (const auto cut = message.find("  The error occurred"); cut != std::string::npos)
    message.resize(cut);
  return ascii::escape_controls(message) + " (at byte " + std::to_string(e.position()) + ")";
}

// Whether `regex` calls a group as a subroutine: Perl's (?R), (?1), (?&name), which ECMAScript
// does not have. The matcher's steps then grow with the depth of the calls, uncounted: "(a(?1)?)z"
// took 4 minutes on an 8 KiB URL within the step limit.
bool calls_groups(const boost::regex& regex) {
  for (auto* state = regex.get_first_state(); state != nullptr; state = state->next.p) {
    if (state->type == boost::BOOST_REGEX_DETAIL_NS::syntax_element_recurse) return true;
  }
  return false;
}

[[noreturn]] void invalid(std::string_view option, std::string_view pattern,
                          std::string_view problem) {
  throw config_error(std::string(option) + ": invalid regular expression \"" +
                     shortened_for_message(pattern) + "\": " + std::string(problem));
}

}  // namespace

struct url_pattern::compiled {
  boost::regex regex;
};

url_pattern::url_pattern(std::string_view pattern, std::string_view option) : text_(pattern) {
  if (pattern.size() > max_pattern_length) {
    invalid(option, pattern,
            "longer than the " + std::to_string(max_pattern_length) + " bytes allowed");
  }
  if (nesting_depth(pattern) > max_pattern_nesting) {
    invalid(option, pattern,
            "groups nested more than " + std::to_string(max_pattern_nesting) + " deep");
  }
  if (has_too_large_number(pattern)) {
    invalid(option, pattern, "number too large in a repetition count or back-reference");
  }
  try {
    compiled_ = std::make_shared<const compiled>(
        compiled{boost::regex(pattern.data(), pattern.data() + pattern.size(), syntax)});
  } catch (const boost::regex_error& e) {
    invalid(option, pattern, compiler_message(e));
  }
  if (calls_groups(compiled_->regex)) {
    invalid(option, pattern,
            "recursion and subroutine calls such as (?R) and (?1) are not supported");
  }
}

search_outcome url_pattern::search(std::string_view url) const {
  search_results results;
  try {
    // match_any: any match will do, the first one found.
    const bool found = boost::regex_search(url.data(), url.data() + url.size(), results,
                                           compiled_->regex, boost::match_any);
    return found ? search_outcome::match : search_outcome::no_match;
  } catch (const boost::regex_error&) {
    // error_complexity (over the step limit) or error_stack (the matcher's heap stack, 4 MiB,
    // is full): either way the search has gone on too long.
    return search_outcome::gave_up;
  }
}

std::vector<url_pattern> compile_patterns(std::span<const std::string> patterns,
                                          std::string_view option) {
  std::vector<url_pattern> compiled;
  compiled.reserve(patterns.size());
  for (const std::string& pattern : patterns)
    compiled.emplace_back(pattern, option);
  return compiled;
}

std::string shortened_for_message(std::string_view text, std::size_t keep) {
  if (text.size() <= keep) return ascii::escape_controls(text);
  std::size_t end = keep;
  // Cut before a UTF-8 continuation byte, not inside a character.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;
  return ascii::escape_controls(text.substr(0, end)) + "... (" + std::to_string(text.size()) +
         " bytes)";
}

}  // namespace corocrawl
