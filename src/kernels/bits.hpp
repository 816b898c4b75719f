#pragma once

// Named bit tricks for the kernels. Each states its precondition.

#include <bit>
#include <cstdint>

#include "kernels/host_device.hpp"

namespace nqueens::detail {

/// Mask with the low `n` bits set; valid for 0 <= n <= 32.
NQUEENS_HD constexpr std::uint32_t low_bits(int n) noexcept {
  // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): n >= 0 is the precondition
  return static_cast<std::uint32_t>((std::uint64_t{1} << n) - 1);
}
static_assert(low_bits(0) == 0 && low_bits(1) == 1 && low_bits(8) == 0xFF);
static_assert(low_bits(32) == 0xFFFFFFFFu);

/// The lowest set bit of `bits`; zero when `bits` is zero.
constexpr std::uint32_t lowest_bit(std::uint32_t bits) noexcept { return bits & (0u - bits); }
static_assert(lowest_bit(0b1011000) == 0b1000 && lowest_bit(0) == 0);

/// `bits` without its lowest set bit; zero when `bits` is zero.
constexpr std::uint32_t clear_lowest_bit(std::uint32_t bits) noexcept { return bits & (bits - 1); }
static_assert(clear_lowest_bit(0b1011000) == 0b1010000 && clear_lowest_bit(0) == 0);

/// Column index of a single-bit mask. Precondition: `bit` is non-zero.
constexpr int column_of(std::uint32_t bit) noexcept { return std::countr_zero(bit); }
static_assert(column_of(1u << 5) == 5);

}  // namespace nqueens::detail
