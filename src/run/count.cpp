#include "nqueens/count.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "engines/registry.hpp"
#include "nqueens/board.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/memory_limit.hpp"
#include "nqueens/threads.hpp"
#include "run/arena_executor.hpp"
#include "run/measure/worker_cpu_clock.hpp"
#include "run/run_driver.hpp"
#include "run/worker_limit.hpp"

namespace nqueens {

namespace {

[[noreturn]] void refuse(const std::string& field, const std::string& value, const std::string& expected) {
  throw std::invalid_argument("count_options::" + field + " " + value + " is out of range: expected " + expected);
}

std::string text_of(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace

void validate(const count_options& o, int n) {
  if (n != 0) require_valid_board_size(n);  // 0: the options alone
  if (!(o.checkpoint_interval_seconds >= min_checkpoint_interval_seconds &&
        o.checkpoint_interval_seconds <= max_checkpoint_interval_seconds)) {
    refuse(
        "checkpoint_interval_seconds", text_of(o.checkpoint_interval_seconds),
        "seconds from " + text_of(min_checkpoint_interval_seconds) + " to " + text_of(max_checkpoint_interval_seconds));
  }
  if (!(o.progress_interval_seconds >= 0 && std::isfinite(o.progress_interval_seconds))) {
    refuse("progress_interval_seconds", text_of(o.progress_interval_seconds), "finite seconds, at least 0");
  }
  if (o.max_memory != 0 && o.max_memory < min_max_memory) {
    refuse("max_memory", std::to_string(o.max_memory) + " bytes", "0 (automatic) or at least 1 MiB");
  }
  // A set named is in range, built here or not (AArch64 builds the portable
  // kernels alone): one this build or CPU lacks is runnable_isa's isa_error.
  if (o.kernels && !parse_isa(to_string(*o.kernels))) {
    refuse("kernels", std::to_string(static_cast<int>(*o.kernels)), "one of " + isa_names());
  }
  if (o.kernels) static_cast<void>(runnable_isa(o.kernels));  // isa_error for kernels this CPU lacks, before a journal
  const bool automatic = o.kind == engine::automatic;
  if (!automatic && !is_registered(o.kind)) {
    refuse("kind", std::to_string(static_cast<int>(o.kind)),
           "one of " + std::string(engine_names()) + ", or automatic");
  }
  if (o.threads < 0 || o.threads > max_threads) {
    refuse("threads", std::to_string(o.threads), "0 (every hardware thread) to " + std::to_string(max_threads));
  }
  if (o.split_depth < 0 || o.split_depth > max_split_depth) {
    refuse("split_depth", std::to_string(o.split_depth), "0 (automatic) to " + std::to_string(max_split_depth));
  }
  if (o.shard.count < 1 || o.shard.count > max_shards || o.shard.index < 0 || o.shard.index >= o.shard.count) {
    refuse("shard", std::to_string(o.shard.index) + "/" + std::to_string(o.shard.count),
           "I/M with 0 <= I < M <= " + std::to_string(max_shards));
  }
  if (n != 0 && !automatic) detail::require_board_taken(detail::definition_of(o.kind), n);  // as count() refuses it
  check_runnable(o.kind, n, o.threads, o.gpu);  // before a journal is taken: a refused run leaves no file
}

namespace {

// The journal is taken first, before the plan and the tables: a second run
// on it is refused before it spends anything.
checkpoint_file take_journal(const count_options& options) {
  return options.checkpoint.empty() ? checkpoint_file() : checkpoint_file(options.checkpoint);
}

// The plan of a run whose journal `journal` finished: nothing is counted
// and no engine's tables are built, so its lists alone are priced (a
// journal finished on a larger machine is read on a smaller one). None
// where the journal is another run's: that is priced as a count, and the
// journal refused as another run's, whether the count fits or not.
std::optional<planned_run> plan_to_read(int n, const count_options& options, const checkpoint_file& journal) {
  if (!journal.finished_run_of(n, options.kind, options.shard)) return std::nullopt;  // no plan built twice
  planned_run run{plan(n, plan_options{.kind = options.kind,
                                       .split_depth = options.split_depth,
                                       .cancel = options.cancel,
                                       .max_memory = memory_limit_or_default(options.max_memory)}),
                  0};
  if (!journal.finished_run_of(run.p, options.shard)) return std::nullopt;
  run.engine_memory = check_lists_memory(run.p, options.max_memory, options.shard);
  return run;
}

// A run whose plan no other process builds too: its split may depend on
// this machine's memory.
bool runs_alone(const count_options& options, bool shared_plan) {
  return !shared_plan && options.checkpoint.empty() && options.shard.whole();
}

}  // namespace

engine_choice choose_engine(int n, const count_options& options, bool shared_plan) {
  const bool alone = runs_alone(options, shared_plan);
  // The candidates' plans run on oneTBB: raised first, as count() raises it.
  std::optional<detail::raised_worker_limit> allow_more;
  if (const int threads = threads_or_hardware(options.threads); threads > hardware_threads()) {
    allow_more.emplace(threads);
  }
  if (options.kind != engine::automatic) {
    if (options.split_depth != 0 || !alone) return {options.kind, options.split_depth};
    return {options.kind, fitting_split_depth(n, options.kind, options.max_memory, options.threads, options.cancel)};
  }
  if (!alone) return {shared_plan_engine(n), options.split_depth};
  return fastest_engine_and_split(n, options.max_memory, options.threads, options.split_depth, options.cancel);
}

namespace {

// The plan of a count and what its run may take besides. Where `fit_split`
// (an engine named without a split, for a run alone), an automatic split
// refused for its memory gives way to the deepest that fits, as
// choose_engine chooses, but priced only where it is refused: no plan is
// built twice where it fits. `options.split_depth` is set to the one taken.
planned_run plan_fitting(int n, count_options& options, bool fit_split) {
  const auto priced = [&] {
    return plan_within_memory(n, {.kind = options.kind, .split_depth = options.split_depth, .cancel = options.cancel},
                              options.max_memory, options.threads, options.shard);
  };
  try {
    return priced();
  } catch (const memory_limit_error& refusal) {
    if (!fit_split || !refusal.shallower_split_helps()) throw;
    options.split_depth = fitting_split_depth(n, options.kind, options.max_memory, options.threads, options.cancel);
    if (options.split_depth == 0) throw;
  }
  return priced();
}

// count() once its engine is chosen; `checked` is when its checks began.
count_result count_chosen(int n, count_options options, std::chrono::steady_clock::time_point checked, bool fit_split) {
  const auto start = std::chrono::steady_clock::now();
  const double work_at_start = detail::work_cpu_seconds();  // over the span of `seconds`
  checkpoint_file journal = take_journal(options);
  // Priced before a journal file is created, and (but for a finished
  // journal's plan, which its reading needs whole) before the lists are
  // allocated.
  const auto planned = [&]() -> planned_run {
    try {
      if (std::optional<planned_run> read = plan_to_read(n, options, journal)) return std::move(*read);
      return plan_fitting(n, options, fit_split);
    } catch (const memory_limit_error& refusal) {
      // A kept journal of another run is named first: the refusal's
      // remedies (more memory, another split) would only lead to it.
      journal.require_run_of(n, options.kind, refusal.split_depth(), options.shard, refusal.split_depth_at_least());
      throw;
    }
  };
  const planned_run run = planned();
  detail::arena_executor arena(options.threads, options.kernels, run.engine_memory, options.gpu, options.cancel);
  count_result result = detail::drive(run.p, options, arena, start, std::move(journal));
  result.phases.checks = std::chrono::duration<double>(start - checked).count();
  result.cpu_seconds = detail::work_cpu_seconds() - work_at_start;
  return result;
}

}  // namespace

count_result count(int n, const count_options& options) {
  const auto checked = std::chrono::steady_clock::now();
  require_valid_board_size(n);  // before anything prices the board
  validate(options, n);
  // More threads than the hardware's, raised before anything runs on oneTBB
  // (the plan, the tables): its first use fixes the most workers it will
  // ever start, max(256, 4 x the hardware threads) unless a raised limit is
  // alive then. Raised later, a count of 600 threads ran on 257.
  const int threads = resolve_threads(options.threads);
  std::optional<detail::raised_worker_limit> allow_more;
  if (threads > hardware_threads()) allow_more.emplace(threads);
  count_options run_options = options;  // with the engine chosen
  if (options.kind == engine::automatic) {
    const engine_choice chosen = choose_engine(n, options);
    run_options.kind = chosen.kind;
    run_options.split_depth = chosen.split_depth;
    validate(run_options, n);  // the engine's own checks
  }
  const bool fit_split = options.kind != engine::automatic && options.split_depth == 0 && runs_alone(options, false);
  return count_chosen(n, run_options, checked, fit_split);
}

count_result rotational_counts(int n, const count_options& options) {
  require_valid_board_size(n);
  // Its plan is the rotational search alone, on the CPU: the engine and the
  // split depth asked for play no part, and are not checked (validate is
  // given a CPU engine that takes every n, which does not run).
  count_options own = options;
  own.kind = engine::symmetric;
  own.split_depth = 0;
  validate(own, n);
  const int threads = resolve_threads(options.threads);
  std::optional<detail::raised_worker_limit> allow_more;  // as count() raises it
  if (threads > hardware_threads()) allow_more.emplace(threads);
  const auto start = std::chrono::steady_clock::now();
  const double work_at_start = detail::work_cpu_seconds();
  checkpoint_file journal = take_journal(options);
  const plan p(n, plan_options{.scope = plan_scope::rotational, .cancel = options.cancel});
  detail::arena_executor arena(options.threads, options.kernels, options.max_memory, {}, options.cancel);
  count_result result = detail::drive(p, options, arena, start, std::move(journal));
  result.cpu_seconds = detail::work_cpu_seconds() - work_at_start;
  return result;
}

}  // namespace nqueens
