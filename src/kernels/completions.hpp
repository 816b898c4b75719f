#pragma once

// Collecting every completion of a prefix, for listing: the counting
// kernel's visiting search, with each completion packed into an integer key
// whose order is the lexicographic order of the tuples.

#include <cstdint>
#include <span>
#include <vector>

#include "nqueens/isa.hpp"

namespace nqueens::detail {

/// Most rows below a prefix that a key holds: 5 bits per column (n <= 32).
inline constexpr int max_packed_rows = 12;

/// Appends a key for every completion of the non-attacking `prefix` (queens
/// of rows 0..prefix.size()-1) on an n-board to `out`, in the kernel's
/// order. A key packs the columns of rows prefix.size()..n-1, 5 bits each,
/// the first row highest: sorting the keys sorts the solutions.
/// Searches with the kernels of `kernels`.
/// Preconditions: n <= 32, n - prefix.size() <= max_packed_rows, cpu_supports(kernels).
void collect_completions(int n, std::span<const std::uint8_t> prefix, std::vector<std::uint64_t>& out, isa kernels);

/// Writes the columns packed in `key` (see collect_completions) to rows
/// prefix_rows..n-1 of `queens`.
constexpr void unpack_completion(std::uint64_t key, int n, int prefix_rows, std::span<std::uint8_t> queens) noexcept {
  for (int r = n - 1; r >= prefix_rows; --r) {
    queens[static_cast<std::size_t>(r)] = static_cast<std::uint8_t>(key & 31);
    key >>= 5;
  }
}

}  // namespace nqueens::detail
