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

// The filter's rule (filter_of, as the quadrant engine's join counts it),
// in the fields the kernels read.
transposition_rule rule_for(int n, const quadrant_task& task) {
  const subproblem_filter f = filter_of(n, task.north, task.middle);
  transposition_rule r;
  if (f.kind == subproblem_filter::every_pair) return r;
  const int h = n / 2;
  r.c = f.key.first;
  r.a = f.key.second;
  r.a_bar = low_bits(h) & ~f.key.second;
  if (f.kind == subproblem_filter::row_window) {
    r.kind = transposition_rule::row_window;
    r.c_bar = low_bits(h) & ~f.key.first;
    r.a_inside = r.a > r.c && r.a < r.c_bar;
    r.a_bar_inside = r.a_bar > r.c && r.a_bar < r.c_bar;
    return r;
  }
  r.kind = transposition_rule::column_h;
  r.c_bar = low_bits(h - 1) & ~f.key.first;
  r.holder = f.north_holds ? 0 : 1;
  r.distance = static_cast<std::uint32_t>(f.distance);
  r.above = f.beta > f.key.beta ? r.a : r.a + 1;
  r.to_a_bar = 1 - f.beta > f.key.beta;
  r.once_c = f.beta == f.key.beta;
  r.once_c_bar = 1 - f.beta == f.key.beta;
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
    job.row_sets[g] = static_cast<std::uint32_t>(binomial(job.h, job.west_queens[g]));
  }
  job.slices[0] = static_cast<std::uint32_t>(slices);
  job.slice[0] = task.slice;
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

const char* fault_message(job_fault fault) noexcept {
  switch (fault) {
    case job_fault::none:
      return "the kernels did not run to the end";
    case job_fault::group_past_bound:
      return "a group outgrew its bound";
    case job_fault::too_many_digits:
      return "the code needs more digits than it holds";
    case job_fault::histogram_lost:
      return "the key histogram lost halves";
    case job_fault::sort_lost:
      return "the sort by key lost halves";
  }
  return "an unknown fault";
}

void check_result(const job_result& result, const gpu_job& job, round_kind round) {
  const std::uint32_t mark = (round == round_kind::sizes ? sized_mark : finished_mark) ^ job.sequence;
  if (result.mark == mark && result.fault == 0) return;
  const auto fault = static_cast<job_fault>(result.fault);
  throw std::runtime_error("GPU engine: the job with north columns " + std::to_string(job.columns[0]) +
                           " failed its checks: " + fault_message(result.fault != 0 ? fault : job_fault::none));
}

}  // namespace nqueens::detail::gpu
