#include "engines/gpu/gpu_backend.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "engines/checked_count.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/filter_rule.hpp"
#include "nqueens/cancelled.hpp"

namespace nqueens::detail::gpu {

gpu_job job_for(const quadrant_task& task, int n, int slices, const gpu_backend& backend) {
  gpu_job job;
  job.n = n;
  job.h = job.n / 2;
  job.middle = task.middle;
  job.columns[0] = task.north;
  job.columns[1] = south_columns_of(job.n, task.north, task.middle);
  for (int g = 0; g < 2; ++g) {
    job.west_queens[g] = west_queens_of(job.columns[g], job.h);
    job.row_sets[g] = static_cast<std::uint32_t>(binomial(job.h, job.west_queens[g]));
  }
  job.slices[0] = static_cast<std::uint32_t>(slices);
  job.slice[0] = task.slice;
  job.west[0] = job.west[1] = backend.west();
  job.east[0] = job.east[1] = backend.east();
  job.rule = filter_rule_of(job.n, task.north, task.middle);
  job.digits_limit = job_digits_for(job.n);
  return job;
}

std::uint64_t solutions_of(const gpu_job& job, pair_counts counts, std::uint64_t weight) {
  const std::uint64_t share =
      job.rule.kind == filter_rule::every_pair ? counts.pairs : filtered_share(counts.pairs, counts.once);
  return checked_product(share, weight);
}

namespace {

// What a fault means, for messages.
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
    case job_fault::stopped:
      return "the run was stopped mid-round";
    case job_fault::counter_overflow:
      return "its round's visit items are more than the 32-bit counter that deals them can count";
  }
  return "an unknown fault";
}

}  // namespace

void check_result(const job_result& result, const gpu_job& job, round_kind round) {
  const std::uint32_t mark = (round == round_kind::sizes ? sized_mark : finished_mark) ^ job.sequence;
  if (result.mark == mark && result.fault == 0) return;
  const auto fault = static_cast<job_fault>(result.fault);
  if (fault == job_fault::stopped) throw subproblem_cancelled();  // a partial count, never taken
  throw std::runtime_error("GPU engine: the job with north columns " + std::to_string(job.columns[0]) +
                           " failed its checks: " + fault_message(result.fault != 0 ? fault : job_fault::none));
}

}  // namespace nqueens::detail::gpu
