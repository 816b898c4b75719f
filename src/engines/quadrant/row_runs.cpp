#include "engines/quadrant/row_runs.hpp"

#include <algorithm>

#include "engines/join_model/exact_growth.hpp"

namespace nqueens::detail {

std::span<std::uint64_t> halves_with_rows(std::span<std::uint64_t> list, std::span<const row_run> runs,
                                          std::uint32_t lowest, std::uint32_t highest) noexcept {
  std::size_t begin = 0, start = 0, end = 0;
  bool found = false;
  for (const row_run& r : runs) {
    if (r.rows >= lowest && r.rows <= highest) {
      if (!found) begin = start;
      found = true;
      end = r.end;
    }
    start = r.end;
  }
  return found ? list.subspan(begin, end - begin) : std::span<std::uint64_t>{};
}

// The joins make the runs in the order of the quarter tables; the ties
// counted apart take ranges of them by row set.
void order_runs(std::span<std::uint64_t> list, std::span<row_run> runs, run_sorter& sorter) {
  const auto by_rows = [](const auto& x, const auto& y) { return x.rows < y.rows; };
  if (std::is_sorted(runs.begin(), runs.end(), by_rows)) return;
  sorter.runs.clear();
  std::size_t begin = 0;
  for (const row_run& r : runs) {
    sorter.runs.push_back({r.rows, begin, r.end});
    begin = r.end;
  }
  std::sort(sorter.runs.begin(), sorter.runs.end(), by_rows);
  if (sorter.halves.size() < list.size()) resize_exactly(sorter.halves, list.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < sorter.runs.size(); ++i) {
    const run_sorter::placed& r = sorter.runs[i];
    std::copy(list.begin() + static_cast<std::ptrdiff_t>(r.begin), list.begin() + static_cast<std::ptrdiff_t>(r.end),
              sorter.halves.begin() + static_cast<std::ptrdiff_t>(at));
    at += r.end - r.begin;
    runs[i] = {r.rows, at};
  }
  std::copy(sorter.halves.begin(), sorter.halves.begin() + static_cast<std::ptrdiff_t>(at), list.begin());
}

}  // namespace nqueens::detail
