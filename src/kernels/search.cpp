#include "kernels/search.hpp"

#include <array>

#include "isa/implementation.hpp"
#include "kernels/bits.hpp"

namespace nqueens::detail {

// Defined by search_<id>.cpp, one per implementation (isa/implementation.hpp).
#define NQUEENS_DECLARE_KERNELS(id, name, kernels) extern const search_kernels id##_search_kernels;
NQUEENS_EACH_IMPLEMENTATION(NQUEENS_DECLARE_KERNELS)
#undef NQUEENS_DECLARE_KERNELS

namespace {

// By implementation: the list expanded.
#define NQUEENS_PUT_KERNELS(id, name, kernels) .put(name, id##_search_kernels)
// clang-format off
constexpr kernel_table<search_kernels> by_implementation =
    kernel_table<search_kernels>{} NQUEENS_EACH_IMPLEMENTATION(NQUEENS_PUT_KERNELS);
// clang-format on
#undef NQUEENS_PUT_KERNELS
static_assert(by_implementation.complete(), "a table entry per implementation");

}  // namespace

const search_kernels& search_kernels_for(isa kernels) noexcept {
  return by_implementation[implementation_for(kernels).index];
}

board_state place_prefix(int n, std::span<const std::uint8_t> columns) noexcept {
  board_state s;
  const std::uint32_t full = low_bits(n);
  for (const std::uint8_t c : columns) {
    const std::uint32_t bit = std::uint32_t{1} << c;
    s.columns |= bit;
    s.left = ((s.left | bit) << 1) & full;
    s.right = (s.right | bit) >> 1;
    ++s.row;
  }
  return s;
}

bool is_non_attacking_prefix(int n, std::span<const std::uint8_t> columns) noexcept {
  board_state s;
  for (const std::uint8_t c : columns) {
    if (c >= n) return false;
    const std::uint32_t bit = std::uint32_t{1} << c;
    if ((s.columns | s.left | s.right) & bit) return false;
    s.columns |= bit;
    s.left = (s.left | bit) << 1;
    s.right = (s.right | bit) >> 1;
  }
  return true;
}

std::uint32_t attacked_columns(int n, int queen_row, int queen_col, int row) noexcept {
  const int distance = row - queen_row;
  std::uint32_t bits = std::uint32_t{1} << queen_col;
  if (const int c = queen_col + distance; c >= 0 && c < n) bits |= std::uint32_t{1} << c;
  if (const int c = queen_col - distance; c >= 0 && c < n) bits |= std::uint32_t{1} << c;
  return bits;
}

namespace {
std::uint64_t nodes_below(int n, int row, std::uint32_t columns, std::uint32_t left, std::uint32_t right,
                          const std::uint32_t* allowed) noexcept {
  if (row == n) return 0;
  std::uint64_t nodes = 0;
  for (std::uint32_t free = allowed[row] & ~(columns | left | right); free != 0; free = clear_lowest_bit(free)) {
    const std::uint32_t bit = lowest_bit(free);
    nodes += 1 + nodes_below(n, row + 1, columns | bit, (left | bit) << 1, (right | bit) >> 1, allowed);
  }
  return nodes;
}
}  // namespace

std::uint64_t count_nodes(int n, const search_start& start) noexcept {
  return nodes_below(n, start.state.row, start.state.columns, start.state.left, start.state.right,
                     start.allowed.data());
}

}  // namespace nqueens::detail
