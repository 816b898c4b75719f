#include "engines/gpu/gpu_backend.hpp"

#include <bit>
#include <stdexcept>
#include <string>

#include "engines/gpu/gpu_kernels.hpp"
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
  return job;
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
