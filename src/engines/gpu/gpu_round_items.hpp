#pragma once

// How a launch deals a round's items to its blocks (gpu_kernels.hpp says
// how the kernels fit together): in turn by block index, or, for a kernel
// that asks, from the round's counter as blocks free up.

#include <cstdint>

#include "engines/gpu/gpu_job.hpp"
#include "kernels/host_device.hpp"

namespace nqueens::detail::gpu {

/// Whether a kernel's blocks take their items from a counter
/// (Kernel::dealt_by_counter) rather than in turn by block index (block b
/// of a grid of g: items b, b + g, ...): each
/// block, once done with an item, takes the round's next, so that no SM
/// idles while another works through heavy items dealt to it in advance.
/// The visit's come heavy first within a job: key by key, and a low key's
/// blocks (few bits, so most north halves to visit) first.
template <class Kernel>
inline constexpr bool counter_dealt = requires {
  requires Kernel::dealt_by_counter;
};

/// Whether a kernel dealt by block index looks at the stop word between
/// its items (Kernel::looks_for_stop), as a counter-dealt one does: those
/// whose items grow with n (a size or join item forms every product of
/// its row sets' quarter ranges, a once item pairs listed halves), so that
/// at n = 25..28 a stop ends their launch within a few items a block, not
/// at its end. A stopped launch leaves its round partial: the host never
/// takes such a round (gpu_rounds::run_round).
template <class Kernel>
inline constexpr bool looks_for_stop = requires {
  requires Kernel::looks_for_stop;
};

/// One way or the other: a launch's shared `taken` and its count of items
/// serve one of them (kernel_of).
template <class Kernel>
inline constexpr bool deals_one_way = !(counter_dealt<Kernel> && looks_for_stop<Kernel>);

/// A round's items before each of its jobs, item k of the round being item
/// k - before[j] of job j: each block of a launch finds them once, in two
/// steps with a barrier between, then looks up each item it takes (where
/// walking the jobs for each block read up to 64 jobs' counts in turn, a
/// global load each, before its first item).
struct round_items {
  std::uint64_t before[round_jobs + 1];  // before[count]: all of them

  /// Step one, every thread: jobs thread, thread + block_threads, ...
  template <class Kernel>
  NQUEENS_HD void count(const gpu_job* jobs, std::uint32_t count, std::uint32_t thread) {
    for (std::uint32_t j = thread; j < count; j += block_threads) before[j + 1] = Kernel::items(jobs[j]);
    if (thread == 0) before[0] = 0;
  }
  /// Step two, thread 0 alone.
  NQUEENS_HD void add_up(std::uint32_t count) {
    for (std::uint32_t j = 1; j <= count; ++j) before[j] += before[j - 1];
  }
  /// The job whose items hold `item`. Precondition: item < before[count].
  NQUEENS_HD std::uint32_t job_of(std::uint32_t count, std::uint64_t item) const {
    std::uint32_t low = 0, high = count;  // before[low] <= item < before[high]
    while (high - low > 1) {
      const std::uint32_t mid = (low + high) / 2;
      (before[mid] <= item ? low : high) = mid;
    }
    return low;
  }
};

/// Whether the 32-bit counter can deal a round's `items` to `grid`
/// blocks: each block takes one past the last before it ends, and
/// UINT32_MAX says "stopped" (the stop look), so the counter must reach
/// items + grid without wrapping or meeting it. A job's items are far
/// fewer (a few per key and per share, most_visit_parts); a round that
/// passed anyway would deal items twice and never end, so its jobs fault
/// instead (job_fault::counter_overflow), in the kernel and the emulator alike.
NQUEENS_HD constexpr bool counter_deals(std::uint64_t items, std::uint32_t grid) {
  return items < std::uint64_t{UINT32_MAX} - grid;
}

/// Where a kernel dealt by a counter takes its items: the round's first
/// job's state serves the round (the clear kernel zeroes it), so one kernel
/// of a round at most is dealt by it (launch_round checks).
NQUEENS_HD inline std::uint32_t* round_counter(const gpu_job* jobs) { return &jobs[0].state->items_taken; }

/// Shared memory a launch takes beside its kernel's (kernel_of, gpu_cuda_stream.cu):
/// the round's items and the item a block took.
inline constexpr std::uint64_t launch_shared_bytes = sizeof(round_items) + sizeof(std::uint32_t);

/// Whether `blocks` blocks of a kernel with `shared_bytes` of shared memory
/// fit an SM of an H100 or H200: 228 KiB, 1 KiB of it reserved per block,
/// the launch's own beside the kernel's.
constexpr bool blocks_fit_an_sm(std::uint64_t shared_bytes, int blocks) {
  return (shared_bytes + launch_shared_bytes + 1024) * static_cast<std::uint64_t>(blocks) <= std::uint64_t{228} * 1024;
}

}  // namespace nqueens::detail::gpu
