#pragma once

/// \file
/// Step 1 of plan -> execute -> reduce -> verify: a deterministic, ordered list
/// of indexed subproblems. Progress, checkpoints and shards address work by
/// subproblem index, so the same (n, engine, split depth) always yields the
/// same plan, with the same fingerprint, on every machine.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "nqueens/board.hpp"
#include "nqueens/engine.hpp"

namespace nqueens {

/// Deepest split a plan can ask for: rows 0..max_split_depth-1 fixed.
inline constexpr int max_split_depth = 12;

/// Largest board the quadrant engine takes: its tables are indexed by column
/// set (2^n entries), and its memory needs pass any machine's long before.
inline constexpr int max_quadrant_board_size = 24;

/// Marks a row with no queen in subproblem::columns.
inline constexpr std::uint8_t no_queen = 0xFF;

/// A partial placement whose completions the kernel counts: rows
/// 0..split_depth-1 hold a queen. The engine derives any further constraints
/// on the other rows from these queens (see kernel/backtrack.cpp).
struct subproblem {
  /// Column of the queen in each row, or no_queen; rows >= n are no_queen.
  std::array<std::uint8_t, max_board_size> columns;
  /// How many solutions each completion stands for when not `classify`:
  /// 2 when the mirror image lies in a subproblem this plan leaves out, 8 when
  /// the completion is the one canonical member of a class of 8, else 1.
  std::uint8_t weight = 1;
  /// When non-zero, each completion is classified at the leaf: is it the
  /// canonical member of its class, and how large is the class (2, 4 or 8).
  std::uint8_t classify = 0;
  /// Quadrant engine only (no queen is placed; columns is all no_queen): the
  /// solutions whose north half, rows 0..n/2-1, uses exactly these columns
  /// (bit c = column c); `weight` counts the column sets it stands for under
  /// the board's symmetries.
  std::uint32_t north_columns = 0;
  /// Quadrant engine: this subproblem takes slice `slice` of `slices` equal
  /// slices of those north halves (slices == the plan's split depth).
  std::uint8_t slice = 0;

  subproblem() { columns.fill(no_queen); }
  bool has_queen(int row) const noexcept { return columns[static_cast<std::size_t>(row)] != no_queen; }
  /// Number of rows that hold a queen.
  int queens() const noexcept;

  friend bool operator==(const subproblem&, const subproblem&) = default;
};

/// How to build a plan.
struct plan_options {
  engine kind = engine::symmetric;
  /// Leading rows fixed in every subproblem; 0 picks the smallest depth that
  /// yields at least `target_subproblems` (capped so tiny boards stay trivial).
  /// For the quadrant engine: slices per north column set.
  int split_depth = 0;
  /// Subproblem count the automatic depth aims for: enough that work stealing
  /// keeps many threads busy to the end, few enough that bookkeeping is noise.
  /// 0 picks automatic_target(n).
  std::size_t target_subproblems = 0;
};

/// The subproblem count automatic splitting aims for on an n-board: 4096, and
/// 8192 from n = 18 on, where a run takes seconds, a finer split costs nothing
/// measurable, and the longest subproblem stays under 1/1000 of the work (so
/// the same plan keeps a 128-core machine busy; see `nqueens plan N --stats`).
constexpr std::size_t automatic_target(int n) noexcept { return n >= 18 ? 8192 : 4096; }

/// An immutable, ordered list of subproblems for one board size and engine.
class plan {
 public:
  /// Builds the plan for board size `n`.
  /// Throws std::invalid_argument if `n` is outside 1..max_board_size or
  /// `options.split_depth` is outside 0..max_split_depth.
  plan(int n, const plan_options& options = {});

  int board_size() const noexcept { return n_; }
  engine kind() const noexcept { return kind_; }
  /// The split depth actually used (resolved when options asked for auto).
  int split_depth() const noexcept { return split_depth_; }
  std::size_t size() const noexcept { return subproblems_.size(); }
  bool empty() const noexcept { return subproblems_.empty(); }
  const subproblem& operator[](std::size_t index) const { return subproblems_[index]; }
  std::span<const subproblem> subproblems() const noexcept { return subproblems_; }

  /// 64-bit FNV-1a hash of the format version, n, engine and every
  /// subproblem: equal fingerprints mean the same indices name the same work.
  std::uint64_t fingerprint() const noexcept { return fingerprint_; }

 private:
  int n_;
  engine kind_;
  int split_depth_;
  std::vector<subproblem> subproblems_;
  std::uint64_t fingerprint_;
};

}  // namespace nqueens
