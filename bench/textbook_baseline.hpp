#pragma once

// The textbook baseline every speed-up is measured against: the plain
// recursive bitmask backtracker (as in Jeff Somers' widely copied version and
// most course notes) with the left-right mirror on the first row, one thread.
// Kept deliberately simple; it is not used by the library.

#include <cstdint>

namespace nqueens::baseline {

inline void textbook_recurse(std::uint32_t full, std::uint32_t columns, std::uint32_t left, std::uint32_t right,
                             std::uint64_t& count) {
  if (columns == full) {
    ++count;
    return;
  }
  std::uint32_t free = full & ~(columns | left | right);
  while (free != 0) {
    const std::uint32_t bit = free & (0u - free);
    free -= bit;
    textbook_recurse(full, columns | bit, (left | bit) << 1, (right | bit) >> 1, count);
  }
}

/// Q(n) for 1 <= n <= 31 with the first-row mirror: columns in the left half
/// count twice, the middle column of odd n once.
inline std::uint64_t textbook_count(int n) {
  const std::uint32_t full = (std::uint32_t{1} << n) - 1;
  std::uint64_t half = 0;
  for (int c = 0; c < n / 2; ++c) {
    const std::uint32_t bit = std::uint32_t{1} << c;
    textbook_recurse(full, bit, bit << 1, bit >> 1, half);
  }
  std::uint64_t middle = 0;
  if (n % 2 == 1) {
    const std::uint32_t bit = std::uint32_t{1} << (n / 2);
    textbook_recurse(full, bit, bit << 1, bit >> 1, middle);
  }
  return 2 * half + middle;
}

/// Nodes (queens placed) the textbook search visits, the first row included.
inline std::uint64_t textbook_nodes(int n) {
  const std::uint32_t full = (std::uint32_t{1} << n) - 1;
  struct walker {
    std::uint32_t full;
    std::uint64_t nodes = 0;
    void walk(std::uint32_t columns, std::uint32_t left, std::uint32_t right) {
      for (std::uint32_t free = full & ~(columns | left | right); free != 0; free &= free - 1) {
        const std::uint32_t bit = free & (0u - free);
        ++nodes;
        walk(columns | bit, (left | bit) << 1, (right | bit) >> 1);
      }
    }
  } w{full};
  for (int c = 0; c < (n + 1) / 2; ++c) {
    const std::uint32_t bit = std::uint32_t{1} << c;
    ++w.nodes;
    w.walk(bit, bit << 1, bit >> 1);
  }
  return w.nodes;
}

}  // namespace nqueens::baseline
