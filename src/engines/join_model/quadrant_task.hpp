#pragma once

// A subproblem of the quadrant and GPU engines, as their plan
// (class_plan.hpp) lists it and each counts it (quadrant/quadrant_solve.hpp,
// gpu/gpu_backend.hpp).

#include <cstdint>

namespace nqueens::detail {

/// One subproblem: the solutions whose north half, rows 0..n/2-1, uses
/// exactly the columns `north` (bit c = column c), with the middle row's
/// queen (odd n) in column `middle`; slice `slice` of the plan's slices of
/// those north halves (class_slicing.hpp); `weight` column sets stand for it under the board's
/// symmetries. For n >= 4 it counts their share under the transposition
/// filter (transposition.hpp), not all of them.
struct quadrant_task {
  std::uint32_t north = 0;
  std::int8_t middle = -1;  ///< -1 for even n
  std::uint8_t weight = 1;
  std::uint8_t slice = 0;
};

}  // namespace nqueens::detail
