#pragma once

/// \file
/// What a count will cost, before it is run: random runs of the plan's
/// subproblems are counted for a bounded time on every thread, and their mean
/// CPU time per subproblem, times the number they were drawn from, projects
/// the whole count's thread-hours; the engine's subproblems and the rotation
/// search's tasks at the plan's end are drawn and projected apart (two
/// strata). A plan is indexed, so runs from uniformly random starts are an
/// unbiased sample; each run's own mean is one draw, and the spread of the
/// draws gives the estimate's standard error (docs/reach.md).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "nqueens/device_work.hpp"
#include "nqueens/gpu_options.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/subproblem_count.hpp"

namespace nqueens {

/// Runs a sample takes at least before its spread is trusted to stop it
/// early, and under which `plan --estimate` warns that its projection is
/// rough.
inline constexpr std::size_t min_estimate_runs = 30;

/// What ended the sampling.
enum class estimate_end {
  time,       ///< estimate_options::seconds ran out
  precise,    ///< the standard error came within target_error
  exhausted,  ///< every subproblem was counted: the figures are exact
  runs,       ///< estimate_options::max_runs were drawn
  cancelled,  ///< the cancel flag was set (estimate_cost throws run_cancelled)
};

/// How to sample a plan.
struct estimate_options {
  /// Threads sampling at once (0: every hardware thread): the CPU time of a
  /// subproblem is measured as a count on that many threads would pay it.
  int threads = 0;
  /// Wall-clock seconds to sample for, the tables' build not included; a
  /// draw that has begun is finished, so the budget may be passed by one
  /// draw per thread (cost_estimate::draw_length subproblems), but one still
  /// counting at twice these seconds is stopped and left out
  /// (cost_estimate::draws_cut).
  double seconds = 10;
  /// Stop after this many draws, or once `seconds` are up (0: the time
  /// alone). Draws are taken in a fixed order from `seed`, so a fixed
  /// number (with target_error 0, which stops on measured times) is the
  /// same sample on every machine where they end within the time (a draw
  /// cut at twice `seconds` is left out): for the CPU engines whatever the
  /// threads and memory; for the GPU engine, whose draws hold what a count
  /// hands it in one call (which follows them), where they are the same.
  std::size_t max_runs = 0;
  /// Stop once the thread time's standard error is within this fraction of
  /// it, after at least min_estimate_runs draws of the engine's subproblems
  /// and two of the rotation tasks, and still is once the engine's draws
  /// have doubled since it first was (so at least twice min_estimate_runs:
  /// a few light draws' small spread does not stop a sample that has not
  /// met the heavy subproblems yet); 0: sample the whole time. A plan with
  /// fewer engine draws is sampled to its end or to the time.
  double target_error = 0.02;
  std::uint64_t seed = 1;
  /// Bytes the run may use (0: default_memory_limit()), as for count(): a
  /// plan whose count would be refused is refused (check_plan_memory), and
  /// the engine samples within what the run's lists leave it.
  std::uint64_t max_memory = 0;
  std::optional<isa> kernels{};
  /// GPUs for the GPU engine's sample (count_options::gpu): a count's
  /// devices and device memory, so that it samples what the count would do.
  gpu_options gpu{};
  /// When set and true, sampling stops (the table build too: run_cancelled).
  const std::atomic<bool>* cancel = nullptr;
};

/// A projection of a whole count from a sample. Errors are one standard
/// error (about a 68% interval; twice it, about 95%); NaN where a single
/// draw of several leaves the spread unknown.
struct cost_estimate {
  std::size_t subproblems = 0;  ///< the plan's, what was sampled from
  std::size_t runs = 0;         ///< draws, those cut not included
  /// Of those draws and the subproblems they counted, the rotation
  /// search's tasks (the plan's end): sampled apart from the engine's
  /// subproblems (the first two draws, then one in eight) and projected by their own number, so that where the
  /// light tasks are most of a plan (a row engine's past n = 26) the
  /// engine's heavy subproblems are sampled all the same.
  std::size_t rotation_runs = 0;
  std::size_t rotation_sampled = 0;
  /// Draws still counting at twice the sampling time, stopped and left out:
  /// a plan's slowest subproblems, so that the projection is then low.
  std::size_t draws_cut = 0;
  std::size_t sampled = 0;  ///< subproblems counted
  /// Consecutive subproblems a block counts: a draw is one block, or where
  /// blocks hold several and the engine counts in batches (the GPU engine)
  /// as many blocks as a count hands it in one call (batch_size), counted
  /// in that one call.
  std::size_t run_length = 0;
  /// Subproblems a draw of the engine's holds (the last block may hold
  /// fewer); a draw of the rotation tasks holds one.
  std::size_t draw_length = 0;
  /// Whether the draws were timed by the wall clock, a device counting
  /// meanwhile (the GPU engine on a GPU): thread_seconds are then the
  /// seconds of a thread's stream, the CPU's wait included.
  bool device_timed = false;
  int threads = 0;
  double sample_seconds = 0;  ///< wall-clock seconds spent sampling
  /// The stretch of the sampling while every thread drew (until the first
  /// found no draw left, so that neither the threads' last draws, ending
  /// apart, nor a stratum's few heavy draws leave threads idle in it): its
  /// wall seconds, and the process's CPU seconds in them (busy_threads()).
  double busy_seconds = 0;
  double busy_cpu_seconds = 0;
  double setup_seconds = 0;  ///< building the engine's tables, paid once by a count
  /// The build's parts, from its wall and CPU time on `threads`: seconds on
  /// one thread while the others wait, and CPU seconds spread over all.
  /// On one thread the two cannot be told apart: all of it counts as spread.
  double setup_serial_seconds = 0;
  double setup_parallel_seconds = 0;
  /// CPU seconds of the whole count (stream-seconds where device_timed),
  /// and its error.
  double thread_seconds = 0;
  double thread_seconds_error = 0;
  /// Q(n) projected the same way: a check on the sample against the
  /// published value (a count's subproblems sum to it exactly).
  double total = 0;
  double total_error = 0;
  /// What ended the sampling; with `exhausted` every figure is exact (its
  /// errors 0).
  estimate_end ended = estimate_end::time;
  /// What the sampling asked of an accelerator (the GPU engine; zero for
  /// the CPU engines), the tables' upload included: over `sampled`, the
  /// host's list time and the bytes staged a subproblem, which beside
  /// thread_seconds say which side bounds a count past the whole tables.
  device_work device{};

