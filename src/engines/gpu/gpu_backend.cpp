#include "engines/gpu/gpu_backend.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "engines/gpu/gpu_kernels.hpp"
#include "engines/quadrant/transposition.hpp"
#include "kernels/bits.hpp"

namespace nqueens::detail::gpu {

namespace {

// Every west-east product of one group: no more halves can be joined.
std::uint32_t joined_at_most(const half_board_tables& tables, std::uint32_t columns, int queens) {
  const int h = tables.board_size() / 2;
  const quarter_view west = tables.west().on(columns & low_bits(h));
  const quarter_view east = tables.east().on(columns >> h);
  std::uint64_t most = 0;
  for (std::uint32_t rank = 0; rank < binomial(h, queens); ++rank) {
    const std::uint32_t rows = nth_subset(rank, h, queens);
    most += std::uint64_t{west.masks_on(rows).size()} * east.masks_on(low_bits(h) & ~rows).size();
  }
  if (most > UINT32_MAX) throw std::length_error("a GPU group would pass 2^32 halves");
  return static_cast<std::uint32_t>(most);
}

// The quadrant engine's pair_rule_for (quadrant_kernel.inc), as the kernels read it.
transposition_rule rule_for(int n, const quadrant_task& task) {
  transposition_rule r;
  if (!transposition_filtered(n)) return r;
  const int h = n / 2, middle = task.middle;
  const transposition_key key = transposition_key_of(task.north, n, middle);
  r.c = key.first;
  r.a = key.second;
  r.a_bar = low_bits(h) & ~key.second;
  if (n % 2 == 0 || middle == h) {
    r.kind = transposition_rule::row_window;
    r.c_bar = low_bits(h) & ~key.first;
    r.a_inside = r.a > r.c && r.a < r.c_bar;
    r.a_bar_inside = r.a_bar > r.c && r.a_bar < r.c_bar;
    return r;
  }
  r.kind = transposition_rule::column_h;
  r.c_bar = low_bits(h - 1) & ~key.first;
  r.holder = ((task.north >> h) & 1U) != 0 ? 0 : 1;
  r.distance = static_cast<std::uint32_t>(std::min(middle, n - 1 - middle));
  const int beta = middle < h ? 1 : 0;
  r.above = beta > key.beta ? r.a : r.a + 1;
  r.to_a_bar = 1 - beta > key.beta;
  r.once_c = beta == key.beta;
  r.once_c_bar = 1 - beta == key.beta;
  return r;
}

}  // namespace

gpu_job job_for(const quadrant_task& task, int slices, const half_board_tables& tables, const gpu_backend& backend) {
  gpu_job job;
  job.n = tables.board_size();
  job.h = job.n / 2;
  job.middle = task.middle;
  const std::uint32_t full = low_bits(job.n);
  job.columns[0] = task.north;
  job.columns[1] = full & ~task.north & (task.middle >= 0 ? ~(std::uint32_t{1} << task.middle) : full);
  for (int g = 0; g < 2; ++g) {
    job.west_queens[g] = std::popcount(job.columns[g] & low_bits(job.h));
    job.row_sets[g] = binomial(job.h, job.west_queens[g]);
    job.capacity[g] = joined_at_most(tables, job.columns[g], job.west_queens[g]);
  }
  job.slices = static_cast<std::uint32_t>(slices);
  job.slice = task.slice;
  job.west = backend.west();
  job.east = backend.east();
  job.rule = rule_for(job.n, task);
  return job;
}

std::uint64_t solutions_of(const gpu_job& job, pair_counts counts, std::uint64_t weight) {
  std::uint64_t share = counts.pairs;
  if (job.rule.kind != transposition_rule::every_pair &&
      (__builtin_mul_overflow(counts.pairs, std::uint64_t{2}, &share) ||
       __builtin_add_overflow(share, counts.once, &share))) {
    throw std::overflow_error("a GPU subproblem has more than 2^64 solutions");
  }
  std::uint64_t total = 0;
  if (__builtin_mul_overflow(share, weight, &total)) {
    throw std::overflow_error("a GPU subproblem has more than 2^64 solutions");
  }
  return total;
}

void check_finished(const job_state& state, const gpu_job& job) {
  if (state.finished == finished_mark) return;
  static constexpr const char* faults[] = {"the kernels did not run to the end", "a group outgrew its bound",
                                           "the code needs more digits than it holds", "the key histogram lost halves",
                                           "the sort by key lost halves"};
  const std::uint32_t fault = state.fault < 5 ? state.fault : 0;
  throw std::runtime_error("GPU engine: subproblem with north columns " + std::to_string(job.columns[0]) +
                           " failed its checks: " + faults[fault]);
}

}  // namespace nqueens::detail::gpu
