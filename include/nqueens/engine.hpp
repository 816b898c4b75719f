#pragma once

/// \file
/// The counting engines a plan can be built for.

#include <optional>
#include <string_view>

namespace nqueens {

/// Which search strategy a plan uses.
enum class engine {
  /// Border queens pre-placed, one per class of the 8 board symmetries, then
  /// row-by-row bitmask backtracking. Counts totals and fundamental solutions.
  symmetric,
  /// Row-by-row bitmask backtracking; the first rows split into subproblems,
  /// halved by the left-right mirror. Counts totals only.
  mirror,
  /// No search below the middle: every placement of the north half and of
  /// the south half is enumerated once, grouped by the columns it uses, and
  /// the count is the number of (north, south) pairs with complementary
  /// columns and disjoint diagonals, counted 64 at a time with bit-sliced
  /// sieves. Needs memory for all half-board placements (see
  /// quadrant_memory_estimate); counts totals only.
  quadrant,
};

/// True when the engine also counts fundamental solutions (one per class).
constexpr bool counts_unique(engine e) noexcept { return e == engine::symmetric; }

/// Lower-case name used on the command line and in JSON ("symmetric", "mirror").
std::string_view to_string(engine e) noexcept;

/// Parses a name produced by to_string(engine); nullopt for anything else.
std::optional<engine> parse_engine(std::string_view name) noexcept;

/// Comma-separated list of every engine name, for help and error messages.
std::string_view engine_names() noexcept;

}  // namespace nqueens
