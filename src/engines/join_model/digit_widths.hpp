#pragma once

// How the quadrant engine's pair counter (quadrant/pair_counter.inc) cuts
// the bits in play into key bits and digits: the widths and the rules that
// pick them. The same for every instruction set, and read by the
// transposition filter's count to price a tag bit (transposed_pairs.cpp).
// In the join model because the GPU engine takes its key by the same rule
// (key_bits_within).

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
// tables stay within 1024 entries (64 KiB): 10%
// faster at n = 20 than 6 bits (fewer loads per visit), 8 bits were slower
// again (tables past L1). Where 7 bits save no digit, 6-bit tables are half
// as much to build: Q(18) 2% faster.
inline constexpr int wide_digit_bits = 7;
inline constexpr int narrow_digit_bits = 6;
inline constexpr int max_digits = (64 + narrow_digit_bits - 1) / narrow_digit_bits;
inline constexpr int max_table_entries = 65536 / 64;  // 64 KiB of tables for 6- and 7-bit digits
// Where the walked list is long, a block's tables are read by so many
// visits that tables of up to 9-bit digits (512 entries, past L1) pay for
// the load a visit they save: n = 28's 29-35 bits beside the key in four
// digits instead of five, one class 7% faster, n = 26 9%, n = 24 6%, n = 22
// 2% (Intel Xeon, Cascade Lake). On short lists their builds cost more
// than they save (an n = 28 class 7% slower with them everywhere): from
// 2^17 walked masks, which n = 20's groups never reach.
inline constexpr int widest_digit_bits = 9;
inline constexpr std::size_t widest_digits_from = std::size_t{1} << 17;
// The walked list's entries are 16-bit table offsets in units of
// entry_scale bytes (an address's scale: no instruction), so that tables
// of up to 4096 entries of 64 bytes are within reach.
inline constexpr int entry_scale = 4;
inline constexpr int max_wide_table_entries = 65536 * entry_scale / 64;

/// The key bits of a count of a list of `masks` (the one the key classes
/// split), `used_bits` bits in play: a key bit more doubles the classes; a
/// class should hold `per_class` masks on average, or the bookkeeping
/// outweighs what it skips; at most `most`. The GPU engine's code takes its
/// key by the same rule with its own limits (job_key_bits, gpu_code_kernels.hpp).
NQUEENS_HD constexpr int key_bits_within(std::uint64_t masks, int used_bits, std::uint64_t per_class,
                                         int most) noexcept {
  int key_bits = 0;
  while (key_bits < most && key_bits < used_bits && (masks >> (key_bits + 1)) >= per_class) ++key_bits;
  return key_bits;
}

/// Whether bit x ranks before bit y as a key bit, `chance_x` being the
/// product of x's counts in the two groups (a random pair collides on it
/// with that chance): the likelier collision first, ties to the lower bit.
/// The pair counter's layout (pair_layout.inc) and the GPU engine's layout
/// kernel (gpu_code_kernels.hpp) both rank by it.
NQUEENS_HD constexpr bool collides_before(std::uint64_t chance_x, int x, std::uint64_t chance_y, int y) noexcept {
  return chance_x != chance_y ? chance_x > chance_y : x < y;
}

/// The pair counter's key bits: key_bits_within the smaller list, a few
/// masks of it per class (masks_per_class), at most max_key_bits.
constexpr int key_bits_for(std::size_t smaller, std::uint64_t used, std::size_t masks_per_class) noexcept {
  // NOLINTNEXTLINE(readability-suspicious-call-argument): the smaller list's masks, then those per class
  return key_bits_within(smaller, std::popcount(used), masks_per_class, max_key_bits);
}

/// The digits of `sliced_bits` bits for a walked list of `walked` masks: 7
/// bits where that saves a digit and the tables stay within
/// max_table_entries, else 6; from `wide_from` walked masks, the narrowest
/// of 8 and 9 that saves a digit more (fewer digits of 9 bits, where 8
/// saves one already, cost more in tables: an n = 28 class 13% slower):
/// {width, how many (at least one)}.
constexpr std::pair<int, int> digits_for(int sliced_bits, std::size_t walked, std::size_t wide_from) noexcept {
  const int wide_digits = (sliced_bits + wide_digit_bits - 1) / wide_digit_bits;
  const int narrow_digits = (sliced_bits + narrow_digit_bits - 1) / narrow_digit_bits;
  if (walked >= wide_from) {
    for (int width = wide_digit_bits + 1; width <= widest_digit_bits; ++width) {
      const int digits = (sliced_bits + width - 1) / width;
      if (digits < wide_digits && (digits << width) + (1 << max_free_bits) <= max_wide_table_entries) {
        return {width, digits};
      }
    }
  }
  if (wide_digits < narrow_digits && (wide_digits << wide_digit_bits) + (1 << max_free_bits) <= max_table_entries) {
    return {wide_digit_bits, std::max(wide_digits, 1)};
  }
  return {narrow_digit_bits, std::max(narrow_digits, 1)};
}

/// Whether every layout digits_for can choose keeps its tables within
/// max_wide_table_entries, each entry's scaled offset within 16 bits.
constexpr bool every_layout_reachable() noexcept {
  for (int sliced = 0; sliced <= 64; ++sliced) {
    for (const std::size_t walked : {std::size_t{0}, widest_digits_from}) {
      const auto [width, digits] = digits_for(sliced, walked, widest_digits_from);
      const int entries = digits * (1 << width) + (1 << max_free_bits);
      if (digits > max_digits || entries > max_wide_table_entries || (entries - 1) * 64 / entry_scale > 0xFFFF) {
        return false;
      }
    }
  }
  return true;
}
static_assert(every_layout_reachable(), "a layout's tables would pass the 16-bit scaled entries");

/// The table entries a count of lists of these sizes, with bits `used` in
/// play, loads per visit (as the pair counter lays them out).
constexpr int loads_per_visit(std::size_t north_size, std::size_t south_size, std::uint64_t used,
                              std::size_t masks_per_class, std::size_t wide_from) noexcept {
  const std::size_t walked = std::min(north_size, south_size);
  const int key_bits = key_bits_for(walked, used, masks_per_class);
  return digits_for(std::popcount(used) - key_bits, walked, wide_from).second;
}

}  // namespace nqueens::detail
