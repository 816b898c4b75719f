#pragma once

/// \file
/// Step 3 of plan -> execute -> reduce -> verify: exact 128-bit sums.

#include <cstddef>

#include "nqueens/count_types.hpp"
#include "nqueens/execute.hpp"

namespace nqueens {

/// Sum of the finished subproblems of one execution.
struct totals {
  uint128 total = 0;
  /// Fundamental solutions the engine classified; meaningful only for
  /// engines that count them (every count derives them; see count.hpp).
  uint128 unique = 0;
  /// Solutions unchanged by a half turn, and by a quarter turn.
  uint128 symmetric_180 = 0;
  uint128 symmetric_90 = 0;
  /// Subproblems whose counts went into the sums.
  std::size_t finished = 0;
  /// Subproblems in the plan; the totals are the full count only when
  /// finished == subproblems.
  std::size_t subproblems = 0;

  bool complete() const noexcept { return finished == subproblems; }
};

/// Adds one finished subproblem's counts to `sums` exactly. Throws
/// std::overflow_error rather than wrap past 2^128.
void accumulate(totals& sums, const subproblem_count& c);

/// Adds the counts of every finished subproblem exactly. Throws
/// std::invalid_argument where `run.finished` and `run.counts` (one entry
/// per subproblem run) differ in length, as no execute() writes them.
totals reduce(const execution& run);

}  // namespace nqueens
