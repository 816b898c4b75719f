#pragma once

// A group of halves in runs by west row set: how the joins record them
// (quadrant_solve.cpp) and how the transposition filter's count picks,
// tags and reorders them (transposed_pairs.cpp).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace nqueens::detail {

/// A run of a group's halves that share their west row set: the halves
/// before `end` and from the previous run's end. A group's runs come in the
/// order of its joins (increasing row sets); under the transposition
/// filter's row window `rows` holds the set ranked (rank_rows), and the
/// ties counted apart first put the runs in its order (order_runs); the
/// group holding an odd board's middle column is partitioned into its own
/// three runs (partition_by_column_h).
struct row_run {
  std::uint32_t rows = 0;
  std::size_t end = 0;
};

/// Room to put a group's runs in increasing order of `rows`, the halves
/// moving with them.
struct run_sorter {
  struct placed {
    std::uint32_t rows;
    std::size_t begin, end;
  };
  std::vector<placed> runs;
  std::vector<std::uint64_t> halves;
};

/// The halves of `list` whose row sets lie in [lowest, highest]: one run,
/// or runs in increasing order of their row sets.
std::span<std::uint64_t> halves_with_rows(std::span<std::uint64_t> list, std::span<const row_run> runs,
                                          std::uint32_t lowest, std::uint32_t highest) noexcept;

/// Puts the runs of `list` in increasing order of their row sets, the
/// halves moving with them through the sorter.
void order_runs(std::span<std::uint64_t> list, std::span<row_run> runs, run_sorter& sorter);

/// ORs tag(rows) into each run's halves. (Loops over a run's halves read
/// its end once: a half's store could alias it, both 64-bit, so reading
/// r.end in the loop reloaded it per half and kept the loop scalar: 3% of
/// Q(18).)
template <typename Tag>
void tag_runs(std::span<std::uint64_t> list, std::span<const row_run> runs, const Tag& tag) noexcept {
  std::size_t start = 0;
  for (const row_run& r : runs) {
    const std::uint64_t bits = tag(r.rows);
    const std::size_t end = r.end;
    if (bits != 0) {
      for (std::size_t i = start; i < end; ++i) list[i] |= bits;
    }
    start = end;
  }
}

/// Keeps out[0..count) where keep(mask) (which may change the mask), in
/// order, and returns how many are kept; with `runs`, their ends follow and
/// runs left empty go.
template <typename Keep>
std::size_t keep_halves(std::uint64_t* out, std::size_t count, std::vector<row_run>* runs, const Keep& keep) noexcept {
  std::size_t kept = 0;
  if (runs == nullptr) {
    for (std::size_t i = 0; i < count; ++i) {
      std::uint64_t mask = out[i];
      const bool k = keep(mask);
      out[kept] = mask;
      kept += k ? 1 : 0;
    }
    return kept;
  }
  std::size_t start = 0, runs_kept = 0;
  for (row_run& r : *runs) {
    const std::size_t end = r.end;  // read once (see tag_runs)
    for (std::size_t i = start; i < end; ++i) {
      std::uint64_t mask = out[i];
      const bool k = keep(mask);
      out[kept] = mask;
      kept += k ? 1 : 0;
    }
    start = end;
    const std::size_t first = runs_kept == 0 ? 0 : (*runs)[runs_kept - 1].end;
    if (kept > first) (*runs)[runs_kept++] = {r.rows, kept};
  }
  runs->resize(runs_kept);
  return kept;
}

}  // namespace nqueens::detail
