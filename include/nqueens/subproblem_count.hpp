#pragma once

/// \file
/// What counting one subproblem gives, whichever engine and executor count
/// it: the vocabulary the engines, the executors and the reducer share.

#include <cstdint>

namespace nqueens {

/// Weighted solution counts found under one subproblem.
///
/// 64 bits suffice per subproblem: a kernel counts at most ~10^10 solutions per
/// second per thread, so 2^64 would take decades for a single subproblem; all
/// sums across subproblems are 128-bit (see reduce.hpp).
struct subproblem_count {
  /// Solutions this subproblem stands for (its completions, weighted).
  std::uint64_t total = 0;
  /// Fundamental solutions (classes under the 8 symmetries) whose canonical
  /// member lies in this subproblem; 0 for engines that do not count them.
  std::uint64_t unique = 0;
  /// Solutions unchanged by a half turn, and by a quarter turn, that this
  /// subproblem counts (only the plan's rotation subproblems count them).
  std::uint64_t symmetric_180 = 0;
  std::uint64_t symmetric_90 = 0;

  friend bool operator==(const subproblem_count&, const subproblem_count&) = default;
};

}  // namespace nqueens
