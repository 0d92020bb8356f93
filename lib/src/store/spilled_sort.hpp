#pragma once
// Sorting a spilled_table without holding it in memory: runs of it are sorted in memory one
// after the other and appended to a temporary file (another spilled_table), then merged, a
// block of each run at a time. A large crawl's missing fragment references (61 MB at a
// million URLs) are sorted so in a few megabytes.

#include <algorithm>
#include <cstddef>
#include <queue>
#include <vector>

#include "store/spilled_table.hpp"

namespace corocrawl {

/// Reads `input` back once, emptying it, with `prepare(T&)` applied to each element, and calls
/// `emit(const T&)` with every element in the order of `less`. At most `run` elements are
/// sorted in memory at a time (a table of no more is sorted in memory alone); past that, sorted
/// runs go to a temporary file, read back in blocks of `block` elements a run while they are
/// merged. Equal elements come in no particular order. Throws std::system_error if a file
/// cannot be read back.
template <class T, class Prepare, class Less, class Emit>
void sort_spilled(spilled_table<T>& input, std::size_t run, std::size_t block, Prepare prepare,
                  Less less, Emit emit) {
  run = std::max<std::size_t>(run, 1);
  block = std::max<std::size_t>(block, 1);
  std::vector<T> sorting;
  sorting.reserve(std::min(run, input.size()));
  spilled_table<T> runs("sorted runs of a table being sorted", 0);
  std::vector<std::size_t> run_ends;
  const auto end_run = [&] {
    std::sort(sorting.begin(), sorting.end(), less);
    for (const T& value : sorting)
      runs.push_back(value);
    run_ends.push_back(runs.size());
    sorting.clear();
  };
  std::size_t left = input.size();
  input.drain([&](const T& value) {
    sorting.push_back(value);
    prepare(sorting.back());
    if (--left != 0 && sorting.size() == run) end_run();  // the last run may stay in memory
  });
  if (run_ends.empty()) {  // all of it fitted in one run
    std::sort(sorting.begin(), sorting.end(), less);
    for (const T& value : sorting)
      emit(static_cast<const T&>(value));
    return;
  }
  if (!sorting.empty()) end_run();
  sorting = {};  // its memory goes before the merge's blocks come

  // The merge: each run's next elements in a block, and a heap of the runs by their next one.
  struct cursor {
    std::size_t next;  // in `runs`
    std::size_t end;
    std::vector<T> held;
    std::size_t at = 0;  // in `held`
  };
  std::vector<cursor> cursors;
  std::size_t begin = 0;
  for (const std::size_t end : run_ends) {
    cursors.push_back({begin, end, {}});
    begin = end;
  }
  const auto refill = [&runs, block](cursor& c) {
    c.held.resize(std::min(block, c.end - c.next));
    runs.read(c.next, c.held);
    c.next += c.held.size();
    c.at = 0;
  };
  const auto after = [&cursors, &less](std::size_t a, std::size_t b) {
    return less(cursors[b].held[cursors[b].at], cursors[a].held[cursors[a].at]);
  };
  std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(after)> heap(after);
  for (std::size_t i = 0; i < cursors.size(); ++i) {
    refill(cursors[i]);
    heap.push(i);
  }
  while (!heap.empty()) {
    const std::size_t i = heap.top();
    heap.pop();
    cursor& c = cursors[i];
    emit(static_cast<const T&>(c.held[c.at]));
    if (++c.at == c.held.size()) {
      if (c.next == c.end) continue;  // the run is done
      refill(c);
    }
    heap.push(i);
  }
}

}  // namespace corocrawl
