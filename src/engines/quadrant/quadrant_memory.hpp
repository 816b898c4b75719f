#pragma once

// How a quadrant run fits in its memory bound: whole quarter tables or
// lists built per subproblem, and the largest group held at once.

#include <cstddef>
#include <cstdint>

namespace nqueens::detail {

// Plans up to this size are listed whole in a run's context (8 bytes a
// task, 32 MiB at n = 23), where a subproblem takes microseconds to
// milliseconds; beyond, each solve finds its task from its index (a walk of
// up to 1024 column sets, microseconds next to a subproblem's seconds).
inline constexpr std::size_t listed_plan_size = std::size_t{1} << 22;

/// How a quadrant run of board n on `threads` threads fits in `max_memory`
/// (0 = default_memory_limit()), and what it then needs at the peak.
struct quadrant_layout {
  /// The whole quarter tables (fastest, where they fit), or each
  /// subproblem's quarters built when it runs.
  bool tables = true;
  /// The most half boards per group before a subproblem is counted in
  /// slices (0: never sliced).
  std::size_t max_group = 0;
  /// Quarter lists built to hold 12 bytes a placement and no more (two
  /// searches each), where memory is tight.
  bool compact_lists = false;
  /// Peak bytes: tables or quarter lists, the plan and each thread's buffers
  /// (from tabled placement counts). More than `max_memory` when no layout fits.
  std::uint64_t bytes = 0;
};
quadrant_layout quadrant_layout_for(int n, int threads, std::uint64_t max_memory) noexcept;

/// quadrant_layout_for(n, threads, max_memory).bytes.
std::uint64_t quadrant_memory_bytes(int n, int threads, std::uint64_t max_memory) noexcept;

}  // namespace nqueens::detail
