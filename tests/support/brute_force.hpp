#pragma once

// Independent reference counters for the tests: they share no code with the
// library, so agreeing with them means something.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace nqueens::testing {

/// True when the queens at (row r, column q[r]) attack no one: the columns are a
/// permutation, so only diagonals need checking.
inline bool is_solution(const std::vector<int>& q) {
  for (std::size_t a = 0; a < q.size(); ++a) {
    for (std::size_t b = a + 1; b < q.size(); ++b) {
      if (std::abs(q[a] - q[b]) == static_cast<int>(b - a)) return false;
    }
  }
  return true;
}

/// Every solution on an n-board (n <= 10), by trying every permutation.
inline std::vector<std::vector<int>> all_solutions_by_permutation(int n) {
  std::vector<int> q(static_cast<std::size_t>(n));
  std::iota(q.begin(), q.end(), 0);
  std::vector<std::vector<int>> solutions;
  do {
    if (is_solution(q)) solutions.push_back(q);
  } while (std::next_permutation(q.begin(), q.end()));
  return solutions;
}

/// Number of solutions whose first rows equal `prefix`.
inline std::uint64_t count_with_prefix(const std::vector<std::vector<int>>& solutions,
                                       const std::vector<int>& prefix) {
  return static_cast<std::uint64_t>(std::count_if(solutions.begin(), solutions.end(), [&](const auto& s) {
    return std::equal(prefix.begin(), prefix.end(), s.begin());
  }));
}

}  // namespace nqueens::testing
