#pragma once

// What counting disjoint pairs keeps: given two lists of 64-bit masks, how
// many pairs (a, b), a from the first and b from the second, have a & b == 0
// (quadrant_kernels::count_pairs, pair_counter.inc per instruction set). The
// quadrant engine spends most of its time there (see quarter_tables.hpp).

#include <atomic>
#include <cstdint>
#include <vector>

#include "engines/join_model/digit_widths.hpp"

namespace nqueens::detail {

/// 512 bits, one per member of a block of south masks; 64-byte aligned so
/// that a block is one cache line and one AVX-512 register.
struct alignas(64) block_bits {
  std::uint64_t word[8];
};

/// Reusable buffers of the pair count (quadrant_kernels::count_pairs): keep one per thread, and the
/// count allocates nothing once they have grown to the largest lists seen.
/// Here `north` is the list the count walks and `south` the one it blocks.
struct pair_scratch {
  /// A key bit more doubles the tree's classes; one is added while a class
  /// would still hold this many masks of the smaller list on average (tests
  /// lower it to reach the deepest trees on lists they can check).
  std::size_t masks_per_key_class = 64;
  /// Counts of at most this many pairs go each mask against each, without
  /// preparing either list: at n = 18 60% of the counts (the filter's ties)
  /// hold fewer than 10^4 pairs, where preparing a block of 512 masks costs
  /// more than the pairs. Tests set 0 to prepare every count.
  std::size_t each_against_each_pairs = std::size_t{1} << 13;
  /// A walked list of at least this many masks takes digits of up to 9
  /// bits (digit_widths.hpp; tests set 0 to reach them on short lists).
  std::size_t widest_digits_from = detail::widest_digits_from;
  /// Looked at between blocks of the count, and by the quadrant kernel
  /// between its steps (null: never): once set, they throw
  /// subproblem_cancelled. A block takes microseconds to milliseconds.
  const std::atomic<bool>* cancel = nullptr;
  std::vector<std::uint32_t> north_offsets, south_offsets, cursor;  // per key
  std::vector<std::uint16_t> entries;  // per north mask: its digits' table entries; then entry_padding more
  /// Entries past the last north mask's: the sieve reads them four at a time.
  static constexpr std::size_t entry_padding = 3;
  std::vector<std::uint64_t> south_sorted;              // by key, each leaf of the tree padded to whole blocks
  std::vector<std::uint32_t> node_north, node_south;    // per tree node: masks under it
  std::vector<double> node_cost, zeta;                  // the cheapest tree below a node; a transform's buffer
  std::vector<std::uint8_t> leaf_of;                    // 1 where a node is a leaf of the cheapest tree
  std::vector<std::uint32_t> block_fixed, block_sizes;  // per block: its key's fixed ones, its members
  std::vector<std::uint8_t> block_free;                 // per block: its open (low) key bits
  std::vector<block_bits> rows;                         // bit-sliced south blocks: per bit, which members lack it
  std::vector<block_bits> table;                        // one block's digit tables
};

}  // namespace nqueens::detail
