#include "nqueens/execute.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "engines/engine_definition.hpp"
#include "engines/registry.hpp"
#include "engines/rotation/rotation_plan.hpp"
#include "kernels/search.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/memory.hpp"
#include "run/arena.hpp"
#include "run/measure/worker_cpu_clock.hpp"
#include "run/plan_access.hpp"

namespace nqueens {

struct run_context::state {
  int n;
  std::shared_ptr<const detail::engine_plan> plan;  // kept alive: the context reads it
  std::shared_ptr<const std::vector<detail::rotation_task>> rotation;
  std::size_t engine_size;
  isa kernels;
  const detail::search_kernels* search = nullptr;
  std::uint64_t fingerprint;
  std::unique_ptr<detail::engine_context> engine;  // null for a rotational plan; last: freed before the plan
};

run_context::run_context(const plan& p, std::optional<isa> kernels, int threads, const std::atomic<bool>* cancel,
                         std::uint64_t max_memory, const gpu_options& gpu)
    : state_(std::make_unique<state>(state{p.board_size(), detail::plan_access::shared_engine(p),
                                           detail::plan_access::rotation(p), p.engine_subproblems(),
                                           runnable_isa(kernels), nullptr, p.fingerprint(), nullptr})) {
  state& s = *state_;
  s.search = &detail::search_kernels_for(s.kernels);
  // Every engine, with tables to build or none (the row engines, a
  // rotational plan): a caller already stopped gets no context.
  detail::throw_if_cancelled(cancel);
  if (s.plan == nullptr) return;
  // As count() does: GPU options given to an engine that counts on the CPU
  // are refused, not ignored (an engine with a check of its own, the GPU
  // engine's, makes it when it builds).
  if (!gpu.is_default() && detail::definition_of(p.kind()).check_runnable == nullptr) {
    check_runnable(p.kind(), 0, threads, gpu);
  }
  detail::worker_arena arena(threads);
  max_memory = memory_limit_or_default(max_memory);
  arena.execute([&] {  // tables built on the arena's threads
    s.engine = s.plan->make_context(s.kernels, arena.threads(), max_memory, gpu, cancel);
  });
}

run_context::~run_context() = default;
run_context::run_context(run_context&&) noexcept = default;
run_context& run_context::operator=(run_context&& other) noexcept {
  state_.reset();  // the old context reads the old plan: free it first
  state_ = std::move(other.state_);
  return *this;
}

isa run_context::kernels() const noexcept { return state_->kernels; }

std::uint64_t run_context::plan_fingerprint() const noexcept { return state_->fingerprint; }

subproblem_count run_context::solve(std::size_t index, const std::atomic<bool>* cancel) const {
  const state& s = *state_;
  if (index < s.engine_size) return s.engine->solve(index, cancel);
  if (index - s.engine_size >= s.rotation->size()) {
    throw std::out_of_range("subproblem index " + std::to_string(index) + " is outside the plan of " +
                            std::to_string(s.engine_size + s.rotation->size()));
  }
  // A rotation task takes milliseconds at n = 28, a fraction of a second at
  // 32 (rotation_plan.cpp): the flag is looked at once.
  detail::stop_if_cancelled(cancel);
  return detail::solve_rotation_task(s.n, (*s.rotation)[index - s.engine_size], *s.search);
}

void run_context::solve(std::span<const std::size_t> indices, std::span<subproblem_count> counts,
                        const std::atomic<bool>* cancel) const {
  if (indices.size() != counts.size()) {
    throw std::invalid_argument("run_context::solve: " + std::to_string(indices.size()) + " indices for " +
                                std::to_string(counts.size()) + " counts");
  }
  const state& s = *state_;
  const auto of_engine = [&](std::size_t i) { return s.engine != nullptr && i < s.engine_size; };
  if (std::ranges::all_of(indices, of_engine)) {
    if (!indices.empty()) s.engine->solve_batch(indices, counts, cancel);
    return;
  }
  // The dispatch order deals the rotation tasks (the plan's end) among the
  // engine's subproblems, so a batch often holds both: the engine's in one
  // call all the same (in several, a GPU round would hold a few jobs, not
  // 64), the rotation tasks one by one. Gathered in buffers of the thread's
  // own, grown once, so that no batch allocates; a call made while the
  // thread's buffers are in use (an engine that waits in a oneTBB task
  // group) has buffers of its own.
  thread_local std::vector<std::size_t> thread_indices;
  thread_local std::vector<subproblem_count> thread_counts;
  thread_local bool in_use = false;
  std::vector<std::size_t> own_indices;
  std::vector<subproblem_count> own_counts;
  const bool nested = in_use;
  std::vector<std::size_t>& engine_indices = nested ? own_indices : thread_indices;
  std::vector<subproblem_count>& engine_counts = nested ? own_counts : thread_counts;
  in_use = true;
  struct release {
    bool& flag;
    bool value;
    ~release() { flag = value; }
  } restore{in_use, nested};
  engine_indices.clear();
  for (const std::size_t i : indices) {
    if (of_engine(i)) engine_indices.push_back(i);
  }
  engine_counts.resize(engine_indices.size());
  if (!engine_indices.empty()) s.engine->solve_batch(engine_indices, engine_counts, cancel);
  for (std::size_t k = 0, e = 0; k < indices.size(); ++k) {
    counts[k] = of_engine(indices[k]) ? engine_counts[e++] : solve(indices[k], cancel);
  }
}

std::size_t run_context::batch_size() const noexcept {
  return state_->engine != nullptr ? std::max<std::size_t>(state_->engine->batch_size(), 1) : 1;
}

device_work run_context::device() const noexcept {
  return state_->engine != nullptr ? state_->engine->device() : device_work{};
}

bool run_context::waits_on_a_device() const noexcept {
  return state_->engine != nullptr && state_->engine->waits_on_a_device();
}

namespace {

// Refuses an index outside the plan or listed twice (it would be counted
// twice). Returns false when `cancel` came first.
bool check_indices(const plan& p, std::span<const std::size_t> indices, const std::atomic<bool>* cancel) {
  if (indices.size() < p.size() / 64) {
    // A few of a large plan (an MPI chunk, a shard's tail): sorted, not a
    // bit per subproblem (9 MiB to clear at n = 27 for each chunk).
    std::vector<std::size_t> sorted(indices.begin(), indices.end());
    std::sort(sorted.begin(), sorted.end());
    if (!sorted.empty() && sorted.back() >= p.size()) {
      throw std::invalid_argument("subproblem index " + std::to_string(sorted.back()) + " is outside the plan of " +
                                  std::to_string(p.size()));
    }
    const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
    if (twice != sorted.end()) {
      throw std::invalid_argument("subproblem index " + std::to_string(*twice) + " is listed twice");
    }
    return cancel == nullptr || !cancel->load(std::memory_order_relaxed);
  }
  std::vector<std::uint64_t> listed((p.size() + 63) / 64, 0);  // a bit per subproblem
  for (std::size_t k = 0; k < indices.size(); ++k) {
    // 2 * 10^8 indices take a second: a cancel is looked at every 2^16.
    if (k % 65536 == 0 && cancel != nullptr && cancel->load(std::memory_order_relaxed)) return false;
    const std::size_t index = indices[k];
    if (index >= p.size()) {
      throw std::invalid_argument("subproblem index " + std::to_string(index) + " is outside the plan of " +
                                  std::to_string(p.size()));
    }
    const std::uint64_t bit = std::uint64_t{1} << (index % 64);
    if ((listed[index / 64] & bit) != 0) {
      throw std::invalid_argument("subproblem index " + std::to_string(index) + " is listed twice");
    }
    listed[index / 64] |= bit;
  }
  return true;
}

// Runs `indices` on `arena`, a batch of the engine's batch_size() per
// task, into `run`.
void run_batches(detail::worker_arena& arena, std::span<const std::size_t> indices, const execute_options& options,
                 const run_context& context, execution& run) {
  const auto cancelled = [&] { return options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed); };
  const bool keep = options.keep_results;
  const std::size_t batch_size = context.batch_size();
  const std::size_t batches = (indices.size() + batch_size - 1) / batch_size;
  // Where the counts are not kept, each thread's batch writes them into a
  // buffer of its own, taken once: a batch allocates nothing. A batch the
  // thread takes while its buffer is in use (an engine that waits in a
  // oneTBB task group) has one of its own.
  struct batch_buffer {
    std::vector<subproblem_count> counts;
    bool in_use = false;
  };
  tbb::enumerable_thread_specific<batch_buffer> buffers;
  arena.execute([&] {
    tbb::task_group_context group;
    // Whole batches (the last one short), one per task: a halved range
    // would hand the engine rounds of half the size it asked for.
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, batches, 1),
        [&](const tbb::blocked_range<std::size_t>& batch_range) {
          if (cancelled()) {
            group.cancel_group_execution();
            return;
          }
          const std::size_t first = batch_range.begin() * batch_size;
          const tbb::blocked_range<std::size_t> range(first, std::min(indices.size(), batch_range.end() * batch_size));
          const std::span<const std::size_t> batch = indices.subspan(range.begin(), range.size());
          std::span<subproblem_count> counts;
          std::vector<subproblem_count> nested;
          batch_buffer* held = nullptr;
          if (keep) {
            counts = std::span(run.counts).subspan(range.begin(), range.size());
          } else if (batch_buffer& own = buffers.local(); !own.in_use) {
            held = &own;
            own.in_use = true;
            if (own.counts.size() < batch_size) own.counts.resize(batch_size);
            counts = std::span(own.counts).first(range.size());
          } else {
            nested.resize(range.size());
            counts = nested;
          }
          const struct release {
            batch_buffer* buffer;
            ~release() {
              if (buffer != nullptr) buffer->in_use = false;
            }
          } release_buffer{held};
          const auto begin = std::chrono::steady_clock::now();
          try {
            context.solve(batch, counts, options.cancel);
          } catch (const subproblem_cancelled&) {
            group.cancel_group_execution();  // the batch stays unfinished
            return;
          }
          const double each =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() / double(range.size());
          for (std::size_t k = 0; k < batch.size(); ++k) {
            if (keep) {
              // Each slot is written by exactly one task; the arena's join
              // publishes the writes to the caller.
              if (options.time_subproblems) run.subproblem_seconds[range.begin() + k] = each;
              run.finished[range.begin() + k] = 1;
            }
            if (options.on_finished) options.on_finished(batch[k], counts[k]);
          }
        },
        tbb::simple_partitioner(), group);
  });
}

