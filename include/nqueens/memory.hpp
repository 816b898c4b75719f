#pragma once

/// \file
/// The memory policy: how much an engine may use, and refusing a run that
/// would need more before anything is allocated.

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "nqueens/engine.hpp"
#include "nqueens/memory_limit.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/shard.hpp"

namespace nqueens {

/// Peak bytes an engine needs for an n-board on `threads` threads
/// (0 = hardware_threads()) when allowed `max_memory` bytes (0 =
/// default_memory_limit()): its tables and each thread's buffers, from
/// tabled sizes; 0 for engines that need next to nothing. An engine may
/// trade speed for memory: the quadrant engine keeps its whole quarter tables
/// only where they fit in `max_memory`, and otherwise builds each
/// subproblem's quarters (about 3x slower at n = 18: the README's
/// `count 18 --max-memory 16M`), so a smaller bound can give
/// a smaller estimate. A run given `max_memory` uses the layout priced here.
/// 0 for a board the engine does not take (n < 1 or past its largest), and
/// for engine::automatic, which is no engine until choose_engine() says which.
std::uint64_t memory_estimate(int n, engine kind, int threads = 0, std::uint64_t max_memory = 0) noexcept;

/// Throws memory_limit_error, naming both sizes, when memory_estimate(n,
/// kind, threads, limit) exceeds `limit` (0 = default_memory_limit());
/// std::invalid_argument for a board the engine does not take, a number no
/// engine has (engine::automatic included), or `threads` outside 0..max_threads.
void check_memory(int n, engine kind, std::uint64_t limit, int threads = 0);

/// Bytes a count of shard `shard` of plan `p` holds besides the engine's
/// tables: its list of subproblems still to count (8 bytes each: 1.6 GB for
/// the 2 * 10^8 of n = 25 with 12 slices), bits per subproblem for the
/// journal and the executor, and for plans with unequal estimates (a few
/// million subproblems at most) the lists that deal out their shards.
std::uint64_t run_lists_estimate(const plan& p, shard_spec shard = {}) noexcept;

/// check_memory for a plan already built: the run's lists
/// (run_lists_estimate) and the engine's estimate within what they leave of
/// `limit` (0 = default_memory_limit()) must fit together; throws
/// memory_limit_error, naming the sizes, when they do not;
/// std::invalid_argument for `threads` outside 0..max_threads or a shard out
/// of range. Returns the bytes left to the engine: the bound to build its
/// tables within.
std::uint64_t check_run_memory(const plan& p, std::uint64_t limit, int threads = 0, shard_spec shard = {});

/// check_run_memory for a run that counts nothing (a finished journal read
/// again): no engine's tables are built, so the plan's lists alone must fit
/// in `limit` (0 = default_memory_limit()); throws memory_limit_error,
/// naming them, when they do not. Returns the bytes they leave.
std::uint64_t check_lists_memory(const plan& p, std::uint64_t limit, shard_spec shard = {});

/// What a count checks of a plan already built, in the order count() does:
/// check_memory (the engine alone), then check_run_memory, whose bytes left
/// to the engine it returns; an engine refused alone is refused as
/// check_run_memory refuses, naming the plan's lists too, so that a bound
/// raised to the engine's need is not refused again. Whatever runs a plan's
/// subproblems as a count would (estimate_cost) refuses by this, with
/// count()'s error.
std::uint64_t check_plan_memory(const plan& p, std::uint64_t limit, int threads = 0, shard_spec shard = {});

/// A plan built as a count builds it, within `max_memory` bytes (0:
/// default_memory_limit()) for a run on `threads` threads of shard `shard`:
/// check_memory first (the plan can take seconds to build, its fingerprint
/// most of them), then the engine's plan (`options.max_memory` set from
/// `max_memory`) and its lists (check_run_memory), then the fingerprint: a
/// refusal comes as check_plan_memory's would, before the fingerprint. An
/// engine refused alone is refused as check_plan_memory refuses it.
struct planned_run {
  plan p;
  /// What check_run_memory left the engine: the bound its context is given.
  std::uint64_t engine_memory = 0;
};
planned_run plan_within_memory(int n, plan_options options, std::uint64_t max_memory, int threads = 0,
                               shard_spec shard = {});

/// The engine `--engine auto` picks for a count of an n-board: the fastest,
/// from this project's measurements (each engine's auto_from), whose whole
/// count on `threads` threads (0: all) with `split_depth` fits in
/// `max_memory` (0: default_memory_limit()) as count() prices it, the
/// plan's lists included (plan_within_memory); with `split_depth` 0, at the
/// automatic split or any shallower one: count it then at
/// fitting_split_depth. Where none fits, the slowest (of those that can
/// build a plan at `split_depth` at all), which count() then refuses. Builds each candidate's plan (not its
/// fingerprint: about a second at n = 27 on 2 vCPUs, more where a shallower split is tried), throwing run_cancelled
/// once `*cancel` is set (null: never). Arguments out of range (n, threads, split depth) are not refused here: some
/// engine is returned, and count() refuses them.
engine fastest_engine(int n, std::uint64_t max_memory = 0, int threads = 0, int split_depth = 0,
                      const std::atomic<bool>* cancel = nullptr);

/// fastest_engine, with the split it counts at: `split_depth` where not 0,
/// else fitting_split_depth's for the engine chosen, found in the same pass
/// (each candidate's plans built once).
engine_choice fastest_engine_and_split(int n, std::uint64_t max_memory = 0, int threads = 0, int split_depth = 0,
                                       const std::atomic<bool>* cancel = nullptr);

/// The split depth for a whole count of `kind` on an n-board within
/// `max_memory` (0: default_memory_limit()) on `threads` threads: 0
/// (automatic) where the automatic split fits, else the deepest that fits,
/// or 1 where none does (the count then refuses, naming the least need). The plan then depends
/// on the bound: for a run alone, never for the parts of one (shards, a
/// journal, MPI ranks), which must build the same plan whatever their
/// bounds. Throws run_cancelled once `*cancel` is set (null: never).
/// Arguments out of range (n, engine, threads) give 0, which count() then
/// refuses with its own message; so does engine::automatic, whose split
/// count() chooses with the engine (choose_engine).
int fitting_split_depth(int n, engine kind, std::uint64_t max_memory = 0, int threads = 0,
                        const std::atomic<bool>* cancel = nullptr);

}  // namespace nqueens
