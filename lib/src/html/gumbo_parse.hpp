#pragma once
// gumbo's side of a parse, private to html/: how long a parse may go on (parse_watch), the
// arena gumbo allocates from (gumbo_arena), and a guarded parse run with both (parse_tree).
// gumbo_destroy_output() in gumbo 0.10.1 recurses once per nesting level (300000 nested
// elements overflow an 8 MiB stack), so the tree is never freed node by node: the arena frees
// every block at once.

#include <gumbo.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <stop_token>
#include <string_view>
#include <vector>

#include "html/links.hpp"
#include "html/parse_guard.hpp"

namespace corocrawl {

// Whether a parse should be abandoned: a stop was requested, or its budget ran out. Polled
// often (at every allocation gumbo makes, and for every link resolved), it looks at the
// stop token and the clock only every kPollsPerCheck polls: cheap enough for the hot path,
// and often enough that even gumbo's quadratic paths, which allocate once per tag, are
// abandoned within milliseconds.
class parse_watch {
 public:
  explicit parse_watch(const parse_limits& limits)
      : stop_(limits.stop), deadline_(std::chrono::steady_clock::now() + limits.budget) {}

  /// Why the parse must end now, or nullopt.
  std::optional<parse_outcome> poll() noexcept {
    if (--countdown_ > 0) return std::nullopt;
    countdown_ = kPollsPerCheck;
    if (stop_.stop_requested()) return parse_outcome::stopped;
    if (std::chrono::steady_clock::now() > deadline_) return parse_outcome::over_budget;
    return std::nullopt;
  }

 private:
  static constexpr int kPollsPerCheck = 256;
  std::stop_token stop_;
  std::chrono::steady_clock::time_point deadline_;
  int countdown_ = kPollsPerCheck;
};

// A bump allocator for one parse: gumbo makes a million small allocations for a 2.5 MB page,
// and frees none of those that make up the tree. Nothing is freed before the arena goes
// (but the latest block, which gumbo's growing buffers often give back at once), so the
// tree is never walked to free it.
class gumbo_arena {
 public:
  explicit gumbo_arena(parse_watch& watch) : watch_(watch) {}
  gumbo_arena(const gumbo_arena&) = delete;
  gumbo_arena& operator=(const gumbo_arena&) = delete;

  // gumbo's options for a parse that allocates from this arena (parse errors off).
  GumboOptions options();

 private:
  // gumbo's structs hold pointers and size_t at most; half its blocks are under 32 bytes, so
  // 16-byte alignment would waste a fifth of the arena.
  static constexpr std::size_t kAlignment = alignof(std::size_t);
  static constexpr std::size_t kFirstChunk = 64 * 1024;
  static constexpr std::size_t kLargestChunk = 4 * 1024 * 1024;

  // C callbacks: malloc semantics, no exceptions. gumbo allocates once per tag at least, so
  // this is where a parse is abandoned (before anything is allocated: no C++ object lives
  // between here and parse_guarded, which the jump returns to).
  static void* allocate(void* userdata, std::size_t size) noexcept;
  static void deallocate(void* userdata, void* pointer) noexcept;

  std::byte* add_chunk(std::size_t size) noexcept;

  parse_watch& watch_;
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  std::size_t next_chunk_ = kFirstChunk;
  std::byte* next_ = nullptr;  // free space in the current chunk
  std::size_t free_ = 0;
  std::byte* latest_ = nullptr;  // the latest block from the current chunk
};

// Parses `markup` in an arena of its own and hands its document node to `use`, while the tree
// lives; `use` is not called when the parse did not complete.
template <class Use>
parse_outcome parse_tree(std::string_view markup, parse_watch& watch, Use use) {
  gumbo_arena arena(watch);
  const GumboOptions options = arena.options();
  const auto parsed = parse_guarded(options, markup);
  if (parsed.output != nullptr) use(parsed.output->document);
  return parsed.outcome;
}

}  // namespace corocrawl
