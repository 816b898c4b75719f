#pragma once

// The quadrant plan's classes, ranked: class i is computed from i, so a plan
// of 7 * 10^7 classes (n = 27) costs a block table of a few hundred KiB, not
// a list of its members.
//
// A class is a (middle column, north column set) pair under the left-right
// mirror and the upside-down flip (quadrant/quadrant_engine.cpp), listed by
// its least member: middle columns in increasing order (-1 alone for even
// n), then the sets of n/2 columns outside the middle one in increasing
// order. Only the least member of each orbit is listed, with the orbit's
// size as weight.
// To find class i, the sets of each middle column are cut into blocks of
// block_size consecutive combination ranks, and each block records how many
// classes come before it: class i is then one walk through a single block
// (combinatorial number system: the r-th k-subset in increasing order).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engines/join_model/set_ranks.hpp"
#include "kernels/bits.hpp"
#include "kernels/subsets.hpp"

namespace nqueens::detail {

/// The south half's columns of a board whose north half holds `north` and
/// whose middle row (odd n) holds its queen in column `middle` (-1: none).
constexpr std::uint32_t south_columns_of(int n, std::uint32_t north, int middle) noexcept {
  const std::uint32_t full = low_bits(n);
  return full & ~north & (middle >= 0 ? ~(std::uint32_t{1} << middle) : full);
}

/// How many of a half's queens, in `columns`, stand in the west (columns
/// below h): the rows its west quarter holds.
constexpr int west_queens_of(std::uint32_t columns, int h) noexcept { return std::popcount(columns & low_bits(h)); }

/// One class of (middle column, north column set).
struct column_class {
  std::uint32_t north = 0;  ///< bit c = column c
  std::int8_t middle = -1;  ///< the middle row's queen for odd n; -1 for even n
  std::uint8_t weight = 1;  ///< members of the orbit: 1, 2 or 4
  friend bool operator==(const column_class&, const column_class&) = default;
};

/// The orbit weight of (middle, north) when it is the least member of its
/// orbit, 0 when it is not. Precondition: north has n/2 columns, none the middle one.
std::uint8_t class_weight(int n, int middle, std::uint32_t north) noexcept;

class column_classes {
 public:
  /// Combination ranks per block: a lookup walks at most this many sets.
  static constexpr std::uint64_t block_size = 1024;

  /// Counts the classes of every block, on the calling thread's oneTBB arena.
  /// Precondition: 1 <= n <= 32.
  explicit column_classes(int n);

  int board_size() const noexcept { return n_; }
  std::size_t size() const noexcept { return size_; }
  /// Class `rank`, in the order above. Precondition: rank < size().
  column_class at(std::size_t rank) const;
  /// Calls visit(c) for every class in order (one pass, no lookups).
  template <typename Visit>
  void for_each(Visit&& visit) const {
    for (const block& b : blocks_) {
      walk(b, [&](const column_class& c) {
        visit(c);
        return true;
      });
    }
  }
  /// Bytes held (the block table).
  std::size_t bytes() const noexcept { return blocks_.capacity() * sizeof(block); }

 private:
  struct block {
    std::uint64_t classes_before;  // classes in the blocks before this one
    std::uint64_t first_rank;      // combination rank of its first set, within its middle column's sets
    std::uint64_t sets;            // sets it holds (block_size, or fewer for a middle column's last block)
    int middle;
  };

  // Calls visit(class) for the classes among the sets of `b`, in order,
  // until visit returns false.
  template <typename Visit>
  void walk(const block& b, Visit&& visit) const {
    const int h = n_ / 2;
    const int members = b.middle >= 0 ? n_ - 1 : n_;  // the columns outside the middle one
    std::uint64_t ranks = unrank_subset(b.first_rank, members, h);
    for (std::uint64_t k = 0; k < b.sets; ++k) {
      if (k > 0) ranks = next_subset(ranks);  // not past the last: the empty set has none (n = 1)
      // Back from the columns outside the middle one to the board's columns.
      const auto low = static_cast<std::uint32_t>(ranks) & ((std::uint32_t{1} << (b.middle & 31)) - 1);
      const std::uint32_t north = b.middle >= 0
                                      ? low | static_cast<std::uint32_t>((ranks >> b.middle) << (b.middle + 1))
                                      : static_cast<std::uint32_t>(ranks);
      const std::uint8_t weight = class_weight(n_, b.middle, north);
      if (weight != 0 && !visit(column_class{north, static_cast<std::int8_t>(b.middle), weight})) return;
    }
  }

  int n_;
  std::size_t size_ = 0;
  std::vector<block> blocks_;
};

}  // namespace nqueens::detail
