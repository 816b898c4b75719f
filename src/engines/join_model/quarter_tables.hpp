#pragma once

// The quarter boards that the quadrant engine's kernels and the GPU engine's
// join into half boards. A solution splits into a north half (rows 0..h-1,
// h = n/2) and a south half (the last h rows; for odd n the middle row
// between them holds one queen, fixed per subproblem). A half is reduced
// to the diagonals it sends across the middle, read where they cross: for the
// north half its attack masks for row h (left = moving to higher columns,
// right = to lower ones), for the south half those of its upside-down image.
// A north and a south half with complementary columns form a solution exactly
// when no north diagonal meets a south one: with both packed into 64-bit
// masks (north_mask, south_mask), when `north & south == 0`.
//
// The halves of one column set are not stored for the whole board: each
// subproblem builds its two groups on the fly by joining quarter boards. A
// north half using columns X is a west quarter (columns 0..h-1) on some rows
// R with the columns of X there, joined with an east quarter on the other
// rows with the rest of X, when no diagonal of one meets the other. The
// quarters come from whole tables, every placement of each quarter indexed
// by (columns, rows) (915,442 per quarter at n = 18, but 2^n offsets: 15 GiB
// at n = 24), or, where those do not fit the memory bound, from lists built
// per subproblem on its own column sets (quarter_list); groups too large for
// the bound are joined and counted in slices (quadrant_layout_for).

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engines/join_model/half_masks.hpp"
#include "engines/join_model/quadrant_memory.hpp"
#include "engines/join_model/table_allocator.hpp"
#include "kernels/host_device.hpp"

namespace nqueens::detail {

/// Largest board the quadrant engine takes: beyond n = 24 it builds each
/// subproblem's quarters (the whole tables, 2^n entries, would need 15 GiB
/// at n = 24); beyond 28 half-board masks and groups would need more than
/// its 64-bit masks and 32-bit pair offsets.
inline constexpr int max_quadrant_board_size = 28;
static_assert(max_quadrant_board_size <= free_bits_shift, "the filter's free bits sit above the left diagonals");

/// The placements of one quarter on one column set, by the rows they use:
/// what a half board's join reads. Row set r's placements are
/// [offsets[r], offsets[r + 1]) of `masks` (north_mask contributions) and of
/// the parallel `signatures` (the diagonals that can meet the other quarter
/// of the half, see quarter_tables.cpp).
struct quarter_view {
  const std::uint32_t* offsets = nullptr;
  const std::uint64_t* masks = nullptr;
  const std::uint32_t* signatures = nullptr;

  std::span<const std::uint64_t> masks_on(std::uint32_t rows) const noexcept {
    return {masks + offsets[rows], masks + offsets[rows + 1]};
  }
  std::span<const std::uint32_t> signatures_on(std::uint32_t rows) const noexcept {
    return {signatures + offsets[rows], signatures + offsets[rows + 1]};
  }
};

/// Whether a west and an east quarter placement can share a half: their
/// signatures (the diagonals each can send into the other) are disjoint.
/// The one rule every join reads, on the CPU and the GPU; the AVX-512 join
/// tests it 16 pairs at a time (_mm512_testn, quadrant_join.inc).
NQUEENS_HD constexpr bool signatures_fit(std::uint32_t west, std::uint32_t east) noexcept { return (west & east) == 0; }

/// Where a quarter table keeps the placements on `columns` (bit j = the
/// table's column j) and `rows` (of its `row_bits` rows): the index of
/// their first offset; the next index's is their end. The CPU's views and
/// the GPU engine's kernels read the tables by it.
NQUEENS_HD constexpr std::size_t quarter_slot(std::uint32_t columns, std::uint32_t rows, int row_bits) noexcept {
  return (std::size_t{columns} << row_bits) | rows;
}

/// Every placement of non-attacking queens, any number, at most one per row
/// and column, on rows 0..h-1 and `width` columns from `first_column` of an
/// n-board; grouped by the rows and columns it uses. 2^(h + width) offsets:
/// the size of the board (15 GiB at n = 24), so only where memory allows.
class quarter_table {
 public:
  quarter_table() = default;
  /// Throws run_cancelled once `*cancel` is set (null: never).
  quarter_table(int n, int first_column, int width, const std::atomic<bool>* cancel = nullptr);

  /// The placements using exactly `columns` (bit j = column first_column + j).
  quarter_view on(std::uint32_t columns) const noexcept {
    return {offsets_.data() + quarter_slot(columns, 0, rows_), masks_.data(), signatures_.data()};
  }
  std::size_t size() const noexcept { return masks_.size(); }
  std::size_t bytes() const noexcept;
  /// The arrays behind on(), for a copy elsewhere (the GPU engine's).
  std::span<const std::uint32_t> offsets() const noexcept { return offsets_; }
  std::span<const std::uint64_t> masks() const noexcept { return masks_; }
  std::span<const std::uint32_t> signatures() const noexcept { return signatures_; }

