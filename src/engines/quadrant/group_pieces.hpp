#pragma once

// How a subproblem whose groups pass its memory share cuts them into
// pieces: by the patterns of a few bits both groups share, so that a piece
// of the outer group meets only the inner halves that can pair with it.
//
// Pieces cut by position (as joined) made n = 28 count 2.4x slower in 2 GiB
// a thread than in 8: the pair counter's partition tree is as deep as its
// blocked list is large, so small pieces visit many more blocks per pair
// (2-8x at pieces of 5e6 halves), and every piece pair is prepared again.
// Cut by a bit both groups hold, the piece of halves that have it meets
// only the other group's halves that lack it: the cut is the tree's first
// split, made before the join, and a quarter of the pairs is never looked
// at. Pieces too large for all that (skewed bits) are cut again by position.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace nqueens::detail {

/// Bits a cut takes at most: 64 patterns.
inline constexpr int max_piece_bits = 6;

/// A mask's pattern: its `bits`, extracted (the lowest first).
std::uint32_t pattern_of(std::uint64_t mask, std::uint64_t bits) noexcept;

/// Which halves of a group a piece takes, beyond its plan slice: those whose
/// pattern is in `patterns` (bit p: pattern p); every half where `bits` is 0.
/// `turned`: the masks are read as an odd board's south halves, turned
/// (odd_south_mask), as the count sees them. Read for every half of a group
/// once per piece: inline and without a branch per bit (a call with one
/// took 18% of a cut n = 28 class).
class piece_filter {
 public:
  piece_filter() = default;
  piece_filter(std::uint64_t bits, std::uint64_t patterns, bool turned) noexcept;
  bool cuts() const noexcept { return count_ != 0; }
  std::uint64_t patterns() const noexcept { return patterns_; }
  bool takes(std::uint64_t mask) const noexcept {
    std::uint32_t pattern = 0;
    for (int j = 0; j < count_; ++j) {
      pattern |= static_cast<std::uint32_t>(mask >> shift_[static_cast<std::size_t>(j)] & 1U) << j;
    }
    return (patterns_ >> pattern & 1U) != 0;
  }

 private:
  std::uint64_t patterns_ = ~std::uint64_t{0};
  std::array<std::uint8_t, max_piece_bits> shift_{};  // where each bit of the pattern is read
  int count_ = 0;
};

/// The patterns of the other group that can pair with a piece holding
/// `patterns`: those that share no bit with at least one of them.
std::uint64_t pairing_patterns(std::uint64_t patterns, int bits) noexcept;

/// The bits to cut by, from samples of both groups as the count sees them:
/// none where the outer group's `outer_halves` fit `capacity`; else, one at
/// a time, the bit most often in both among those in 25-75% of the outer
/// samples, until its largest pattern would fit (at most max_piece_bits).
std::uint64_t choose_piece_bits(std::span<const std::uint64_t> outer_samples,
                                std::span<const std::uint64_t> inner_samples, double outer_halves,
                                double capacity) noexcept;

/// Each pattern's share of a group's `halves`, from its samples.
std::array<double, 64> pattern_sizes(std::span<const std::uint64_t> samples, std::uint64_t bits,
                                     double halves) noexcept;

/// The next pieces' patterns: those of `allowed`, from pattern `from` on,
/// while their sizes add up to `capacity` (at least one); advances `from`
/// past them. 0 when no allowed pattern is left.
std::uint64_t next_patterns(const std::array<double, 64>& sizes, std::uint64_t allowed, int bits, int& from,
                            double capacity) noexcept;

}  // namespace nqueens::detail
