#pragma once

// Visiting the subsets of a fixed size in increasing order (Gosper's hack,
// HAKMEM item 175): the quadrant engine walks row sets and column sets this way.

#include <bit>
#include <cstdint>

namespace nqueens::detail {

/// The next larger integer with as many set bits as `bits`.
/// Precondition: bits != 0 and the result fits in 64 bits.
constexpr std::uint64_t next_subset(std::uint64_t bits) noexcept {
  const std::uint64_t low = bits & (0 - bits);
  const std::uint64_t ripple = bits + low;
  return ripple | (((bits ^ ripple) >> 2) / low);  // NOLINT(clang-analyzer-core.DivideZero): bits != 0
}
static_assert(next_subset(0b0111) == 0b1011 && next_subset(0b1011) == 0b1101 && next_subset(0b1100) == 0b10001);

}  // namespace nqueens::detail
