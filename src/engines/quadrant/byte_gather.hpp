#pragma once

// The 8-bit pext of every byte by every byte mask, 64 KiB: what the
// quadrant kernels built without BMI2 gather a fixed mask's bits through, a
// byte of it at a time (bit_gather, pair_primitives.inc). A bit at a time
// took Q(18) twice as long as pext on an AMD EPYC (Zen 4).

#include <bit>
#include <cstdint>

namespace nqueens::detail {

// Plain arrays: std::array's operator[] calls alone took Clang past its
// limit on constant evaluation.
struct byte_gathers {
  std::uint8_t row[256][256];
};

// Each row from a smaller one: the mask's lowest bit, then the gather of
// the rest above it. An entry costs a few steps, within Clang's limit on
// constant evaluation (about 10^6 steps) where a bit at a time was not.
constexpr byte_gathers make_byte_gathers() noexcept {
  byte_gathers table{};
  for (unsigned mask = 1; mask < 256; ++mask) {
    const unsigned lowest = static_cast<unsigned>(std::countr_zero(mask)), rest = mask & (mask - 1);
    for (unsigned value = 0; value < 256; ++value) {
      table.row[mask][value] = static_cast<std::uint8_t>((value >> lowest & 1U) | table.row[rest][value] << 1);
    }
  }
  return table;
}

/// byte_gather_table.row[mask][value]: value's bits where mask has them,
/// packed low (pext on 8 bits).
inline constexpr byte_gathers byte_gather_table = make_byte_gathers();
static_assert(byte_gather_table.row[0xF0][0xAB] == 0xA && byte_gather_table.row[0x55][0xFF] == 0xF &&
              byte_gather_table.row[0x81][0x80] == 0x2 && byte_gather_table.row[0][0xFF] == 0);

}  // namespace nqueens::detail
