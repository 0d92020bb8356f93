// Reference extraction from the token stream: url() tokens and functions, @import targets,
// the strings directly inside image-set(), and the @namespace URLs left out.
#include "css/css_references.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "css/css_tokens.hpp"
#include "text/ascii.hpp"

namespace corocrawl::css {

namespace {

// The closer each open block waits for; an image-set() function waits for ')' too.
constexpr char kImageSet = 'i';

// Reads the tokens, keeping what the URLs among them depend on: the open blocks (to know
// which strings are directly inside an image-set()), what the last token asks of the next
// one (an @import its target, a url( function its string), and whether the prelude of an
// @namespace rule is being read.
class reference_reader {
 public:
  reference_reader(std::string_view css, std::uint32_t first_line, std::uint32_t first_column)
      : tokens_(css), locator_(css, first_line, first_column) {}

  std::vector<css_reference> run() {
    token t;
    for (tokens_.next(t); t.what != kind::end; tokens_.next(t))
      read(t);
    return std::move(references_);
  }

 private:
  enum class awaiting { nothing, import_target, import_url_string, url_string };

  void read(token& t) {
    const awaiting awaited = std::exchange(awaiting_, awaiting::nothing);
    switch (t.what) {
      case kind::string:
        if (awaited == awaiting::import_target || awaited == awaiting::import_url_string) {
          add(t.value, true, pending_);
        } else if (awaited == awaiting::url_string) {
          add(t.value, false, pending_);
        } else if (!blocks_.empty() && blocks_.back() == kImageSet) {
          add(t.value, false, locator_.at(t.begin));
        }
        break;
      case kind::url:
        add(t.value, awaited == awaiting::import_target,
            awaited == awaiting::import_target ? pending_ : locator_.at(t.begin));
        break;
      case kind::function:
        if (t.value == "url") {
          if (awaited == awaiting::import_target) {
            awaiting_ = awaiting::import_url_string;
          } else {
            awaiting_ = awaiting::url_string;
            pending_ = locator_.at(t.begin);
          }
        }
        blocks_.push_back(t.value == "image-set" || t.value == "-webkit-image-set" ? kImageSet
                                                                                   : ')');
        break;
      case kind::at_keyword:
        if (t.value == "import") {
          awaiting_ = awaiting::import_target;
          pending_ = locator_.at(t.begin);
        } else if (t.value == "namespace" && !namespace_depth_) {
          namespace_depth_ = blocks_.size();
        }
        break;
      case kind::open_paren:
        blocks_.push_back(')');
        break;
      case kind::open_bracket:
        blocks_.push_back(']');
        break;
      case kind::open_brace:
        if (namespace_depth_ == blocks_.size()) namespace_depth_.reset();
        blocks_.push_back('}');
        break;
      case kind::close_paren:
        close(')');
        break;
      case kind::close_bracket:
        close(']');
        break;
      case kind::close_brace:
        if (namespace_depth_ == blocks_.size()) namespace_depth_.reset();  // ends the rule
        close('}');
        break;
      case kind::semicolon:
        if (namespace_depth_ == blocks_.size()) namespace_depth_.reset();
        break;
      case kind::end:
      case kind::bad_string:
      case kind::bad_url:
      case kind::other:
        break;
    }
  }

  // A closer ends the innermost block if it is that block's; a stray one is just a token.
  void close(char closer) {
    if (blocks_.empty()) return;
    const char expected = blocks_.back() == kImageSet ? ')' : blocks_.back();
    if (expected != closer) return;
    blocks_.pop_back();
    if (namespace_depth_ && *namespace_depth_ > blocks_.size()) namespace_depth_.reset();
  }

  void add(std::string_view url, bool import, std::pair<std::uint32_t, std::uint32_t> at) {
    if (namespace_depth_) return;  // @namespace's URL names a namespace: nothing to fetch
    url = ascii::trim(url);
    if (url.empty()) return;
    references_.push_back({std::string(url), import, at.first, at.second});
  }

  tokenizer tokens_;
  locator locator_;
  std::vector<char> blocks_;  // the closer each open block waits for, innermost last
  awaiting awaiting_ = awaiting::nothing;
  std::pair<std::uint32_t, std::uint32_t> pending_{};  // where the @import or url( started
  std::optional<std::size_t> namespace_depth_;  // blocks_.size() at the @namespace being read
  std::vector<css_reference> references_;
};

}  // namespace

std::vector<css_reference> css_references(std::string_view css, std::uint32_t first_line,
                                          std::uint32_t first_column) {
  return reference_reader(css, first_line, first_column).run();
}

}  // namespace corocrawl::css
