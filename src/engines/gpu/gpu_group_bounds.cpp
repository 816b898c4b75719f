#include "engines/gpu/gpu_group_bounds.hpp"

#include "engines/gpu/gpu_join_kernels.hpp"
#include "engines/join_model/filter_rule.hpp"
#include "kernels/bits.hpp"
#include "kernels/subsets.hpp"

namespace nqueens::detail::gpu {

// Read up to the first placement kept, so that a range that has one costs
// a few reads; eight at a time, one branch for the eight, through a range
// the skip forbids whole.
bool keeps_any(const quarter_skip_rule& skip, const std::uint64_t* masks, std::uint32_t begin, std::uint32_t end) {
  std::uint32_t at = begin;
  for (; end - at >= 8; at += 8) {
    bool kept = false;
    for (std::uint32_t k = 0; k < 8; ++k) kept |= !skip.skips(masks[at + k]);
    if (kept) return true;
  }
  for (; at < end; ++at) {
    if (!skip.skips(masks[at])) return true;
  }
  return false;
}

std::array<std::uint64_t, 2> group_bounds(const gpu_job& job) {
  std::array<std::uint64_t, 2> bounds{0, 0};
  for (int group = 0; group < 2; ++group) {
    const quarter_skip_rule skip = quarter_skip_rule_of(job.rule, job.middle, group);
    // The row sets in rank order, each from the last (find_quarters unranks
    // each, a division a step: most of this function's time at n = 20).
    std::uint64_t rows = low_bits(job.west_queens[group]);
    for (std::uint32_t rank = 0; rank < job.row_sets[group]; ++rank) {
      if (rank != 0) rows = next_subset(rows);
      quarter_ranges q;  // empty outside the slice and the window
      quarters_of_row_set(job, group, rank, static_cast<std::uint32_t>(rows), q);
      const std::uint64_t products = std::uint64_t{q.west_end - q.west_begin} * (q.east_end - q.east_begin);
      if (products == 0) continue;
      if (job.middle >= 0 && (!keeps_any(skip, job.west[group].masks, q.west_begin, q.west_end) ||
                              !keeps_any(skip, job.east[group].masks, q.east_begin, q.east_end))) {
        continue;
      }
      bounds[static_cast<std::size_t>(group)] += products;
    }
  }
  return bounds;
}

}  // namespace nqueens::detail::gpu
