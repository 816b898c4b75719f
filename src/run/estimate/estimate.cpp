#include "nqueens/estimate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "nqueens/count.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/threads.hpp"
#include "run/estimate/stratified_sample.hpp"
#include "run/measure/cpu_clock.hpp"

namespace nqueens {
namespace {

using detail::process_cpu_seconds;

// Consecutive subproblems per draw. The quadrant engine's neighbours share
// quarter lists, and on odd boards each thread's east quarters filtered for
// the middle queen, which a real run builds once for hundreds: a lone index
// would pay for them alone. Runs of 4 priced Q(17) and Q(19) 25-30% dear on
// the AMD EPYC; runs of 32 came within 1-8% (Q(18), Q(20) within 1%). Past
// n = 24 each subproblem builds its own lists and keeps no east quarters, and
// a run of 32 would leave 10 s of sampling at n = 25 under 30 draws: runs of
// 4 there, as for the GPU engine (which draws a round's worth of runs,
// below). So at n = 24: its subproblems take about 0.2 s a thread, and runs
// of 32 gave 2 draws in 10 s on 2 threads (Q(24) 2.9x off, "+- 3.7%"), or
// none within the 20 s a draw may take on a loaded machine. From n = 26 on,
// building the lists is about 2% of a subproblem (docs/reach.md), and
// single indices spread the sample wider.
std::size_t run_length_for(const plan& p) {
  if (!p.uniform_work() || p.board_size() >= 26) return 1;
  return counts_on_gpus(p.kind()) || p.board_size() >= 24 ? 4 : 32;
}

}  // namespace

namespace {

// `cores` (0 or less: the hardware's, as every thread count reads 0; less,
// which a noexcept call cannot refuse, reads as 0).
double cores_or_hardware(int cores) noexcept { return cores > 0 ? cores : hardware_threads(); }

// Of `cpus`, those a plan of `subproblems` keeps counting: each subproblem
// runs on one thread (0: not known, all of them). The tables' build is not
// so bound: it spreads over every thread.
double counting_cpus(double cpus, std::size_t subproblems) noexcept {
  return subproblems == 0 ? cpus : std::min(cpus, static_cast<double>(subproblems));
}

}  // namespace

double cost_estimate::wall_seconds(int cores) const noexcept {
  const double on = cores_or_hardware(cores);
  return setup_serial_seconds + setup_parallel_seconds / on + thread_seconds / counting_cpus(on, subproblems);
}

double cost_estimate::cpus_here() const noexcept {
  if (device_timed) return threads;
  double cpus = std::max(1, std::min(threads, hardware_threads()));
  if (const std::optional<double> quota = cpu_quota()) cpus = std::min(cpus, *quota);
  return cpus;
}

double cost_estimate::busy_threads() const noexcept { return busy_seconds > 0 ? busy_cpu_seconds / busy_seconds : 0.0; }

bool cost_estimate::shared_its_cpus() const noexcept {
  constexpr double least_seconds = 1.0;  // under it, the threads' start is much of the stretch
  constexpr double busy_share = 0.75;    // as `scale` warns of its rows
  if (device_timed || busy_seconds < least_seconds) return false;
  return busy_threads() < busy_share * cpus_here();
}

double cost_estimate::wall_seconds_here() const noexcept {
  const double cpus = cpus_here();
  return setup_serial_seconds + setup_parallel_seconds / cpus + thread_seconds / counting_cpus(cpus, subproblems);
}

double cost_estimate::wall_seconds_here_error() const noexcept {
  return thread_seconds_error / counting_cpus(cpus_here(), subproblems);
}

double cost_estimate::wall_seconds_error(int cores) const noexcept {
  return thread_seconds_error / counting_cpus(cores_or_hardware(cores), subproblems);
}

double cost_estimate::standard_errors_off(std::optional<std::uint64_t> published) const noexcept {
  if (!published || std::isnan(total_error)) return -1.0;
  const double miss = std::abs(total - static_cast<double>(*published));
  if (total_error > 0) return miss / total_error;
  return miss > 0 && ended != estimate_end::exhausted ? HUGE_VAL : -1.0;
}

std::optional<bool> cost_estimate::exact_match(std::optional<std::uint64_t> published) const noexcept {
  if (!published || ended != estimate_end::exhausted) return std::nullopt;
  return total == static_cast<double>(*published);  // a whole plan's sum: exact below 2^53, as n's that end so are
}

std::string_view to_string(estimate_end end) noexcept {
  switch (end) {
    case estimate_end::precise:
      return "precise";
    case estimate_end::exhausted:
      return "exhausted";
    case estimate_end::runs:
      return "runs";
    case estimate_end::cancelled:
      return "cancelled";
    case estimate_end::time:
      return "time";
  }
  return "unknown";  // a value no enumerator has, as to_string(engine) says
}

namespace {

// Splits a build of `wall` seconds that used `cpu` CPU seconds on `threads`
// into its serial part S and its parallel work P: S + P = cpu and
// S + P / threads = wall, clamped to what the equations allow. It takes the
// threads to have cores of their own: on a loaded machine the build's CPU
// time falls behind its wall time and it reads as more serial than it is
// (a projection that errs low). Idle workers' brief spinning counts as work.
std::pair<double, double> split_setup(double wall, double cpu, int threads) {
  if (threads <= 1) return {0.0, wall};
  const double t = threads;
  const double serial = std::clamp((t * wall - cpu) / (t - 1), 0.0, wall);
  return {serial, (wall - serial) * t};
}

}  // namespace

cost_estimate estimate_cost(const plan& p, const estimate_options& options) {
  const int threads = resolve_threads(options.threads);
  if (!(options.seconds > 0 && std::isfinite(options.seconds))) {
    throw std::invalid_argument("sampling seconds must be finite and positive");
  }
  if (!(options.target_error >= 0 && std::isfinite(options.target_error))) {
    throw std::invalid_argument("the target error must be finite and at least 0");
  }
  if (options.max_memory != 0 && options.max_memory < min_max_memory) {
    throw std::invalid_argument("max_memory " + std::to_string(options.max_memory) +
                                " is under the least a run can use (1 MiB): give 0 for the default");
  }
  // Every subproblem, the few that count the rotation-symmetric solutions
  // too: a count runs them all (theirs add nothing to Q(n)).
  const std::size_t size = p.size();
  if (size == 0) throw std::invalid_argument("the plan has no subproblems to sample");
  // Refused as count() refuses this plan, before the tables are built; the
  // engine gets what the run's lists leave it, as in a count.
  const std::uint64_t engine_memory = check_plan_memory(p, options.max_memory, threads);
  cost_estimate e;
  e.subproblems = size;
  e.threads = threads;
  // The engine's draws: a rotational plan has none, only tasks, one a draw.
  e.run_length = p.engine_subproblems() > 0 ? run_length_for(p) : 1;
  const auto start = std::chrono::steady_clock::now();
  const double cpu_at_start = process_cpu_seconds();
  const run_context context(p, options.kernels, threads, options.cancel, engine_memory, options.gpu);
  const auto sampling = std::chrono::steady_clock::now();
  e.setup_seconds = std::chrono::duration<double>(sampling - start).count();
  std::tie(e.setup_serial_seconds, e.setup_parallel_seconds) =
      split_setup(e.setup_seconds, process_cpu_seconds() - cpu_at_start, threads);
  // Where subproblems are light enough to draw several together (run_length
  // above 1), an engine that counts best in batches (the GPU engine) is
  // drawn as it counts: a draw is `batch` blocks, as many subproblems as a
  // count hands it in one call; a heavy one fills the GPU alone, and a batch
  // of them would outlast the sampling time.
  const std::size_t batch = e.run_length > 1 ? std::max<std::size_t>(context.batch_size() / e.run_length, 1) : 1;
  const detail::draw_shape shape{.run_length = e.run_length,
                                 .batch = batch,
                                 .call_length = std::max<std::size_t>(context.batch_size(), 1),
                                 .by_wall_clock = context.waits_on_a_device()};
  e.draw_length = batch * e.run_length;
  e.device_timed = shape.by_wall_clock;
  detail::stratified_sample sample(p, context, options, shape, sampling);
  sample.run(threads);
  e.sample_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sampling).count();
  std::tie(e.busy_seconds, e.busy_cpu_seconds) = sample.busy_stretch();
  e.device = context.device();
  sample.project(e);
  return e;
}

}  // namespace nqueens
