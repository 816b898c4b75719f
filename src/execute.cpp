#include "nqueens/execute.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "kernel/backtrack.hpp"
#include "kernel/quadrant.hpp"
#include "symmetry.hpp"

namespace nqueens {

namespace {

struct classify_context {
  std::uint64_t unique = 0;
};

// Leaf check of the symmetric engine (see plan.cpp): `q` starts at t, the
// smallest of the 8 border slots. If no other slot equals t, q is the only
// member of its class the search reaches, and the class has 8 members. Else
// the images that also start at t compete: q counts only if none is smaller
// (row by row), and then stands for its class of 8 / |stabiliser| solutions.
std::uint64_t classify_leaf(std::span<const std::uint8_t> q, void* context) noexcept {
  auto& c = *static_cast<classify_context*>(context);
  const int n = static_cast<int>(q.size());
  const int m = n - 1;
  const int t = q[0];
  const auto at = [&](int row) { return static_cast<int>(q[static_cast<std::size_t>(row)]); };
  const bool tie = t == m - t || at(t) == 0 || at(t) == m || at(m - t) == 0 || at(m - t) == m ||
                   at(m) == t || at(m) == m - t;
  if (!tie) [[likely]] {
    ++c.unique;
    return 8;
  }
  std::array<std::uint8_t, max_board_size> buffer{};
  const std::span<std::uint8_t> image(buffer.data(), q.size());
  int stabiliser = 1;
  for (int g = 1; g < detail::symmetry_count; ++g) {
    detail::apply(static_cast<detail::symmetry>(g), q, image);
    if (image[0] != t) continue;  // the search never reaches this member
    const auto order = std::lexicographical_compare_three_way(image.begin(), image.end(), q.begin(), q.end());
    if (order < 0) return 0;  // a smaller member is counted instead
    if (order == 0) ++stabiliser;
  }
  ++c.unique;
  return static_cast<std::uint64_t>(8 / stabiliser);
}

}  // namespace

subproblem_count solve_subproblem(const plan& p, std::size_t index) {
  if (p.kind() == engine::quadrant) {
    const auto tables = detail::shared_half_board_tables(p.board_size());
    thread_local detail::quadrant_scratch scratch;
    return {detail::solve_quadrant(*tables, p[index], p.split_depth(), scratch), 0};
  }
  const int n = p.board_size();
  const subproblem& s = p[index];
  const detail::search_start start = detail::prepare(n, p.kind(), s);
  if (s.classify != 0) {
    classify_context context;
    const std::uint64_t total = detail::visit_completions(n, start, &classify_leaf, &context);
    return {total, context.unique};
  }
  const std::uint64_t completions = detail::count_completions(n, start);
  std::uint64_t total = 0;
  if (__builtin_mul_overflow(completions, std::uint64_t{s.weight}, &total)) {
    throw std::overflow_error("subproblem " + std::to_string(index) + " has more than 2^64 solutions");
  }
  return {total, counts_unique(p.kind()) ? completions : 0};
}

execution execute(const plan& p, std::span<const std::size_t> indices,
                  const execute_options& options) {
  if (options.threads < 0 || options.threads > max_threads) {
    throw std::invalid_argument("thread count " + std::to_string(options.threads) +
                                " is out of range: expected 1 to " + std::to_string(max_threads));
  }
  std::vector<std::uint8_t> listed(p.size(), 0);
  for (const std::size_t index : indices) {
    if (index >= p.size()) {
      throw std::invalid_argument("subproblem index " + std::to_string(index) +
                                  " is outside the plan of " + std::to_string(p.size()));
    }
    if (listed[index]++ != 0) {  // two tasks would write the same slot
      throw std::invalid_argument("subproblem index " + std::to_string(index) + " is listed twice");
    }
  }
  execution run;
  run.threads = options.threads == 0 ? hardware_threads() : options.threads;
  run.counts.assign(p.size(), subproblem_count{});
  run.finished.assign(p.size(), 0);
  if (options.time_subproblems) run.subproblem_seconds.assign(p.size(), 0.0);

  const auto start = std::chrono::steady_clock::now();
  // oneTBB caps workers at the hardware thread count unless told otherwise;
  // honour an explicit request for more (oversubscription) for this run only.
  std::optional<tbb::global_control> allow_more;
  if (run.threads > hardware_threads()) {
    allow_more.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(run.threads));
  }
  tbb::task_arena arena(run.threads);
  std::shared_ptr<const detail::half_board_tables> tables;
  tbb::enumerable_thread_specific<detail::quadrant_scratch> scratch;
  if (p.kind() == engine::quadrant && !indices.empty()) {
    check_memory(p.board_size(), p.kind(), options.max_memory, run.threads);
    arena.execute([&] { tables = detail::shared_half_board_tables(p.board_size()); });  // on the arena's threads
  }
  const auto solve = [&](std::size_t index) -> subproblem_count {
    if (tables != nullptr) return {detail::solve_quadrant(*tables, p[index], p.split_depth(), scratch.local()), 0};
    return solve_subproblem(p, index);
  };
  arena.execute([&] {
    // One subproblem per task (grain 1, simple_partitioner): subproblem costs
    // vary by orders of magnitude, so only fine-grained stealing balances them.
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, indices.size(), 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          for (std::size_t i = range.begin(); i != range.end(); ++i) {
            if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) return;
            const std::size_t index = indices[i];
            const auto begin = options.time_subproblems ? std::chrono::steady_clock::now()
                                                        : std::chrono::steady_clock::time_point{};
            const subproblem_count c = solve(index);
            if (options.time_subproblems) {
              run.subproblem_seconds[index] =
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
            }
            // Each slot is written by exactly one task; the arena's join
            // publishes the writes to the caller.
            run.counts[index] = c;
            run.finished[index] = 1;
            if (options.on_finished) options.on_finished(index, c);
          }
        },
        tbb::simple_partitioner());
  });
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

execution execute(const plan& p, const execute_options& options) {
  std::vector<std::size_t> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  return execute(p, all, options);
}

}  // namespace nqueens
