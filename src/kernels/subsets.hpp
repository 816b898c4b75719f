#pragma once

// Visiting the subsets of a fixed size in increasing order (Gosper's hack,
// HAKMEM item 175): the quadrant engine walks row sets and column sets this way.

#include <bit>
#include <cstdint>

namespace nqueens::detail {

/// The next larger integer with as many set bits as `bits`.
/// Precondition: bits != 0 and the result fits in 64 bits.
constexpr std::uint64_t next_subset(std::uint64_t bits) noexcept {
  const std::uint64_t ripple = bits + (bits & (0 - bits));
  // HAKMEM divides by the lowest bit; a shift by its place does the same
  // without a 64-bit division's tens of cycles (a plan of n = 27 walks
  // 1.5 * 10^8 sets twice).
  return ripple | (((bits ^ ripple) >> 2) >> std::countr_zero(bits));
}
static_assert(next_subset(0b0111) == 0b1011 && next_subset(0b1011) == 0b1101 && next_subset(0b1100) == 0b10001);

}  // namespace nqueens::detail
