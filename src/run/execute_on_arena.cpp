#include "run/execute_on_arena.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "nqueens/device_work.hpp"
#include "nqueens/memory.hpp"
#include "run/measure/worker_cpu_clock.hpp"
#include "run/worker_arena.hpp"

namespace nqueens::detail {

namespace {

bool either_set(const std::atomic<bool>* a, const std::atomic<bool>* b) {
  return (a != nullptr && a->load(std::memory_order_relaxed)) || (b != nullptr && b->load(std::memory_order_relaxed));
}

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
void run_batches(worker_arena& arena, std::span<const std::size_t> indices, const execute_options& options,
                 const std::atomic<bool>* also_cancel, const run_context& context, execution& run) {
  const auto cancelled = [&] { return either_set(options.cancel, also_cancel); };
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
void run_tasks(worker_arena& arena, std::span<const std::size_t> indices, const execute_options& options,
               const std::atomic<bool>* also_cancel, const run_context& context, execution& run) {
  if (context.batch_size() > 1) {
    run_batches(arena, indices, options, also_cancel, context, run);
    return;
  }
  const auto cancelled = [&] { return either_set(options.cancel, also_cancel); };
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

execution execute_on_arena(const plan& p, std::span<const std::size_t> indices, const execute_options& options,
                           const run_context* context, const std::atomic<bool>* also_cancel) {
  worker_arena arena(options.threads);
  if (context != nullptr && context->plan_fingerprint() != p.fingerprint()) {
    throw std::invalid_argument("the run context was built for another plan");
  }
  const bool go = check_indices(p, indices, options.cancel) && !either_set(also_cancel, nullptr);
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
  const double work_at_start = work_cpu_seconds();
  // The time since `start`, and the CPU time: this thread's, its own
  // context's workers' (charged when that arena ended) and the counting
  // arena's workers'.
  const auto timed = [&] {
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.cpu_seconds = work_cpu_seconds() - work_at_start + arena.worker_cpu_seconds();
  };
  std::optional<run_context> own;
  if (context == nullptr && !indices.empty()) {
    // A rotational plan builds no engine's tables: only its lists are held.
    if (p.scope() == plan_scope::all) check_memory(p.board_size(), p.kind(), options.max_memory, run.threads);
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
  // A cancel that came while the tables were built (seen there at its
  // next look, or not at all once they were done) starts no subproblem:
  // counting has not begun; nor has it for no indices, though the caller
  // passed its context.
  if (context != nullptr && !indices.empty() && !either_set(options.cancel, also_cancel)) {
    run.counting_began = true;
    const device_work before = context->device();
    run_tasks(arena, indices, options, also_cancel, *context, run);
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

}  // namespace nqueens::detail
