#pragma once

// The 8-bit pext of every byte by every byte mask, 64 KiB: what the
// quadrant kernels built without BMI2 gather a fixed mask's bits through, a
// byte of it at a time (bit_gather, pair_primitives.inc). A bit at a time
// took Q(18) twice as long as pext on an AMD EPYC (Zen 4).

#include <array>
#include <cstdint>

namespace nqueens::detail {

using byte_gathers = std::array<std::array<std::uint8_t, 256>, 256>;

constexpr byte_gathers make_byte_gathers() noexcept {
  byte_gathers table{};
  for (unsigned mask = 0; mask < 256; ++mask) {
    for (unsigned value = 0; value < 256; ++value) {
      unsigned out = 0, k = 0;
      for (unsigned bit = 0; bit < 8; ++bit) {
        if ((mask >> bit & 1U) != 0) out |= (value >> bit & 1U) << k++;
      }
      table[mask][value] = static_cast<std::uint8_t>(out);
    }
  }
  return table;
}

/// byte_gather_table[mask][value]: value's bits where mask has them, packed
/// low (pext on 8 bits).
inline constexpr byte_gathers byte_gather_table = make_byte_gathers();
static_assert(byte_gather_table[0xF0][0xAB] == 0xA && byte_gather_table[0x55][0xFF] == 0xF &&
              byte_gather_table[0x81][0x80] == 0x2 && byte_gather_table[0][0xFF] == 0);

}  // namespace nqueens::detail
