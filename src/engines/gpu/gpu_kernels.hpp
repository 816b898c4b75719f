#pragma once

// The GPU engine's kernels: jobs of the quadrant plan (a subproblem, or a
// slice of one) counted on the device, in launches that hand each other
// their results through memory (gpu_job.hpp). Each launch takes a whole
// round of jobs (launch_round, below), so that a subproblem costs a
// fraction of a launch, not ten. A round of sizes (where the host does not
// size a call's jobs by their groups' bounds: gpu_rounds.hpp) runs
//
//   clear    each job's state and result
//   size     the halves each group's joins can make, by signatures alone:
//            what the host sizes its buffers from (gpu_rounds.hpp); for odd
//            n of the quarter placements the middle queen allows, listed
//            first (block_picks), as the join reads them
//
// and a round of counts
//
//   clear    each job's state and result
//   join     the north and south groups from the quarter tables, a block
//            per block_row_sets west row sets, their products dealt to its
//            lanes (the quadrant engine's join, quarter_tables.hpp),
//            each half kept, tagged and categorised by the transposition
//            filter (classify); the halves with a once category also listed
//   once     the pairs of listed halves that share a category, every pair tried
//   stats    how often each diagonal is set in each group
//   layout   the code: the diagonals both groups use, the likeliest to
//            collide first (the key), the rest in 5-bit digits
//   encode   each half as its code; a histogram of the keys
//   scan     where each key's halves begin; each key's visit items: its
//            blocks of up to 1024 south halves (a key of few, one block
//            of 32 to 512: block_words_for), each as many times as its
//            north halves to visit ask (visit_parts), none where it has none
//   scatter  the codes sorted by key
//   visit    an item a block, taken from the round's counter: a key's
//            south halves' bit-sliced tables (a row per digit value: the
//            halves that have none of its bits) in shared memory, then the
//            item's share of the north halves whose key misses theirs, a
//            warp each (32 / words each in a block of fewer than 32 words),
//            ANDs one row per digit, each lane its own word of 32 pairs
//   finish   the checks, the result, and the mark that says all of it ran
//
// The kernels live by stage: gpu_kernel_support.hpp (what they share),
// gpu_join_kernels.hpp (clear, size, join, once, stats), gpu_code_kernels.hpp
// (layout, encode, scan, scatter) and gpu_visit_kernels.hpp (visit, finish).
// Each kernel is a struct: `items(job)` blocks of work (a launch deals
// those of every job of its round to its blocks, round_items_of), `phases` run in
// order with a barrier between them, each
// `run(phase, job, item, thread, shared)` for one thread of one block. A
// thread keeps nothing between phases but what it wrote to `shared` or to
// the job's memory. So the same source runs on the GPU (gpu_device.cu) and,
// a block and a thread at a time, on the CPU (gpu_emulator.cpp), where
// the tests check it against the quadrant engine.
//
// The idea of bit-sliced disjointness tests over key-partitioned groups is
// the quadrant engine's (pair_counter.inc); on the GPU a block's tables live
// in shared memory and a warp visits each north half, each lane ANDing its
// own word (32 of the block's south halves).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engines/gpu/gpu_code_kernels.hpp"
#include "engines/gpu/gpu_job.hpp"
#include "engines/gpu/gpu_join_kernels.hpp"
#include "engines/gpu/gpu_kernel_support.hpp"
#include "engines/gpu/gpu_portable.hpp"
#include "engines/gpu/gpu_round_items.hpp"
#include "engines/gpu/gpu_visit_kernels.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/subproblem_count.hpp"

/// 1: a module whose rounds all take the visit of ten digits (five blocks
/// an SM), to compare on a device with the nine-digit one's six.
#ifndef NQUEENS_GPU_WIDE_VISIT
#define NQUEENS_GPU_WIDE_VISIT 0
#endif

namespace nqueens::detail::gpu {

/// Kernel `name`'s slot in device_work::kernel_nanoseconds (device_kernel_names).
/// Used as a template argument: a name not in the list does not compile.
constexpr std::size_t kernel_slot(std::string_view name) {
  for (std::size_t k = 0; k < device_kernel_names.size(); ++k) {
    if (device_kernel_names[k] == name) return k;
  }
  throw "no kernel of this name";
}

static_assert(counter_dealt<visit_kernel> == (NQUEENS_GPU_VISIT_COUNTER != 0));
static_assert(!counter_dealt<clear_kernel> && !counter_dealt<size_kernel> && !counter_dealt<join_kernel> &&
                  !counter_dealt<once_kernel> && !counter_dealt<stats_kernel> && !counter_dealt<layout_kernel> &&
                  !counter_dealt<encode_kernel> && !counter_dealt<scan_kernel> && !counter_dealt<scatter_kernel> &&
                  !counter_dealt<finish_kernel>,
              "one counter a round (round_counter): the visit alone takes its items from it");

/// Whether a round takes the visit of ten digits (visit_kernel) rather than
/// the compact one: where a job's codes may need them, or a module built
/// with NQUEENS_GPU_WIDE_VISIT asks. One n a round, so one limit.
inline bool round_takes_wide_visit(const gpu_job* jobs, std::uint32_t count) {
  std::uint32_t digits = 0;
  for (std::uint32_t j = 0; j < count; ++j) digits = jobs[j].digits_limit > digits ? jobs[j].digits_limit : digits;
  return digits > compact_job_digits || NQUEENS_GPU_WIDE_VISIT != 0;
}

/// A round's launches, in order, for a launcher (the device's or the
/// emulator's) with `template <class Kernel, std::size_t Slot> void
/// run(std::uint64_t most_blocks)`: the one list of kernels both follow,
/// each with its timing slot. `most_blocks` bounds the launch's items from
/// what the host knows of `jobs`.
template <class Launcher>
void launch_round(Launcher& launcher, round_kind round, const gpu_job* jobs, std::uint32_t count) {
  std::uint64_t row_sets = 0, north = 0, halves = 0, south = 0;  // row_sets: the size and join items
  for (std::uint32_t j = 0; j < count; ++j) {
    row_sets += row_set_items(jobs[j]);
    north += items_for(jobs[j].capacity[0]);
    halves += items_for(jobs[j].capacity[0]) + items_for(jobs[j].capacity[1]) + 1;
    south += items_for(jobs[j].capacity[1]) + max_buckets;
  }
  launcher.template run<clear_kernel, kernel_slot("clear")>(count);
  if (round == round_kind::sizes) {
    launcher.template run<size_kernel, kernel_slot("size")>(row_sets);
    return;
  }
  launcher.template run<join_kernel, kernel_slot("join")>(row_sets);
  launcher.template run<once_kernel, kernel_slot("once")>(north);
  launcher.template run<stats_kernel, kernel_slot("stats")>(halves);
  launcher.template run<layout_kernel, kernel_slot("layout")>(count);
  launcher.template run<encode_kernel, kernel_slot("encode")>(halves);
  launcher.template run<scan_kernel, kernel_slot("scan")>(count);
  launcher.template run<scatter_kernel, kernel_slot("scatter")>(halves);
  if (round_takes_wide_visit(jobs, count)) {
    launcher.template run<visit_kernel, kernel_slot("visit")>(south);
  } else {
    launcher.template run<compact_visit_kernel, kernel_slot("visit")>(south);
  }
  launcher.template run<finish_kernel, kernel_slot("finish")>(count);
}

}  // namespace nqueens::detail::gpu
