#pragma once

// How a quadrant plan cuts each class of north column sets into slices.
//
// Slice k of s takes the halves at positions k, k + s, k + 2s, ... of one
// of the class's groups, as the joins make it, before the filter's
// partition; every slice meets the whole other group. So each slice holds
// its share of every row set's run. (Index ranges did not: at n = 28 the
// last of 2 slices took 62-64% of the time, the last of 4 38%.)
//
// Which group: the pair count walks the smaller of its lists and prepares
// the larger (sorted, blocked, transposed), and skips more pairs the larger
// that list is (a deeper partition tree). So a class slices its north
// group, the larger list staying whole and prepared again for each slice,
// unless its south group is at least 8 times larger: then preparing the
// south again would cost more than the coarser tree of a sliced south
// (group sizes from joined_count, the same for any memory bound). A slice
// counted in pieces fills each piece with its halves, so it makes as many
// counts as the whole class. Measured at n = 28 (AMD EPYC, one thread,
// 8 GiB: pieces of 5.1e7 halves):
// - class 310224 (north 8.4e6 halves, south 3.9e8): 43.6 s whole, 53.0 s
//   in 2 slices of the north (the south prepared twice); 38.8 s against
//   37.3 s in 2 slices of the south with full pieces (53.6 s in half-full
//   pieces: a smaller list, a coarser tree);
// - class 1548527 (north 7.5e7, south 1.8e8): 270-278 s whole, 313-318 s
//   in 2 slices of either group in half-full pieces or of the south in full
//   ones (a strided list keys worse than a contiguous piece: 12% more
//   visits), 281 s in 2 slices of the north in full pieces;
// - n = 26, class 826187 (north 1.9e6, south 3.5e6, whole): 6.10 s whole,
//   5.58 s in 2 slices of the north, 10.7 s in 2 of the south (70% more
//   visits).
//
// By size (n = 28): most classes take a few minutes, a few take over
// fifteen, and which ones is known only from their quarters. So every class
// gets `slices` slots, and uses as many of them as its size asks:
// ceil(bound / pairs_per_slice), bound being the product of its two groups'
// upper bounds (every west-east pair of the row sets the joins visit, known
// from the quarters before any join), or all of them where that passes
// most_slices_by_bound; the other slots count nothing.
// Measured at n = 28 (AMD EPYC, one thread, 30 draws): a class took at most
// 2.3e-15 s per bound pair (mean 1.8e2 s, the longest 1.1e3 s at a bound of
// 5.3e17). An explicit split depth of 1 turns slicing by size off.

#include <algorithm>
#include <cmath>

namespace nqueens::detail {

/// The board size from which an automatic plan slices by size, and its slots.
inline constexpr int slices_by_size_from = 28;
inline constexpr int slots_by_size = 4;
/// A slice's share of the bound pairs when slicing by size: at most about
/// 2.3e-15 s x 2e17 = 8 minutes on one thread (AMD EPYC). Of 400 random
/// classes of n = 28, 43% take 2 or 3 slots (a bound of 5.7e17 at most), 0.56
/// extra slices a class; 1.5e17 would cap a slice at 6 minutes for 0.87.
inline constexpr double bound_pairs_per_slice = 2e17;
/// A class whose bound asks for more slices than this takes every slot: at
/// 2e17 a slice, n = 28's 3-slice classes took slices of up to 7 minutes
/// (Intel Xeon). Class 6464622 in 4 slices took 1.015x its time in 3, its
/// longest slice 0.76x (464 s against 614 s, at once, one per vCPU), where a
/// lower bound for every class cut those just over it in two at 1.2x their
/// time.
inline constexpr int most_slices_by_bound = 2;
/// How many times larger than the north group the south one must be to be
/// the one sliced (see above: 46 times at class 310224, 2.4 at 1548527).
inline constexpr double larger_group_sliced_from = 8;

struct class_slicing {
  int slices = 1;
  double pairs_per_slice = 0;                           ///< 0: every class takes all its slices
  double south_sliced_from = larger_group_sliced_from;  ///< tests set 0 (always) and infinity (never)

  bool by_size() const noexcept { return pairs_per_slice > 0; }

  /// Whether a class whose groups hold these many halves (as the joins make
  /// them) slices its south group, else its north one.
  bool slices_south(double north_halves, double south_halves) const noexcept {
    return south_halves >= south_sliced_from * north_halves;
  }

  /// How many of its slices a class whose groups' bounds multiply to
  /// `bound_pairs` takes: all of them, or (by size) enough for
  /// pairs_per_slice each, at least one, and all of them past
  /// most_slices_by_bound.
  int slices_used(double bound_pairs) const noexcept {
    if (!by_size()) return slices;
    const double wanted = std::ceil(bound_pairs / pairs_per_slice);
    return wanted >= slices || wanted > most_slices_by_bound ? slices : std::max(1, static_cast<int>(wanted));
  }
};

/// The slicing of a quadrant plan for n: `slices` per class (class_plan::
/// slices_for's choice for `split_depth`), every class taking all of them
/// below slices_by_size_from; from there by size, in slots_by_size slots
/// where the depth is automatic (0). An explicit depth gives the slots, so
/// the depth the plan reports makes the same plan again (shards, journals).
inline class_slicing class_slicing_for(int n, int split_depth, int slices) noexcept {
  if (n < slices_by_size_from) return {slices, 0};
  return {split_depth == 0 ? slots_by_size : slices, bound_pairs_per_slice};
}

}  // namespace nqueens::detail