  /// Wall-clock seconds of the count on `cores` threads (0 or less: the
  /// hardware's, hardware_threads()), the tables' build included (its
  /// serial part whole, its parallel part over the cores), were every
  /// thread busy to the end; no more cores than `subproblems` count (a
  /// subproblem runs on one thread), while the build spreads over all.
  double wall_seconds(int cores) const noexcept;

  /// The CPUs the count's threads get at once here: its threads, no more
  /// than the hardware's, within a CPU quota (cpu_quota(), a container's
  /// --cpus); a GPU's streams (device_timed) are not bound by the CPU: all.
  double cpus_here() const noexcept;

  /// The CPUs the sampling threads kept busy while every one of them drew:
  /// busy_cpu_seconds over busy_seconds (0 where no time passed).
  double busy_threads() const noexcept;

  /// Whether the sampling threads got clearly fewer CPUs than cpus_here(),
  /// which the projection here assumes: under three quarters of them, over
  /// a busy stretch of a second or more. Another process then shared the
  /// cores, and a count beside it takes longer than wall_seconds_here().
  /// False for a GPU's sample (device_timed), whose threads wait on the
  /// device.
  bool shared_its_cpus() const noexcept;

  /// The wall time of the count here, as wall_seconds on cpus_here() (no
  /// more of them counting than `subproblems`).
  double wall_seconds_here() const noexcept;

  /// The standard error of wall_seconds_here().
  double wall_seconds_here_error() const noexcept;

  /// The standard error of wall_seconds(cores) (of the part that spreads
  /// over them; the serial build's part is measured, not sampled); 0 or
  /// less cores: the hardware's, as wall_seconds reads them.
  double wall_seconds_error(int cores) const noexcept;

  /// How many standard errors `total` is off `published` (n's published
  /// Q(n)): negative where there is none, where the error is unknown (one
  /// draw), and where the whole plan was counted (`exhausted`: the total is
  /// exact, with no error to measure by, whether it matches or not);
  /// infinite where draws that all agree (no spread), and not the whole
  /// plan, miss it.
  double standard_errors_off(std::optional<std::uint64_t> published) const noexcept;

  /// Whether a sample that counted the whole plan (`exhausted`: its total
  /// exact) found `published`; nullopt where it counted less or there is
  /// no published value. False is a miscount, not a sampling error.
  std::optional<bool> exact_match(std::optional<std::uint64_t> published) const noexcept;
};

/// "time", "precise", "exhausted", "runs", "cancelled"; "unknown" for a value
/// of none of them.
std::string_view to_string(estimate_end end) noexcept;

/// Samples `p` as estimate_options says. Throws std::invalid_argument for a
/// thread count outside 0..max_threads, seconds that are not finite and
/// positive, or a plan without subproblems to sample; memory_limit_error,
/// with count()'s message, where a count of `p` within max_memory would be
/// refused (build `p` with plan_options::max_memory to be refused as count()
/// is while the plan grows); std::invalid_argument (GPU options for an
/// engine on the CPU), isa_error and run_cancelled as run_context does;
/// std::runtime_error where no draw of the engine's subproblems, or none of
/// the rotation tasks', ended within twice the sampling time (naming which).
cost_estimate estimate_cost(const plan& p, const estimate_options& options = {});

}  // namespace nqueens
