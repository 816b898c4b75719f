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
  /// No row-by-row search: per class of north column sets, the placements
  /// of the north and of the south half using those columns are joined from
  /// quarter-board tables, and the count is the number of (north, south)
  /// pairs with disjoint diagonals, counted 512 at a time by a bit-sliced
  /// join. Needs memory for the quarter tables (see memory_estimate);
  /// counts totals only.
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
