#pragma once

/// \file
/// One solution for any board size, built by formula rather than found by
/// search (`nqueens first N`).

#include <atomic>
#include <optional>
#include <vector>

#include "nqueens/cancelled.hpp"

namespace nqueens {

/// Largest board first_solution() builds: the placement takes 4 bytes per row.
inline constexpr int max_constructed_board_size = 100'000'000;

/// A solution on an n x n board: the column of the queen in each row, built
/// in O(n) by the explicit construction of Hoffman, Loessi and Moore (1969),
/// as summarised by Bernhardsson (1991). It is *a* solution, not the
/// lexicographically first (solutions(n).begin() gives that, for n <= 32).
/// Returns nothing for n = 2 and n = 3, which have no solution (an empty
/// placement would pass check(), as the 0 x 0 board's).
/// Throws std::invalid_argument for n outside 1..max_constructed_board_size,
/// run_cancelled once `*cancel` is set (null: never) while it builds.
std::optional<std::vector<int>> first_solution(int n, const std::atomic<bool>* cancel = nullptr);

}  // namespace nqueens
