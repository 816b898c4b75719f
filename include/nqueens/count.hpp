#pragma once

/// \file
/// One call that runs plan -> execute -> reduce -> verify for a board size.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "nqueens/cancelled.hpp"
#include "nqueens/count_types.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/gpu_options.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/progress.hpp"
#include "nqueens/shard.hpp"
#include "nqueens/verify.hpp"

namespace nqueens {

/// The range of count_options::checkpoint_interval_seconds (the CLI's
/// --checkpoint-interval takes the same).
inline constexpr double min_checkpoint_interval_seconds = 0.01;
inline constexpr double max_checkpoint_interval_seconds = 3600;
/// The least count_options::max_memory accepted, 1 MiB (0 is the default,
/// half the physical memory).
inline constexpr std::uint64_t min_max_memory = std::uint64_t{1} << 20;

/// Options for count().
struct count_options {
  /// The engine; engine::automatic (the default) lets count() pick the
  /// fastest that fits (choose_engine).
  engine kind = engine::automatic;
  /// Worker threads; 0 means every hardware thread.
  int threads = 0;
  /// Rows fixed per subproblem; 0 chooses automatically (see plan_options).
  int split_depth = 0;
  /// Count only this shard of the plan (see shard.hpp); the whole by default.
  shard_spec shard{};
  /// Checkpoint journal (see checkpoint.hpp); empty for none. An existing
  /// journal of the same run is resumed; a finished one is just read. One
  /// the count made is removed again where the count ends by a throw before
  /// anything was recorded in it (run_cancelled, a refusal, a failure).
  std::string checkpoint{};
  /// Longest time between journal flushes (each ends with fsync): the most
  /// work a crash can lose. From min_ to max_checkpoint_interval_seconds.
  double checkpoint_interval_seconds = 2.0;
  /// Called from a thread of its own about every progress_interval_seconds,
  /// and once more at the end (progress::last) from count()'s, one call at
  /// a time. One that waits holds up neither the journal's flushes nor a
  /// cancel; the count waits for it as it ends. It may throw: the count then
  /// starts no further subproblem, flushes its journal, and count()
  /// rethrows the exception, whenever it was thrown. The time its calls
  /// hold up the end of the count is left out of count_result::seconds,
  /// which the last snapshot's elapsed_seconds is.
  std::function<void(const progress&)> on_progress{};
  /// Finite and >= 0; 0 reports at every tick of the helper thread: every
  /// 50 ms, or every checkpoint_interval_seconds where that is shorter.
  double progress_interval_seconds = 0.25;
  /// When set and true, no further subproblems are started (those running
  /// stop within about 50 ms); the count returns with complete == false and
  /// the journal flushed. Set while the plan, the run's lists, the journal
  /// or the engine's tables are read or built (before counting begins),
  /// count() throws run_cancelled instead.
  const std::atomic<bool>* cancel = nullptr;
  /// Bytes the run may use, its lists and the engine's tables together; 0 =
  /// half the physical memory, else at least min_max_memory. A run that would need more throws
  /// memory_limit_error before allocating (see check_run_memory).
  std::uint64_t max_memory = 0;
  /// Kernels to run (see isa.hpp); empty for active_isa(). Throws isa_error
  /// from count() when the CPU lacks them.
  std::optional<isa> kernels{};
  /// The GPUs the GPU engine counts on and the memory it takes on each
  /// (gpu_options.hpp); count() refuses anything but the defaults for
  /// another engine, before a journal is taken.
  gpu_options gpu{};
};

/// Where a count's wall time went, in seconds: the checks (of the options
/// and of the engine's machine: the GPU's module and driver; with
/// engine::automatic, the choice, which prices the candidates), planning (the
/// plan, the journal, this shard's list), start (the engine's tables and
/// devices), counting, and release (freeing the tables and devices).
/// Planning to release add up to about count_result::seconds.
struct run_phases {
  double checks = 0.0;
  double planning = 0.0;
  double start = 0.0;
  double counting = 0.0;
  double release = 0.0;
};

/// Everything a caller wants to print about one count.
struct count_result {
  int n = 0;
  engine kind = default_engine;
  /// The kernels that counted.
  isa kernels = isa::portable;
  /// What was counted: everything, or (rotational_counts()) only the
  /// rotation-symmetric solutions, when `total` is 0 and `unique` empty.
  plan_scope scope = plan_scope::all;
  uint128 total = 0;
  /// Fundamental solutions, (Q + P + 2R) / 8 by Burnside's lemma (see
  /// fundamental_count), for every engine; empty for a shard (merge derives
  /// it) or a count that did not finish.
  std::optional<uint128> unique{};
  /// Solutions unchanged by a half turn (P, OEIS A032522) and by a quarter
  /// turn (R, OEIS A033148); a shard's part for a shard.
  uint128 symmetric_180 = 0;
  uint128 symmetric_90 = 0;
  /// Threads that counted: count_options::threads, or fewer where oneTBB
  /// allows fewer (see execution::threads).
  int threads = 0;
  /// Wall-clock seconds of planning plus execution (not the waits for
  /// count_options::on_progress).
  double seconds = 0.0;
  std::size_t subproblems = 0;
  int split_depth = 0;
  std::uint64_t plan_fingerprint = 0;
  verification check{};
  /// False when cancelled before every subproblem finished: the totals are
  /// then partial and `check` compares nothing.
  bool complete = true;
  /// Subproblems finished, including those taken from the journal.
  std::size_t finished = 0;
  /// Subproblems taken from the checkpoint journal rather than counted now.
  std::size_t resumed = 0;
  /// Bytes of a torn last flush (a crash mid-write) cut off the journal
  /// before it was resumed: the records they held are counted again.
  std::size_t journal_bytes_cut = 0;
  /// Why the checkpoint journal was left unfinished although every
  /// subproblem was counted (its last records or its completion mark could
  /// not be written: a full disk; or the file was moved): the result
  /// stands, and the text says how the journal is finished (the same run
  /// again, counting only what it lacks; a moved one under its new name).
  /// Empty when the journal was finished, or there was none.
  std::string journal_unfinished{};
  /// The shard counted; for a part of the plan the totals are partial and
  /// `check` compares nothing (nqueens merge adds the parts and verifies).
  shard_spec shard{};
  /// Subproblems in that shard (== subproblems for the whole plan).
  std::size_t shard_subproblems = 0;
  /// The digest of that shard's subproblem indices (shard_digests).
  std::uint64_t shard_digest = 0;
  /// What the engine asked of a device in this process (the GPU engine's
  /// launches and stream operations; zero for the CPU engines).
  device_work device{};
  /// Where the time went (under MPI, rank 0's: its start and release are
  /// counted in counting).
  run_phases phases{};
  /// CPU seconds the count took, every thread's: the calling thread's and
  /// those of its oneTBB arenas' workers (the engine's tables, counting);
  /// cpu_seconds / seconds is about how many hardware threads it kept busy.
  /// Other threads of the process are not charged. 0 under MPI, where the
  /// ranks' CPU time is their own.
  double cpu_seconds = 0.0;
};

/// What count() makes of options.kind and split_depth (the CLI's
/// `--engine` makes the same): for a run alone, engine::automatic picks the
/// fastest engine whose whole count fits options.max_memory on
/// options.threads (fastest_engine), and an engine named is kept; either at
/// the split asked or, where that is 0, at the deepest that fits
/// (fitting_split_depth). For a part of a run that others share (a
/// checkpoint, which a run elsewhere may resume; a shard; `shared_plan`, as
/// MPI ranks are), the engine named or shared_plan_engine(n), at the split
/// asked, so that every part builds the same plan whatever its memory.
/// Builds the candidates' plans (about a second at n = 27), throwing
/// run_cancelled once *options.cancel is set. Options out of range are left
/// to count().
engine_choice choose_engine(int n, const count_options& options, bool shared_plan = false);

/// Throws std::invalid_argument naming the first field of `options` that is
/// out of its documented range (count() and rotational_counts() call it
/// first; rotational_counts() with its engine and split depth set aside, as
/// it does not use them): NaN or out-of-range intervals, a max_memory under 1 MiB, kernels
/// or an engine that name none, a bad thread count, split depth or shard;
/// where n != 0, an n outside 1..max_board_size or beyond the engine's
/// largest; and, as check_runnable, an engine this machine cannot run as
/// options.gpu asks (its memory priced for an n-board where n > 0).
/// engine::automatic takes every n, and no GPU options.
void validate(const count_options& options, int n = 0);

/// Counts every solution of the n-queens problem on an n x n board, with the
/// fundamental count and the rotation-symmetric counts, on the engine of
/// choose_engine(n, options) (count_result::kind names it).
/// Throws std::invalid_argument for n outside 1..max_board_size or bad
/// options (isa_error, one of them, for kernels this CPU lacks),
/// checkpoint_error for a journal that cannot be used or written
/// (but not for one whose last writes failed once every subproblem was
/// counted: see count_result::journal_unfinished), or whose counts the
/// rest contradict (corrupt: a total and the symmetric counts that break
/// Burnside's lemma; a record whose checksum holds but whose counts agree
/// with the rest is taken, and only the published table can refute the
/// total then), memory_limit_error for a
/// run that would not fit, run_cancelled for one cancelled before it began
/// counting.
count_result count(int n, const count_options& options = {});

/// Counts only the solutions unchanged by a half turn and by a quarter turn
/// (`nqueens rotational`): a small search next to Q(n), for every n up to
/// max_board_size. `options.kind` and `split_depth` are not used. A shard
/// of it counts that shard's part of its own plan; merge() takes no such
/// parts (their symmetric_180 and symmetric_90 add up, the caller's to do).
count_result rotational_counts(int n, const count_options& options = {});

}  // namespace nqueens