// Runs `indices` on `arena`, one subproblem per task, into `run`.
void run_tasks(detail::worker_arena& arena, std::span<const std::size_t> indices, const execute_options& options,
               const run_context& context, execution& run) {
  if (context.batch_size() > 1) {
    run_batches(arena, indices, options, context, run);
    return;
  }
  const auto cancelled = [&] { return options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed); };
  const bool keep = options.keep_results;
  arena.execute([&] {
    // A cancel cancels the loop's task group: oneTBB then starts none of the
    // tasks left (2 * 10^8 at n = 25 with 12 slices, 10 s of empty tasks
    // when each only looked at the flag and returned).
    tbb::task_group_context group;
    // One subproblem per task (grain 1, simple_partitioner): subproblem costs
    // vary by orders of magnitude, so only fine-grained stealing balances them.
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, indices.size(), 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          for (std::size_t i = range.begin(); i != range.end(); ++i) {
            if (cancelled()) {
              group.cancel_group_execution();
              return;
            }
            const std::size_t index = indices[i];
            const auto begin =
                options.time_subproblems ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
            subproblem_count c;
            try {
              c = context.solve(index, options.cancel);
            } catch (const subproblem_cancelled&) {
              group.cancel_group_execution();  // the subproblem stays unfinished
              return;
            }
            if (keep) {
              if (options.time_subproblems) {
                run.subproblem_seconds[i] =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
              }
              // Each slot is written by exactly one task; the arena's join
              // publishes the writes to the caller.
              run.counts[i] = c;
              run.finished[i] = 1;
            }
            if (options.on_finished) options.on_finished(index, c);
          }
        },
        tbb::simple_partitioner(), group);
  });
}

}  // namespace

