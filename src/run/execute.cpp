#include "nqueens/execute.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engines/engine_definition.hpp"
#include "engines/registry.hpp"
#include "engines/rotation/rotation_plan.hpp"
#include "kernels/search.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/memory.hpp"
#include "run/execute_on_arena.hpp"
#include "run/plan_access.hpp"
#include "run/worker_arena.hpp"

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

execution execute(const plan& p, std::span<const std::size_t> indices, const execute_options& options,
                  const run_context* context) {
  return detail::execute_on_arena(p, indices, options, context, nullptr);
}

execution execute(const plan& p, const execute_options& options) {
  std::vector<std::size_t> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  return execute(p, all, options);
}

}  // namespace nqueens
