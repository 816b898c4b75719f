#pragma once

// The quadrant engine's data and kernel: every placement of the north half
// (rows 0..h-1, h = n/2) and of the south half (the last h rows), grouped by
// the set of columns it uses, and the count of (north, south) pairs that fit.
// For odd n the middle row's queen is fixed per subproblem and both halves
// are read at the middle row (so no shift in south_mask: a rotation).
//
// A half-board placement is reduced to the diagonals it sends across the
// middle, read where they cross: the north half's attack masks for row h
// (left = moving to higher columns, right = to lower ones), the south half's
// for row h-1 seen from below. A north and a south placement with
// complementary columns form a solution exactly when no north diagonal meets
// a south one; with both packed into 64-bit masks (see north_mask and
// south_mask) that is `north & south == 0`.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "nqueens/plan.hpp"

namespace nqueens::detail {

/// The mask of a north half from its attack masks for row h.
constexpr std::uint64_t north_mask(std::uint32_t left, std::uint32_t right) noexcept {
  return std::uint64_t{left} | (std::uint64_t{right} << 32);
}

/// The mask of a south half from the attack masks for row h-1 of its
/// upside-down search (left = up-right diagonals, right = up-left ones),
/// shifted one row down so that equal bits mean the same diagonal as in
/// north_mask. Precondition: full = low_bits(n).
constexpr std::uint64_t south_mask(std::uint32_t left, std::uint32_t right, std::uint32_t full) noexcept {
  return std::uint64_t{(right << 1) & full} | (std::uint64_t{left >> 1} << 32);
}

/// Frees memory from std::aligned_alloc.
struct free_deleter {
  void operator()(std::uint64_t* p) const noexcept;
};

/// Placements of the half boards, grouped by column set, for the column sets
/// a quadrant plan's subproblems use: north halves for each subproblem's
/// north_columns (as north_mask, sorted in decreasing order), south halves
/// for their complements (as south_mask).
class half_board_index {
 public:
  /// Enumerates the half boards on the calling thread's oneTBB arena.
  /// Precondition: p.kind() == engine::quadrant.
  explicit half_board_index(const plan& p);

  int board_size() const noexcept { return n_; }
  /// Half boards using exactly `columns`: for even n as north_mask (sorted
  /// in decreasing order) or, for complements of north sets, as south_mask;
  /// for odd n always as north_mask, sorted.
  std::span<const std::uint64_t> group(std::uint32_t columns) const noexcept {
    return {masks_.get() + offsets_[columns], masks_.get() + offsets_[columns + 1]};
  }
  std::uint64_t plan_fingerprint() const noexcept { return plan_fingerprint_; }
  /// Bytes held.
  std::size_t bytes() const noexcept;

 private:
  int n_;
  std::uint64_t plan_fingerprint_;
  std::vector<std::uint64_t> offsets_;  // 2^n + 1 entries: group c is [offsets_[c], offsets_[c + 1])
  std::unique_ptr<std::uint64_t[], free_deleter> masks_;  // on huge pages where the kernel allows
  std::size_t mask_count_ = 0;
};

/// Memory a half_board_index for board n needs at its peak (while built),
/// from the tabled half-board placement counts (see quadrant.cpp), in bytes.
std::uint64_t half_board_index_bytes(int n) noexcept;

/// The index for plan `p`, shared: built on first use in the calling arena,
/// kept for the next call with the same plan (execute() is called once per
/// chunk by nqueens-mpi and per thread count by `scale`), replaced by one
/// for another plan.
std::shared_ptr<const half_board_index> shared_half_board_index(const plan& p);

/// Drops the shared index (count() calls it when done: its tables can be
/// gigabytes). Users holding it keep it alive until they let go.
void release_shared_half_board_index() noexcept;

/// Reusable buffers of count_disjoint_pairs (one per thread).
struct pair_scratch {
  std::vector<std::uint64_t> free_of;  // 64 rows of bits: B members without bit i
  std::vector<std::uint64_t> partial;  // running ANDs, one row per depth
  std::vector<std::uint64_t> north, south;  // odd n: the halves that miss the middle queen
  struct level {
    std::vector<std::uint64_t> masks, rows;  // a run of north masks, the south rows compacted for it
  };
  std::array<level, 2> levels;  // compaction depth (see count_disjoint_pairs)
};

/// Number of pairs (a, b), a in `north`, b in `south`, with a & b == 0.
/// `north` must be sorted in decreasing order: consecutive masks share their
/// high bits, and with them a prefix of the running AND (a bit-sliced sieve:
/// each bit of a removes the south masks that have it, 64 per word).
std::uint64_t count_disjoint_pairs(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                                   pair_scratch& scratch);

/// The solutions one quadrant subproblem stands for (weight included).
std::uint64_t solve_quadrant(const half_board_index& index, const subproblem& s, int slices,
                             pair_scratch& scratch);

}  // namespace nqueens::detail
