#pragma once

/// \file
/// The counting engines, and choosing one. Each engine lives in its own
/// folder, src/engines/<name>/, and is listed once in the registry
/// (src/engines/registry.cpp); src/engines/engine.cpp answers everything
/// below from it. The interface each engine implements is
/// src/engines/engine_definition.hpp.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "nqueens/gpu_options.hpp"

namespace nqueens {

/// Which search strategy a plan uses: an engine's number, the one checkpoint
/// journals store. The set is open: each engine's registry entry gives its
/// number (a new one takes the next, none is renumbered), and the values named
/// here are shorthands for the built-in engines. An engine without a name here
/// is reached through all_engines() or parse_engine(); a number no engine has
/// is refused by plan and count (std::invalid_argument), but for
/// `automatic`, which count resolves to an engine.
enum class engine {
  /// Row-by-row bitmask backtracking over one member of every class of the 8
  /// board symmetries: the member whose row-0 queen is nearest a corner of
  /// its border line, bounded by that distance (Takaken's bounds). Classifies
  /// each solution it reaches too.
  symmetric = 0,
  /// Row-by-row bitmask backtracking; the first rows split into subproblems,
  /// halved by the left-right mirror.
  mirror = 1,
  /// No row-by-row search: per class of north column sets, the placements
  /// of the north and of the south half using those columns are joined from
  /// quarter-board tables, and the count is the number of (north, south)
  /// pairs with disjoint diagonals. Needs memory for its tables (see
  /// memory_estimate).
  quadrant = 2,
  /// The quadrant engine's join counted on an NVIDIA GPU (CUDA): per
  /// subproblem, the half joins, the keying and the bit-sliced pair count
  /// all run on the device. Refused where no GPU is usable; never picked by
  /// `auto`.
  gpu = 3,
  /// No engine: count() picks one (choose_engine, count.hpp), as `--engine
  /// auto` does, and reports the one it ran. count_options' default; plans
  /// and executors take a registered engine only.
  automatic = 255,
};

/// Deepest split a plan can ask for: for the row-by-row engines, rows
/// 0..max_split_depth-1 fixed; for the quadrant engine, slices per class.
inline constexpr int max_split_depth = 12;

/// The engine a plan uses when none is named, and count()'s where nothing
/// faster fits: it takes every board size in next to no memory.
inline constexpr engine default_engine = engine::symmetric;

/// An engine and the split depth it counts at (0: its automatic split), as
/// the automatic choice makes them (choose_engine in count.hpp).
struct engine_choice {
  engine kind = default_engine;
  int split_depth = 0;
};

/// Every registered engine, in the registry's order.
std::span<const engine> all_engines() noexcept;

/// Lower-case name used on the command line, in JSON and in journals;
/// "auto" for engine::automatic (in messages: a result names the engine
/// picked), "unknown" for a number no engine has.
std::string_view to_string(engine e) noexcept;

/// Parses a registered engine's name, as to_string(engine) writes it;
/// nullopt for anything else ("auto" included: no plan, journal or shard
/// file names the automatic choice, only the engine it picked).
std::optional<engine> parse_engine(std::string_view name) noexcept;

/// Comma-separated list of every engine name, for help and error messages.
std::string_view engine_names() noexcept;

/// True when some engine has number `e`.
bool is_registered(engine e) noexcept;

/// Throws std::invalid_argument, in one line saying why, when this machine
/// cannot run engine `e` as `gpu` asks (the GPU engine where no GPU is
/// usable or the list names one not visible; an engine that counts on the
/// CPU given anything but the defaults), or when no engine has number `e`;
/// memory_limit_error when gpu.memory cannot hold what an n-board count on
/// `threads` threads (0: all) needs on each GPU (not priced for n = 0).
/// engine::automatic, which never picks the GPU engine, is refused only
/// GPU options.
/// count() asks before it takes a journal.
void check_runnable(engine e, int n = 0, int threads = 0, const gpu_options& gpu = {});

/// One line on how the engine counts, for help text ("" when unregistered).
std::string_view engine_summary(engine e) noexcept;

/// True when the engine classifies solutions itself (one per class under the
/// board's symmetries). Every count has the fundamental count either way
/// (count_result::unique, by Burnside's lemma); a classifying engine's is
/// checked against it. False when unregistered.
bool counts_unique(engine e) noexcept;

/// Largest board size the engine takes (0 when unregistered).
int engine_max_board_size(engine e) noexcept;

/// True when the engine counts on GPUs, its threads driving them (the GPU
/// engine): what it asked of the devices is in count_result::device, and
/// a scaling row of T threads counts on T of them. False for the CPU
/// engines, engine::automatic (which never picks such an engine) and a
/// number no engine has.
bool counts_on_gpus(engine e) noexcept;

/// The engine `--engine auto` picks where several processes share one plan
/// (shards, a journal, MPI ranks): the fastest for n, from n alone, so that
/// every node picks the same whatever its memory (fastest_engine, in
/// memory.hpp, is the pick within one process's memory). A node where it does not
/// fit is refused (check_memory), never given another plan.
engine shared_plan_engine(int n) noexcept;

}  // namespace nqueens
