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
  /// Where counted in slices: the bytes each thread may hold in its quarter
  /// lists and groups together, and the fewest halves a group piece takes
  /// (one row set's placements of a quarter, so that a piece can always
  /// take one more outer placement's joins). Each subproblem's groups get
  /// what its quarters leave (group_capacity): at n = 28 a subproblem's four
  /// lists hold about a tenth of what the largest column sets could.
  std::uint64_t thread_bytes = 0;
  std::size_t fewest_halves = 0;
  /// Peak bytes: tables or quarter lists, the plan and each thread's buffers
  /// (from tabled placement counts). More than `max_memory` when no layout fits.
  std::uint64_t bytes = 0;
};
quadrant_layout quadrant_layout_for(int n, int threads, std::uint64_t max_memory) noexcept;

/// The most halves each group of a subproblem may hold at once, in a layout
/// counted in slices, where its thread's quarter lists hold `list_bytes`.
std::size_t group_capacity(const quadrant_layout& layout, std::uint64_t list_bytes) noexcept;

/// What each of a thread's group buffers may hold where pieces take at most
/// `capacity` halves: the parts of the bytes a half that group_capacity
/// prices. Buffers keep the size of the largest piece they held; one that
/// holds more than its part is let go before a subproblem grows the others
/// (quadrant_scratch::keep_within), so that together they stay within the
/// share however their sizes mix across subproblems.
struct piece_budget {
  std::size_t group_bytes = 0;    // each of the north, the south and the run sorter's copy
  std::size_t entry_bytes = 0;    // the pair counter's table entries of the walked list
  std::size_t blocked_bytes = 0;  // its sorted copy of the blocked list, padded to whole blocks
  std::size_t row_bytes = 0;      // that copy's bit rows
};
piece_budget piece_budget_for(std::size_t capacity) noexcept;

/// About the most half boards of one column set of board n: 3 times the
/// mean (the largest measured 2.7 times it at n = 18).
double largest_group_halves(int n) noexcept;

/// The bytes both whole quarter tables of board n take (placements and
/// offsets), as quarter_tables.hpp lays them out, on the host or a GPU.
std::uint64_t quarter_tables_bytes(int n) noexcept;

/// The bytes one subproblem's four quarter lists (both quarters of both
/// halves) take at most, at the largest column sets: 12 bytes a placement
/// and the offsets, `compact`; else with the search's scratch records too.
std::uint64_t quarter_lists_bytes(int n, bool compact) noexcept;

/// quadrant_layout_for(n, threads, max_memory).bytes.
std::uint64_t quadrant_memory_bytes(int n, int threads, std::uint64_t max_memory) noexcept;

}  // namespace nqueens::detail