execution execute(const plan& p, std::span<const std::size_t> indices, const execute_options& options,
                  const run_context* context) {
  detail::worker_arena arena(options.threads);
  if (context != nullptr && context->plan_fingerprint() != p.fingerprint()) {
    throw std::invalid_argument("the run context was built for another plan");
  }
  const bool go = check_indices(p, indices, options.cancel);
  execution run;
  run.plan_size = p.size();
  run.threads = arena.threads();
  if (options.keep_results) {
    run.indices.assign(indices.begin(), indices.end());
    run.counts.assign(indices.size(), subproblem_count{});
    run.finished.assign(indices.size(), 0);
    if (options.time_subproblems) run.subproblem_seconds.assign(indices.size(), 0.0);
  }
  if (!go) return run;  // cancelled before anything ran: nothing finished
  const auto start = std::chrono::steady_clock::now();
  const double work_at_start = detail::work_cpu_seconds();
  // The time since `start`, and the CPU time: this thread's, its own
  // context's workers' (charged when that arena ended) and the counting
  // arena's workers'.
  const auto timed = [&] {
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.cpu_seconds = detail::work_cpu_seconds() - work_at_start + arena.worker_cpu_seconds();
  };
  std::optional<run_context> own;
  if (context == nullptr && !indices.empty()) {
    check_memory(p.board_size(), p.kind(), options.max_memory, run.threads);
    try {
      own.emplace(p, options.kernels, run.threads, options.cancel, options.max_memory, options.gpu);
    } catch (const run_cancelled&) {
      timed();     // the tables begun
      return run;  // cancelled before anything ran: nothing finished
    }
    context = &*own;
    run.start_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  run.kernels = context != nullptr ? context->kernels() : (options.kernels ? *options.kernels : active_isa());
  if (context != nullptr) {
    run.counting_began = true;
    const device_work before = context->device();
    run_tasks(arena, indices, options, *context, run);
    const device_work after = context->device();
    run.device = after - before;
  }

  if (own) {  // released here, and timed: a GPU's tables and streams take a while
    const auto counted = std::chrono::steady_clock::now();
    own.reset();
    run.release_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - counted).count();
  }
  timed();
  return run;
}

execution execute(const plan& p, const execute_options& options) {
  std::vector<std::size_t> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  return execute(p, all, options);
}

}  // namespace nqueens
