#pragma once

// The 8 symmetries of the square board (the dihedral group D4) acting on
// squares and on full placements.

#include <array>
#include <cstdint>
#include <span>

namespace nqueens::detail {

enum class symmetry : std::uint8_t {
  identity,
  rotate90,        // clockwise: (r, c) -> (c, m - r), m = n - 1
  rotate180,       // (r, c) -> (m - r, m - c)
  rotate270,       // (r, c) -> (m - c, r)
  flip_columns,    // left-right mirror: (r, c) -> (r, m - c)
  flip_rows,       // upside down: (r, c) -> (m - r, c)
  transpose,       // main diagonal: (r, c) -> (c, r)
  anti_transpose,  // anti-diagonal: (r, c) -> (m - c, m - r)
};
inline constexpr int symmetry_count = 8;

struct square {
  int row;
  int col;
  friend constexpr bool operator==(const square&, const square&) = default;
  friend constexpr auto operator<=>(const square&, const square&) = default;
};

/// Image of square `s` on an n x n board under `g`.
constexpr square apply(symmetry g, int n, square s) noexcept {
  const int m = n - 1;
  switch (g) {
    case symmetry::identity:
      return s;
    case symmetry::rotate90:
      return {s.col, m - s.row};
    case symmetry::rotate180:
      return {m - s.row, m - s.col};
    case symmetry::rotate270:
      return {m - s.col, s.row};
    case symmetry::flip_columns:
      return {s.row, m - s.col};
    case symmetry::flip_rows:
      return {m - s.row, s.col};
    case symmetry::transpose:
      return {s.col, s.row};
    case symmetry::anti_transpose:
      return {m - s.col, m - s.row};
  }
  return s;
}
static_assert(apply(symmetry::rotate90, 8, apply(symmetry::rotate270, 8, {1, 2})) == square{1, 2});
static_assert(apply(symmetry::rotate90, 8, apply(symmetry::rotate90, 8, {1, 2})) ==
              apply(symmetry::rotate180, 8, {1, 2}));
static_assert(apply(symmetry::transpose, 8, apply(symmetry::flip_columns, 8, {0, 5})) ==
              apply(symmetry::rotate270, 8, {0, 5}));

/// Image of a full placement (queen in column q[r] of row r, every row filled)
/// under `g`, written to `out` (same size as q).
inline void apply(symmetry g, std::span<const std::uint8_t> q, std::span<std::uint8_t> out) noexcept {
  const int n = static_cast<int>(q.size());
  for (int r = 0; r < n; ++r) {
    const square s = apply(g, n, {r, q[static_cast<std::size_t>(r)]});
    out[static_cast<std::size_t>(s.row)] = static_cast<std::uint8_t>(s.col);
  }
}

}  // namespace nqueens::detail