 private:
  int rows_ = 0;  // h
  // 2^(h + width) + 1: group key is [offsets_[key], offsets_[key + 1]). Keyed
  // by columns, then rows: a half board's join reads every row set of one
  // column set, and so reads one contiguous stretch of the table.
  // On huge pages; the masks and signatures, filled whole by the second
  // pass, are never zeroed first (table_allocator.hpp).
  std::vector<std::uint32_t, table_allocator<std::uint32_t>> offsets_ = {0, 0};
  std::vector<std::uint64_t, table_allocator<std::uint64_t>> masks_;
  std::vector<std::uint32_t, table_allocator<std::uint32_t>> signatures_;
};

/// The two quarter tables of the north half of an n-board, built on the
/// calling thread's oneTBB arena (the two at once).
class half_board_tables {
 public:
  explicit half_board_tables(int n, const std::atomic<bool>* cancel = nullptr);

  int board_size() const noexcept { return n_; }
  const quarter_table& west() const noexcept { return west_; }
  const quarter_table& east() const noexcept { return east_; }
  std::size_t bytes() const noexcept { return west_.bytes() + east_.bytes(); }

 private:
  int n_;
  quarter_table west_, east_;
};

/// One quarter's placements on one column set, built when a subproblem needs
/// them: memory follows the largest column set (about 12 MiB at n = 24, 320
/// MiB at n = 28 per list), not the board. Reusable: allocates nothing once
/// grown.
class quarter_list {
 public:
  /// Every placement on rows 0..h-1 (h = n/2) of the n-board using exactly
  /// `columns` (bit j = column first_column + j, j < width), one queen per
  /// column; valid until the next build (which reuses it when it asks for
  /// the same). `compact`: 12 bytes a placement, no more (searching twice);
  /// else a search into a 16-byte scratch record each, then grouped.
  /// Throws subproblem_cancelled once `*cancel` is set (null: never).
  quarter_view build(int n, int first_column, int width, std::uint32_t columns, bool compact = false,
                     const std::atomic<bool>* cancel = nullptr);
  /// The bytes the list will hold once a compact build of these columns
  /// has run: it counts their placements first (the build's first search,
  /// which the build then skips), so that a bounded run can make room
  /// before the list grows.
  std::size_t bytes_to_build(int n, int first_column, int width, std::uint32_t columns,
                             const std::atomic<bool>* cancel = nullptr);
  std::size_t bytes() const noexcept;

 private:
  struct placement {
    std::uint64_t mask;
    std::uint32_t signature, rows;
  };
  static constexpr std::array<int, 4> no_list = {-1, -1, -1, -1};
  template <typename Leaf>
  static void search(int n, int first_column, int width, std::uint32_t columns, const std::atomic<bool>* cancel,
                     Leaf&& leaf);
  // Counts the placements of `key` by row set into offsets_, as ends
  // (compact builds' first search).
  void count_compact(const std::array<int, 4>& key, const std::atomic<bool>* cancel);
  std::array<int, 4> built_ = no_list;    // n, first column, width, columns of the last build
  std::array<int, 4> counted_ = no_list;  // of the last count_compact, while offsets_ hold its ends
  std::vector<placement> found_;          // in search order
  std::vector<std::uint32_t> offsets_;    // 2^h + 1, by row set
  std::vector<std::uint64_t> masks_;
  std::vector<std::uint32_t> signatures_;
};

/// Where a run's quarters come from: the whole tables, or (null) each
/// subproblem's own, built in its thread's quarter_lists; and the most half
/// boards a group may hold at once (0: no bound), beyond which a subproblem
/// is counted in slices, north x south: as `layout` says (quadrant_memory.hpp).
class quarter_source {
 public:
  quarter_source(int n, const half_board_tables* tables, const quadrant_layout& layout = {}) noexcept
      : n_(n), tables_(tables), layout_(layout) {}
  int board_size() const noexcept { return n_; }
  bool has_tables() const noexcept { return tables_ != nullptr; }
  /// Whether groups may be counted in slices (a bound on them).
  bool bounded() const noexcept { return layout_.max_group != 0; }
  /// The most halves a group may hold at once (0: no bound), where the
  /// thread's quarter lists hold `list_bytes`.
  std::size_t max_group(std::uint64_t list_bytes) const noexcept {
    return layout_.thread_bytes == 0 ? layout_.max_group : group_capacity(layout_, list_bytes);
  }
  /// Where nonzero, the bytes a thread may hold in its lists and groups.
  std::uint64_t thread_bytes() const noexcept { return layout_.thread_bytes; }
  /// The west and east quarters of the north halves using exactly `columns`
  /// (bit c = column c; h of them), from the tables or built in `west`,
  /// `east` (a build throws subproblem_cancelled once `*cancel` is set).
  std::array<quarter_view, 2> quarters(std::uint32_t columns, quarter_list& west, quarter_list& east,
                                       const std::atomic<bool>* cancel = nullptr) const;
  /// One of quarters()'s two: the west (`east` false) or the east quarter
  /// of `columns`, built in `list` where there are no tables.
  quarter_view quarter(bool east, std::uint32_t columns, quarter_list& list,
                       const std::atomic<bool>* cancel = nullptr) const;
  /// The bytes `west` and `east` will hold once quarters(columns, west,
  /// east) has built them; for compact lists only (else what they hold).
  std::size_t bytes_to_build(std::uint32_t columns, quarter_list& west, quarter_list& east,
                             const std::atomic<bool>* cancel = nullptr) const;

 private:
  int n_;
  const half_board_tables* tables_;
  quadrant_layout layout_;
};

}  // namespace nqueens::detail
