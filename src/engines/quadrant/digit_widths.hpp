#pragma once

// How the pair counter (pair_counter.inc) cuts the bits in play into key
// bits and digits: the widths and the rules that pick them. The same for
// every instruction set, and read by the transposition filter's count to
// price a tag bit (transposed_pairs.cpp).

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "kernels/host_device.hpp"

namespace nqueens::detail {

// The partition tree's depth: up to 65536 classes. Measured on real groups
// (nqueens_join_study, docs/join-study.md): 16 rather than 12 took 40% off
// an n = 26 subproblem and 10% at n = 24 (n <= 22 rarely has the masks for
// more than 12); 20 was slower than 16 again.
inline constexpr int max_key_bits = 16;
// Keys of at least this many bits rank them by collision chance (pair_layout.inc).
inline constexpr int ranked_key_bits = 10;
inline constexpr int max_free_bits = 6;  // key bits a leaf leaves open: a table of 64 entries per block
// Digits of 7 bits (tables of 128 entries) where they save a digit and the
// tables stay within the 16-bit byte offsets of the north entries: 10%
// faster at n = 20 than 6 bits (fewer loads per visit), 8 bits were slower
// again (tables past L1). Where 7 bits save no digit, 6-bit tables are half
// as much to build: Q(18) 2% faster.
inline constexpr int wide_digit_bits = 7;
inline constexpr int narrow_digit_bits = 6;
inline constexpr int max_digits = (64 + narrow_digit_bits - 1) / narrow_digit_bits;
inline constexpr int max_table_entries = 65536 / 64;  // entries are byte offsets: 16 bits

/// The key bits of a count of a list of `masks` (the one the key classes
/// split), `used_bits` bits in play: a key bit more doubles the classes; a
/// class should hold `per_class` masks on average, or the bookkeeping
/// outweighs what it skips; at most `most`. The GPU engine's code takes its
/// key by the same rule with its own limits (gpu_code_kernels.hpp).
NQUEENS_HD constexpr int key_bits_within(std::uint64_t masks, int used_bits, std::uint64_t per_class,
                                         int most) noexcept {
  int key_bits = 0;
  while (key_bits < most && key_bits < used_bits && (masks >> (key_bits + 1)) >= per_class) ++key_bits;
  return key_bits;
}

/// The pair counter's key bits: key_bits_within the smaller list, a few
/// masks of it per class (masks_per_class), at most max_key_bits.
constexpr int key_bits_for(std::size_t smaller, std::uint64_t used, std::size_t masks_per_class) noexcept {
  return key_bits_within(smaller, std::popcount(used), masks_per_class, max_key_bits);
}

/// Digits of 7 bits where that saves a digit and the tables stay within
/// their 16-bit offsets, else 6: {width, how many (at least one)}.
constexpr std::pair<int, int> digits_for(int sliced_bits) noexcept {
  const int wide_digits = (sliced_bits + wide_digit_bits - 1) / wide_digit_bits;
  const int narrow_digits = (sliced_bits + narrow_digit_bits - 1) / narrow_digit_bits;
  if (wide_digits < narrow_digits && (wide_digits << wide_digit_bits) + (1 << max_free_bits) <= max_table_entries) {
    return {wide_digit_bits, std::max(wide_digits, 1)};
  }
  return {narrow_digit_bits, std::max(narrow_digits, 1)};
}

/// The table entries a count of lists of these sizes, with bits `used` in
/// play, loads per visit (as the pair counter lays them out).
constexpr int loads_per_visit(std::size_t north_size, std::size_t south_size, std::uint64_t used,
                              std::size_t masks_per_class) noexcept {
  const int key_bits = key_bits_for(std::min(north_size, south_size), used, masks_per_class);
  return digits_for(std::popcount(used) - key_bits).second;
}

}  // namespace nqueens::detail
