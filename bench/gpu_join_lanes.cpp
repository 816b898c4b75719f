// How a round's size and join kernels fill a device's lanes
// (docs/performance.md): the products of real row sets, and a model of a
// round three ways: a block of 256 lanes a row set (the kernels before
// block_row_sets), a warp of 32 lanes a row set, and eight row sets a block
// with their products dealt to its 256 lanes as one list (the kernels now).
//
//   nqueens_gpu_join_lanes N FIRST [JOBS] [SLOTS] [SETUP]
//
// Reads classes FIRST.. FIRST+JOBS-1 of board N (a class a job, as the GPU
// plan of split depth 1 has them; JOBS 64, a round's), finds and lists each
// row set's quarter placements as the kernels do (find_picks, plan_lists,
// list_quarters) and counts its products: the west-east pairs the kernels
// walk (for odd N, also the ranges read whole, past the lists' room). A
// block takes SETUP steps of the product walk (6: finding and listing its
// picks) plus, for each row set of L lanes, ceil(products / L) steps (its
// slowest row set's, since its phases end at barriers; for the list of
// eight, ceil(their products / 256)). Blocks go in order to SLOTS block
// slots (1056: an H100's 132 SMs, eight blocks each), each to the slot free
// first. Prints the row sets' products, and when the round ends each way
// and the slots' busy time in all (what matters where other streams'
// rounds fill the tail).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_emulator.hpp"
#include "engines/gpu/gpu_join_kernels.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/quarter_tables.hpp"
#include "round_window.hpp"
#include "tool_main.hpp"

namespace {

using namespace nqueens::detail;
using namespace nqueens::detail::gpu;

// Quarter ranges with placements, and those read whole (not listed).
struct range_tally {
  std::uint64_t ranges = 0, whole = 0;
};

// The products of each row set of `job`, in order, as the kernels' blocks
// find and list them.
std::vector<std::uint64_t> row_set_products(const gpu_job& job, range_tally& tally) {
  std::vector<std::uint64_t> products;
  block_picks picks{};
  for (std::uint32_t item = 0; item < row_set_items(job); ++item) {
    for (std::uint32_t thread = 0; thread < block_threads; ++thread) find_picks(job, item, thread, picks);
    plan_lists(job, 0, picks);
    for (std::uint32_t thread = 0; thread < block_threads; ++thread) list_quarters(job, thread, picks);
    for (std::uint32_t r = 0; r < block_row_sets; ++r) {
      if (item * block_row_sets + r < job.row_sets[0] + job.row_sets[1]) products.push_back(picks.products(r));
      const quarter_ranges& q = picks.q[r];
      for (const int side : {0, 1}) {
        if ((side == 0 ? q.west_end - q.west_begin : q.east_end - q.east_begin) == 0) continue;
        ++tally.ranges;
        tally.whole += job.middle >= 0 && !picks.listed[r][side] ? 1 : 0;
      }
    }
  }
  return products;
}

// A round's blocks dealt to slots: when the last ends, and the slots' busy
// time in all (what streams that run side by side share out).
struct round_time {
  double end = 0, busy = 0;
};

// Each `per_block` of a job's row sets (in item order) a block of `lanes`
// lanes each (`flat`: their products dealt to the lanes as one list), dealt
// to `slots` as they free up.
round_time round_end(const std::vector<std::vector<std::uint64_t>>& jobs, std::uint32_t per_block, std::uint32_t lanes,
                     bool flat, std::uint32_t slots, double setup) {
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (std::uint32_t k = 0; k < slots; ++k) free_at.push(0);
  round_time time;
  for (const std::vector<std::uint64_t>& products : jobs) {
    for (std::size_t first = 0; first < products.size(); first += per_block) {
      std::uint64_t steps = 0, sum = 0;
      for (std::size_t k = first; k < std::min(products.size(), first + per_block); ++k) {
        steps = std::max(steps, (products[k] + lanes - 1) / lanes);
        sum += products[k];
      }
      if (flat) steps = (sum + lanes - 1) / lanes;
      const double done = free_at.top() + setup + static_cast<double>(steps);
      free_at.pop();
      free_at.push(done);
      time.end = std::max(time.end, done);
      time.busy += setup + static_cast<double>(steps);
    }
  }
  return time;
}

int run(int argc, char** argv) {
  const nqueens::bench::round_window window =
      nqueens::bench::read_round_window(argc, argv, "nqueens_gpu_join_lanes", 23, 1056, 6);
  const int n = window.n;
  const half_board_tables tables(n);
  const auto backend = emulated_backend(tables, {});
  std::vector<std::vector<std::uint64_t>> round;
  std::vector<std::uint64_t> all;
  range_tally tally;
  for (const column_class& c : window.classes) {
    round.push_back(row_set_products(job_for({c.north, c.middle, c.weight, 0}, n, 1, *backend), tally));
    all.insert(all.end(), round.back().begin(), round.back().end());
  }
  std::sort(all.begin(), all.end());
  std::uint64_t total = 0;
  for (const std::uint64_t p : all) total += p;
  std::printf("n = %d, classes %llu..%llu: %zu row sets, products mean %.0f, median %llu, 99th %llu, most %llu\n", n,
              static_cast<unsigned long long>(window.first),
              static_cast<unsigned long long>(window.first + window.classes.size() - 1), all.size(),
              static_cast<double>(total) / static_cast<double>(all.size()),
              static_cast<unsigned long long>(all[all.size() / 2]),
              static_cast<unsigned long long>(all[all.size() * 99 / 100]), static_cast<unsigned long long>(all.back()));
  if (n % 2 == 1) {
    std::printf("  %llu of %llu quarter ranges read whole, past what the block's lists hold\n",
                static_cast<unsigned long long>(tally.whole), static_cast<unsigned long long>(tally.ranges));
  }
  const round_time block = round_end(round, 1, block_threads, false, window.slots, window.setup);
  const round_time warp = round_end(round, block_warps, warp_lanes, false, window.slots, window.setup);
  const round_time flat = round_end(round, block_row_sets, block_threads, true, window.slots, window.setup);
  std::printf("  %u slots, %.0f steps a row set's setup; the round ends at (busy slot-steps in all)\n", window.slots,
              window.setup);
  const auto line = [&](const round_time& t, const char* what) {
    std::printf("    %8.0f (%10.0f)  %s", t.end, t.busy, what);
    if (&t != &block)
      std::printf(" (%.2fx, %.2fx)", t.end > 0 ? block.end / t.end : 0.0, t.busy > 0 ? block.busy / t.busy : 0.0);
    std::printf("\n");
  };
  line(block, "a block a row set");
  line(warp, "a warp a row set");
  const std::string kernels =
      "a block " + std::to_string(block_row_sets) + " row sets, their products dealt to its lanes";
  line(flat, kernels.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return nqueens::bench::tool_main("nqueens_gpu_join_lanes", [&] { return run(argc, argv); });
}
