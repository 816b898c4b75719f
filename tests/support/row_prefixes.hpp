#pragma once

// Checks on the row-by-row engines' subproblems, with the test's own attack
// rule rather than the kernel's bitmasks.

#include <cstdlib>

#include "engines/row_engine.hpp"

namespace nqueens {

/// True when no two queens of `s` share a column or a diagonal.
inline bool non_attacking(int n, const detail::row_prefix& s) {
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if (!s.has_queen(a) || !s.has_queen(b)) continue;
      const int ca = s.columns[static_cast<std::size_t>(a)], cb = s.columns[static_cast<std::size_t>(b)];
      if (ca == cb || std::abs(ca - cb) == b - a) return false;
    }
  }
  return true;
}

}  // namespace nqueens
