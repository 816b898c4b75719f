#pragma once

/// \file
/// One call that runs plan -> execute -> reduce -> verify for a board size.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "nqueens/count_types.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/verify.hpp"

namespace nqueens {

/// Options for count().
struct count_options {
  engine kind = engine::symmetric;
  /// Worker threads; 0 means every hardware thread.
  int threads = 0;
  /// Rows fixed per subproblem; 0 chooses automatically (see plan_options).
  int split_depth = 0;
};

/// Everything a caller wants to print about one count.
struct count_result {
  int n = 0;
  engine kind = engine::symmetric;
  uint128 total = 0;
  /// Fundamental solutions, when the engine counts them.
  std::optional<uint128> unique;
  int threads = 0;
  /// Wall-clock seconds of planning plus execution.
  double seconds = 0.0;
  std::size_t subproblems = 0;
  int split_depth = 0;
  std::uint64_t plan_fingerprint = 0;
  verification check;
};

/// Counts every solution of the n-queens problem on an n x n board.
/// Throws std::invalid_argument for n outside 1..max_board_size or bad options.
count_result count(int n, const count_options& options = {});

}  // namespace nqueens
