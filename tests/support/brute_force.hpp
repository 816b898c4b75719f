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
inline std::uint64_t count_with_prefix(const std::vector<std::vector<int>>& solutions, const std::vector<int>& prefix) {
  return static_cast<std::uint64_t>(std::count_if(solutions.begin(), solutions.end(), [&](const auto& s) {
    return std::equal(prefix.begin(), prefix.end(), s.begin());
  }));
}

}  // namespace nqueens::testing

namespace nqueens::testing {

/// One solution for any n >= 4 by the classic explicit construction (no
/// search): for even n not 2 mod 6, (i, 2i+1) then (n/2+i, 2i); for even n not
/// 0 mod 6, a shifted pattern; for odd n, the solution for n-1 plus a corner.
inline std::vector<int> explicit_solution(int n) {
  if (n % 2 == 1) {
    std::vector<int> q = explicit_solution(n - 1);
    q.push_back(n - 1);
    return q;
  }
  std::vector<int> q(static_cast<std::size_t>(n));
  const int half = n / 2;
  if (n % 6 != 2) {
    for (int i = 0; i < half; ++i) {
      q[static_cast<std::size_t>(i)] = 2 * i + 1;
      q[static_cast<std::size_t>(half + i)] = 2 * i;
    }
  } else {
    for (int i = 0; i < half; ++i) {
      const int c = (2 * i + half - 1) % n;
      q[static_cast<std::size_t>(i)] = c;
      q[static_cast<std::size_t>(n - 1 - i)] = n - 1 - c;
    }
  }
  return q;
}

}  // namespace nqueens::testing
