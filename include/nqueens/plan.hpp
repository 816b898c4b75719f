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

/// Deepest prefix a subproblem can fix (rows 0..max_split_depth-1).
inline constexpr int max_split_depth = 12;

/// A partial placement of the first `depth` rows; the kernel counts its
/// completions and multiplies them by `weight`.
struct subproblem {
  /// Number of rows fixed by the prefix.
  std::uint8_t depth = 0;
  /// How many solutions each completion stands for (2 when the mirror image
  /// is another subproblem's solution that this plan leaves out).
  std::uint8_t weight = 1;
  /// Column of the queen in rows 0..depth-1; entries past `depth` are zero.
  std::array<std::uint8_t, max_split_depth> columns{};

  friend bool operator==(const subproblem&, const subproblem&) = default;
};

/// How to build a plan.
struct plan_options {
  engine kind = engine::mirror;
  /// Rows fixed per subproblem; 0 picks the smallest depth that yields at
  /// least `target_subproblems` (capped so tiny boards stay trivial).
  int split_depth = 0;
  /// Subproblem count the automatic depth aims for: enough that work stealing
  /// keeps many threads busy to the end, few enough that bookkeeping is noise.
  std::size_t target_subproblems = 4096;
};

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
