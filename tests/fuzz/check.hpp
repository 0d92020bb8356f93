#pragma once
// How the fuzz targets report a property that does not hold: they print the target, the
// property and the input it failed on, then abort. libFuzzer takes the abort for a crash, so
// it saves the whole input as an artifact and the run fails; the printed input is the part
// the property was about (a header value, a URL, a page), to read without the artifact.

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace corocrawl::fuzz {

/// Prints "TARGET fuzzer: WHAT" and, on a line of its own, the input in double quotes (its
/// bytes as they are: NULs and newlines included), then aborts.
[[noreturn]] inline void fail(std::string_view target, std::string_view what,
                              std::string_view input) {
  std::fprintf(stderr, "%.*s fuzzer: %.*s\ninput: \"", static_cast<int>(target.size()),
               target.data(), static_cast<int>(what.size()), what.data());
  // fwrite, not %s: the input may hold NULs.
  std::fwrite(input.data(), 1, input.size(), stderr);
  std::fputs("\"\n", stderr);
  std::abort();
}

/// fail() for one target: each fuzzer defines `constexpr checker check{"name"};` and writes
/// `check(property, "what is wrong", input)`, or `check.fail(...)` where nothing is left to test.
class checker {
 public:
  explicit constexpr checker(std::string_view target) : target_(target) {}

  /// Fails unless `ok`.
  void operator()(bool ok, std::string_view what, std::string_view input) const {
    if (!ok) fail(what, input);
  }

  [[noreturn]] void fail(std::string_view what, std::string_view input) const {
    fuzz::fail(target_, what, input);
  }

 private:
  std::string_view target_;
};

}  // namespace corocrawl::fuzz
