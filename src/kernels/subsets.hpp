#pragma once

// Visiting the subsets of a fixed size in increasing order (Gosper's hack,
// HAKMEM item 175): the quadrant engine walks row sets and column sets this way.

#include <array>
#include <bit>
#include <cstdint>

namespace nqueens::detail {

/// The next larger integer with as many set bits as `bits`.
/// Precondition: bits != 0 and the result fits in 64 bits.
constexpr std::uint64_t next_subset(std::uint64_t bits) noexcept {
  const std::uint64_t low = bits & (0 - bits);
  const std::uint64_t ripple = bits + low;
  return ripple | (((bits ^ ripple) >> 2) / low);
}
static_assert(next_subset(0b0111) == 0b1011 && next_subset(0b1011) == 0b1101 && next_subset(0b1100) == 0b10001);

/// Calls visit(set) for every subset of `universe` (32 bits) with `size`
/// members, in increasing order of the subsets' ranks within the universe.
template <typename Visit>
void for_each_subset(std::uint32_t universe, int size, Visit&& visit) {
  const int members = std::popcount(universe);
  if (size < 0 || size > members) return;
  std::array<int, 32> column{};  // the universe's k-th member
  int k = 0;
  for (int c = 0; c < 32; ++c) {
    if ((universe >> c) & 1U) column[static_cast<std::size_t>(k++)] = c;
  }
  const std::uint64_t end = std::uint64_t{1} << members;
  for (std::uint64_t ranks = (std::uint64_t{1} << size) - 1; ranks < end; ranks = next_subset(ranks)) {
    std::uint32_t set = 0;
    for (std::uint64_t bits = ranks; bits != 0; bits &= bits - 1) {
      set |= std::uint32_t{1} << column[static_cast<std::size_t>(std::countr_zero(bits))];
    }
    visit(set);
    if (ranks == 0) break;  // the one empty subset
  }
}

}  // namespace nqueens::detail
